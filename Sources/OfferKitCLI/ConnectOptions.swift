import ArgumentParser
import Foundation
import OfferConnect
import OfferConnectAPI
import OfferKitSigningCLI
import OfferSigning

/// How the commands that talk to App Store Connect (`codes apply`, `codes fetch`,
/// `codes deactivate --apply`, `codes lookup`) reach it: the API key (as `token connect-api` takes it), the
/// address, timeouts and parallelism.
struct ConnectOptions: ParsableArguments {
    @OptionGroup var credentials: ConnectCredentialOptions

    @Flag(help: "The key is an individual API key: tokens carry sub \"user\" instead of iss.")
    var individual = false

    @Option(
        name: .customLong("api-base-url"),
        help: ArgumentHelp(
            "App Store Connect's address (for tests and proxies). Plain http only on loopback. Default: "
                + "$\(Self.baseURLVariable), else \(ConnectAPIAddress.apple.baseURL).",
            valueName: "url"))
    var apiBaseURL: String?

    /// The environment variable that gives `--api-base-url` when the flag is absent.
    static let baseURLVariable = "OFFERKIT_CONNECT_API_URL"

    @Option(parsing: .unconditional, help: "Seconds each request may take (1 to 600).")
    var timeout = 60

    @Option(parsing: .unconditional, help: "Requests in flight at most (1 to 16).")
    var parallel = 4

    @Option(
        name: .customLong("token-lifetime"), parsing: .unconditional,
        help: "Seconds each bearer token is valid (1 to 1200); a new one is made when a quarter of it is left.")
    var tokenLifetime = 600

    @Flag(help: "Print each request on stderr: method, path, status and time (never headers or tokens).")
    var verbose = false

    /// The checked address.
    func address(environment: [String: String] = CommandContext.current.environment) throws -> ConnectAPIAddress {
        if let apiBaseURL { return try ConnectAPIAddress(apiBaseURL) }
        guard let text = environment[Self.baseURLVariable], !text.isEmpty else { return .apple }
        do {
            return try ConnectAPIAddress(text)
        } catch .invalidBaseURL(_, let reason) {
            throw CLIError.usage("\(Self.baseURLVariable)=\(text): \(reason)")
        } catch {
            throw error
        }
    }

    /// The transport settings, after checking the numbers.
    func settings() throws -> ConnectTransport.Settings {
        guard (1...600).contains(timeout) else {
            throw CLIError.usage("--timeout must be 1 to 600 seconds, not \(timeout)")
        }
        guard (1...16).contains(parallel) else { throw CLIError.usage("--parallel must be 1 to 16, not \(parallel)") }
        guard (1...ConnectAPITokenSigner.maximumLifetime).contains(tokenLifetime) else {
            throw CLIError.usage(
                "--token-lifetime must be 1 to \(ConnectAPITokenSigner.maximumLifetime) seconds (Apple's limit), "
                    + "not \(tokenLifetime)")
        }
        var settings = ConnectTransport.Settings()
        settings.requestTimeout = .seconds(timeout)
        // Connecting gets at most half the request's time (and 10 s), so that a server that cannot
        // be reached is told apart from one that does not answer: only the second may have the request.
        settings.connectTimeout = .milliseconds(min(timeout * 500, 10_000))
        settings.parallel = parallel
        return settings
    }

    /// The token signer of the API key (team key: with its issuer ID).
    func signer() throws -> ConnectAPITokenSigner { try Self.signer(credentials.inputs, individual: individual) }

    /// The token signer of an App Store Connect API key: a team key needs its issuer ID (resolved
    /// with the key, so that every missing credential is named at once).
    static func signer(_ credentials: CredentialInputs, individual: Bool) throws -> ConnectAPITokenSigner {
        if individual, credentials.issuerId != nil {
            throw CLIError.usage(
                "--issuer-id does not go with --individual: an individual key's tokens carry no issuer")
        }
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
        return try ConnectAPITokenSigner(key: resolved.key, issuer: issuer)
    }
}
