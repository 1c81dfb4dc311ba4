import ArgumentParser
import Foundation
import OfferSigning

struct SignAdvancedCommerce: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advanced-commerce",
        abstract: "Sign an Advanced Commerce in-app request (JSON with its operation) as a compact JWS.",
        discussion: """
            The request file holds the request JSON with "operation" set to CREATE_ONE_TIME_CHARGE, \
            CREATE_SUBSCRIPTION, MODIFY_SUBSCRIPTION or REACTIVATE_SUBSCRIPTION, and Apple's field names. \
            Errors name the JSON path at fault.
            """)

    @Option(help: "The request JSON file, or '-' for stdin.")
    var request: String

    @OptionGroup var overrides: RequestOverrides
    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try credentials.checkStandardInput(["--request": request])
        let signer = try Credentials(credentials).signer()
        let bytes = try InputFile.read(request)
        let decoded = try AdvancedCommerce.InAppRequest.decode(json: Array(bytes))
        let jws = try signer.sign(decoded, nonce: try overrides.parsedNonce(), issuedAt: overrides.issuedAt)
        try SignedJWSOutput.print(jws, keyID: signer.key.keyID, format: output.format) {
            $0.operation = decoded.operation.rawValue
        }
    }
}

/// Reads a named file, or stdin for `-`, with I/O errors (exit 5) that name the path.
enum InputFile {
    static func read(_ path: String) throws -> Data {
        if path == "-" {
            do {
                return try FileHandle.standardInput.readToEnd() ?? Data()
            } catch {
                throw CLIError.io(path: "stdin", reason: "read failed")
            }
        }
        try check(path)
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIError.io(path: path, reason: "cannot be read (permission denied?)")
        }
    }

    /// Throws the I/O error for a path that is missing or a directory.
    static func check(_ path: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError.io(path: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else { throw CLIError.io(path: path, reason: "is a directory") }
    }
}
