import ArgumentParser
import Foundation
import OfferKitSigningCLI
import OfferRetentionEndpointTesting

/// `offerkit retention test-chain`: a fresh test chain in a folder, to try an endpoint with.
struct RetentionTestChainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-chain",
        abstract:
            "Make a test chain shaped like the App Store's (root, intermediate, leaf) to sign real-time requests.",
        discussion: """
            Writes root.pem, intermediate.pem, leaf.pem and leaf-key.pem (mode 0600) into --out (made if missing), \
            each file whole, and prints the path of root.pem and the line to add to the service configuration's \
            retention section. Existing files are left untouched (exit 5) unless --force. Apple never signs with \
            this chain: a service that trusts it answers `offerkit retention try-endpoint`, and must not trust it \
            in production.
            """)

    @Option(help: ArgumentHelp("The folder to write the chain into.", valueName: "folder"))
    var out: String

    @Flag(help: "Replace a chain already in the folder.")
    var force = false

    @OptionGroup var output: OutputOptions

    func run() throws {
        guard !out.isEmpty else { throw CLIError.usage("--out must name a folder") }
        let folder = URL(fileURLWithPath: out)
        let chain: RetentionTestChain
        do {
            chain = try RetentionTestChain()
        } catch {
            throw CLIError.io(path: out, reason: "the certificates could not be made (\(error))")
        }
        do {
            try chain.write(to: folder, overwrite: force)
        } catch .fileExists(let path) {
            throw CLIError.io(path: path, reason: "already exists; give --force to replace the chain")
        } catch {
            throw CLIError.io(path: out, reason: error.errorDescription ?? "not written")
        }
        let rootPath = folder.appendingPathComponent(RetentionTestChain.rootFile).path
        let setting = #""rootCertificates": ["\#(rootPath)"]"#
        switch output.format {
        case .text:
            Output.line(rootPath)
            Output.line("add to the service configuration's \"retention\" section (tests only): \(setting)")
        case .json:
            struct Made: Encodable {
                let folder: String
                let rootCertificate: String
                let rootCertificates: [String]
            }
            try Output.json(Made(folder: folder.path, rootCertificate: rootPath, rootCertificates: [rootPath]))
        }
    }
}
