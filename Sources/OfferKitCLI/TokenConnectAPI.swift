import ArgumentParser
import OfferKitSigningCLI
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

    @OptionGroup var credentials: ConnectCredentialOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        let token = try ConnectOptions.signer(credentials.inputs, individual: individual).token(
            lifetime: lifetime, scope: scope)
        try TokenCommand.print(token, as: output.format)
    }
}
