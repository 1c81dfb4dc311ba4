import ArgumentParser
import Foundation
import OfferKitSigningCLI
import OfferSigning

/// `offerkit vectors --out DIR`: language-neutral interop vectors for the key in use.
struct VectorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vectors",
        abstract: "Write interop vectors for the key in use, to check another implementation against.",
        discussion: """
            Writes offerkit-vectors.json (every request type and both tokens, with fixed nonces and clock: the \
            inputs, the exact header and payload JSON and segments or the legacy message, the signing input, a \
            signature and the public key), public-key.pem, and a README.md that explains how to check a signer \
            or a verifier against them. All three are written in full before any replaces an old file. The repository's \
            Tests/Vectors/ is this command's output for the demo key.
            """)

    @Option(help: "The folder to write to; it is created if needed.")
    var out: String

    @Flag(help: "Replace the files if they exist.")
    var force = false

    @OptionGroup var credentials: CredentialOptions

    func run() throws {
        let files = try InteropVectorBuilder(signer: Credentials(credentials, needs: Credentials.signing).signer())
            .standardFiles()
        let folder = URL(fileURLWithPath: out)
        let paths = files.map { folder.appendingPathComponent($0.name).path }
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue { throw CLIError.io(path: path, reason: "is a folder, not a file") }
            if !force { throw CLIError.io(path: path, reason: "already exists (use --force to replace the vectors)") }
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError.io(path: out, reason: "cannot create the folder")
        }
        // All three are written in full before any takes its name, so a failure leaves no mixed set
        // (vectors from one key beside the public key of another).
        // Files not yet given their names go with their staging folders if anything fails.
        var pending: [AtomicFile.Staged] = []
        for (file, path) in zip(files, paths) {
            pending.append(try AtomicFile.prepare(file.contents, for: path, permissions: 0o644))
        }
        for path in paths {
            try AtomicFile.commit(pending.removeFirst(), to: path, overwrite: force)
        }
        CommandContext.current.error.write(
            Data("offerkit: wrote \(files.map(\.name).joined(separator: ", ")) to \(out)\n".utf8))
    }
}
