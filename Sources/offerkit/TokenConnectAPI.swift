import ArgumentParser
import OfferSigning

struct TokenConnectAPI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect-api",
        abstract: "A bearer token for the App Store Connect API, from a team or individual API key.")

    @Option(parsing: .unconditional, help: "Seconds until the token expires: 1 to 1200.")
    var lifetime: Int = 900

    @Option(help: "An operation the token may perform, e.g. 'GET /v1/apps'. Repeat for several.")
    var scope: [String] = []

    @Flag(help: "The key is an individual API key: the token carries sub \"user\" instead of iss.")
    var individual = false

    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        // A team key needs the issuer ID: resolved with the key, so every missing credential is named at once.
        let resolved = try Credentials(credentials, needs: individual ? [] : [.issuerId])
        let issuer: ConnectAPITokenSigner.Issuer
        if individual {
            issuer = .individual
        } else {
            guard let issuerId = resolved.issuerId else {
                throw CLIError.credentials(Credentials.missingMessage([.issuerId]))
            }
            issuer = .team(issuerId: issuerId)
        }
        let token = try ConnectAPITokenSigner(key: resolved.key, issuer: issuer).token(lifetime: lifetime, scope: scope)
        try TokenCommand.print(token, as: output.format)
    }
}
