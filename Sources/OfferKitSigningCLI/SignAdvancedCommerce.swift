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
        let signer = try Credentials(credentials, needs: Credentials.signing).signer()
        let bytes = try InputFile.read(request, limit: InputFile.requestLimit, what: "an Advanced Commerce request")
        let decoded = try AdvancedCommerce.InAppRequest.decode(json: Array(bytes))
        let jws = try signer.sign(decoded, nonce: try overrides.parsedNonce(), issuedAt: try overrides.issuedAt())
        try SignedJWSOutput.print(jws, keyId: signer.key.keyId, format: output.format) {
            $0.operation = decoded.operation.rawValue
        }
    }
}
