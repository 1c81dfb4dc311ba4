import ArgumentParser
import OfferKitSigningCLI
import OfferSigning

struct TokenServerAPI: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server-api",
        abstract: "A bearer token for the App Store Server API (claims iss, iat, exp, aud, bid).")

    @Option(parsing: .unconditional, help: "Seconds until the token expires: 1 to 3600.")
    var lifetime: Int = 300

    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let token = try Credentials(credentials, needs: Credentials.signing).signer().serverAPIToken(lifetime: lifetime)
        try TokenCommand.print(token, as: output.format)
    }
}
