import ArgumentParser
import Foundation
import OfferConnect
import OfferConnectAPI
import OfferJSON
import OfferKitSigningCLI
import OfferRetentionAPI
import OfferRetentionClient
import OfferSigning

/// What every `offerkit retention` command takes: the app's In-App Purchase key (as `token
/// server-api` takes it), the environment, the address, the timeout, `--verbose` and `--format`.
struct RetentionOptions: ParsableArguments {
    @OptionGroup var credentials: CredentialOptions

    @Option(
        help: ArgumentHelp(
            "Sandbox or Production (Apple's names, in any case): Apple's base URL, and which environment's "
                + "messages, images and URL.",
            valueName: "environment"))
    var environment = RetentionEnvironment.sandbox.rawValue

    @Option(
        name: .customLong("api-base-url"),
        help: ArgumentHelp(
            "The App Store Server API's address (for tests and proxies); plain http only on loopback. Default: "
                + "$\(Self.baseURLVariable), else Apple's base URL of --environment.",
            valueName: "url"))
    var apiBaseURL: String?

    /// The environment variable that gives `--api-base-url` when the flag is absent.
    static let baseURLVariable = "OFFERKIT_SERVER_API_URL"

    @Option(parsing: .unconditional, help: "Seconds each request may take, its whole answer included (1 to 600).")
    var timeout = 30

    @Option(
        name: .customLong("token-lifetime"), parsing: .unconditional,
        help: "Seconds each bearer token is valid (1 to 3600); a new one is made when a quarter of it is left.")
    var tokenLifetime = 300

    @Flag(help: "Print each request on stderr: method, path, status and time (never headers, tokens or keys).")
    var verbose = false

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    /// `--environment`, checked.
    func resolvedEnvironment() throws -> RetentionEnvironment {
        try Self.environment(environment)
    }

    /// `text` (any case) as an environment; otherwise a usage error naming `--environment`.
    static func environment(_ text: String) throws -> RetentionEnvironment {
        do {
            return try RetentionEnvironment.read(text, field: "--environment")
        } catch {
            throw CLIError.usage(error.localizedDescription)
        }
    }

    /// The address: `--api-base-url`, else `OFFERKIT_SERVER_API_URL`, else `nil` (Apple's).
    func address(environment: [String: String] = CommandContext.current.environment) throws -> ConnectAPIAddress? {
        if let apiBaseURL { return try ConnectAPIAddress(apiBaseURL) }
        guard let text = environment[Self.baseURLVariable], !text.isEmpty else { return nil }
        do {
            return try ConnectAPIAddress(text)
        } catch .invalidBaseURL(_, let reason) {
            throw CLIError.usage("\(Self.baseURLVariable)=\(text): \(reason)")
        } catch {
            throw error
        }
    }

    /// A client for these options; the credentials are resolved as `token server-api` resolves them.
    func client() throws -> RetentionClient {
        guard (1...600).contains(timeout) else {
            throw CLIError.usage("--timeout must be 1 to 600 seconds, not \(timeout)")
        }
        guard (1...OfferSigner.serverAPITokenMaximumLifetime).contains(tokenLifetime) else {
            throw CLIError.usage(
                "--token-lifetime must be 1 to \(OfferSigner.serverAPITokenMaximumLifetime) seconds (Apple's limit), "
                    + "not \(tokenLifetime)")
        }
        let environment = try resolvedEnvironment()
        let address = try address()
        let signer = try Credentials(credentials, needs: Credentials.signing).signer()
        var settings = RetentionClient.defaultSettings
        settings.requestTimeout = .seconds(timeout)
        // Connecting gets at most half the request's time (and 10 s), as for `codes apply`.
        settings.connectTimeout = .milliseconds(min(timeout * 500, 10_000))
        let verbose = verbose
        // Events come from the client's tasks and threads: they go to this command's stderr.
        let context = CommandContext.current
        return try RetentionClient(
            environment: environment, address: address, signer: signer, tokenLifetime: tokenLifetime,
            settings: settings
        ) { event in
            guard verbose else { return }
            switch event {
            case .exchange(let exchange): context.writeError("offerkit: \(exchange.line)\n")
            case .note(let text): context.writeError("offerkit: \(text)\n")
            }
        }
    }

    /// Runs `body` with a client, then closes its connections however `body` ends.
    func run<Result>(_ body: (RetentionClient) async throws -> Result) async throws -> Result {
        let client = try client()
        do {
            let result = try await body(client)
            await client.shutdown()
            return result
        } catch {
            await client.shutdown()
            throw error
        }
    }

    /// Prints `value` as one JSON object with `environment` first, or `text`.
    func print(_ text: @autoclosure () -> String, json members: [(key: String, value: JSONValue)]) throws {
        switch format {
        case .text: Output.line(text())
        case .json:
            let environment = try resolvedEnvironment()
            Output.line(JSONValue.object([("environment", .string(environment.rawValue))] + members).text())
        }
    }
}
