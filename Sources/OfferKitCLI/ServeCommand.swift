import ArgumentParser
import Foundation
import Logging
import NIOPosix
import OfferCodes
import OfferJSON
import OfferKitSigningCLI
import OfferLedger
import OfferService

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the signing service: JSON over HTTP for every signing operation, tokens and campaigns.",
        discussion: """
            The configuration file maps bundle IDs to key file, key ID and issuer ID, lists the API keys (as \
            SHA-256 entries from `offerkit api-key create`) and the limits; see keys-example/service.json. More \
            API keys may come from OFFERKIT_API_KEYS (a JSON array of entries). Every operation needs \
            `Authorization: Bearer <secret>` unless --no-auth is given, which is refused on any address but \
            loopback.

            At most --max-connections connections are served at once; more wait in the listen backlog \
            (--backlog). A request whose body is refused (too large), cut short, badly framed or too slow is \
            answered 400, 408 or 413 with `Connection: close`, and the connection is closed without reading on.

            With a code ledger (the configuration's "ledger", or --ledger: a path, sqlite:PATH or \
            postgres://USER@HOST:PORT/DATABASE), the service also hands out codes (POST /v1/codes/claim) and \
            reports campaign status (GET /v1/campaigns/{name}/status), scope `codes`; without one it keeps no \
            state and has neither. OFFERKIT_LEDGER is not read: a service gets a ledger only when asked.

            With a "retention" section, the service also answers Apple's Get Retention Message calls at \
            POST retention.path (default /v1/retention/realtime), with no API key: Apple's signature is verified \
            instead, and anything that does not verify is answered 401. The start names the apps it serves.

            With --tls-certificate-chain and --tls-private-key (or the configuration's "tls" section), the \
            service speaks HTTPS only: TLS 1.2 or later, HTTP/1.1 by ALPN. The chain is PEM certificates, the \
            server's first; the key an unencrypted EC or RSA key in PEM that belongs to it. A certificate that has \
            expired or is not yet valid is refused. The files are read at start: serve a renewed certificate by \
            restarting.

            Logs go to stderr, one line per request with its request id. SIGTERM or SIGINT shut down gracefully: \
            /readyz answers 503, new connections are refused and in-flight requests finish; the exit status is 0. \
            The OpenAPI document is served at /openapi.json.

            Exit codes: 2 usage (such as --no-auth off loopback, a --ledger that cannot be parsed, or one TLS flag \
            without the other), 3 configuration, API keys or TLS certificate and key, 5 the address cannot be bound (such as a port in use) or the ledger cannot \
            be opened.
            """)

    @Option(help: "The service configuration (JSON: apps, apiKeys, limits).")
    var config: String

    @Option(help: "The address to listen on (127.0.0.1 and ::1 are loopback; 0.0.0.0 is every interface).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 lets the system choose; the listening line tells which).")
    var port = 8080

    @Flag(
        name: .customLong("no-auth"),
        help: "Accept requests without an API key. Loopback addresses only; for local development.")
    var noAuth = false

    @Option(
        name: .customLong("max-body-bytes"), parsing: .unconditional,
        help: "The largest request body in bytes (default: config, or 1 MiB).")
    var maxBodyBytes: Int?

    @Option(parsing: .unconditional, help: "How long an operation may run, in seconds (default: config, or 10).")
    var timeout: Double?

    @Option(
        name: .customLong("rate-limit"), parsing: .unconditional,
        help: "Each API key's sustained rate in requests per second (default: config, or 50).")
    var rateLimit: Double?

    @Option(
        parsing: .unconditional,
        help: "How many requests an API key may make at once before the rate applies (default: config, or 100).")
    var burst: Int?

    @Option(
        name: .customLong("max-connections"),
        help: "How many connections are served at once; more wait in the backlog (default: config, or 10000).")
    var maxConnections: Int?

    @Option(
        help: "The listen backlog: connections the kernel queues before they are served (default: config, or 4096).")
    var backlog: Int?

    @Option(
        name: .customLong("ledger"),
        help: ArgumentHelp(
            "The code ledger to hand out codes from: a file path or sqlite:PATH (SQLite), or "
                + "postgres://USER@HOST:PORT/DATABASE (PostgreSQL; the password from PGPASSWORD, not the command "
                + "line). Default: the configuration's \"ledger\"; without either, no ledger.",
            valueName: "path-or-url"))
    var ledger: String?

    @Option(
        name: .customLong("idle-timeout"),
        help: ArgumentHelp(
            "How long a connection may stay silent (or take over its TLS handshake) before it is closed, in "
                + "seconds (1-3600).", valueName: "seconds"))
    var idleTimeout: Int64 = 60

    @Option(
        name: .customLong("tls-certificate-chain"),
        help: ArgumentHelp(
            "Serve HTTPS with this certificate chain (PEM, the server's certificate first); with "
                + "--tls-private-key. Default: the configuration's \"tls\"; without either, plain HTTP.",
            valueName: "file"))
    var tlsCertificateChain: String?

    @Option(
        name: .customLong("tls-private-key"),
        help: ArgumentHelp(
            "The certificate's private key (unencrypted EC or RSA, PEM); with --tls-certificate-chain.",
            valueName: "file"))
    var tlsPrivateKey: String?

    @Option(name: .customLong("log-level"), help: "The least severe level logged to stderr.")
    var logLevel: LogLevel = .info

    /// swift-log's levels, as an option value.
    enum LogLevel: String, ExpressibleByArgument, CaseIterable, EnumeratedValue {
        case trace, debug, info, notice, warning, error, critical

        var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
    }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw CLIError.usage("--port: expected 0-65535 (found \(port))") }
        if let maxBodyBytes, !(1024...104_857_600).contains(maxBodyBytes) {
            throw CLIError.usage("--max-body-bytes: expected 1024-104857600 (found \(maxBodyBytes))")
        }
        if let timeout, !(timeout > 0 && timeout <= 600) {
            throw CLIError.usage("--timeout: expected more than 0 and at most 600 seconds (found \(timeout))")
        }
        if let rateLimit, !(rateLimit > 0 && rateLimit <= 1_000_000) {
            throw CLIError.usage(
                "--rate-limit: expected more than 0 and at most 1000000 per second (found \(rateLimit))")
        }
        if let burst, !(1...1_000_000).contains(burst) {
            throw CLIError.usage("--burst: expected 1-1000000 (found \(burst))")
        }
        if let maxConnections, !(1...1_000_000).contains(maxConnections) {
            throw CLIError.usage("--max-connections: expected 1-1000000 (found \(maxConnections))")
        }
        if let backlog, !(1...65_535).contains(backlog) {
            throw CLIError.usage("--backlog: expected 1-65535 (found \(backlog))")
        }
        guard (1...3600).contains(idleTimeout) else {
            throw CLIError.usage("--idle-timeout: expected 1-3600 seconds (found \(idleTimeout))")
        }
        if (tlsCertificateChain == nil) != (tlsPrivateKey == nil) {
            throw CLIError.usage(
                tlsCertificateChain == nil
                    ? "--tls-private-key: expected --tls-certificate-chain too (a key needs its certificate chain)"
                    : "--tls-certificate-chain: expected --tls-private-key too (a certificate chain needs its key)")
        }
    }

    func run() async throws {
        if noAuth, !OfferService.isLoopback(host) { throw ConfigurationError.unauthenticatedNonLoopback(host: host) }
        var configuration = try ServiceConfiguration.load(path: config)
        for note in configuration.deprecationNotes { Deprecation.note(note) }
        if let maxBodyBytes { configuration.limits.maxBodyBytes = maxBodyBytes }
        if let timeout { configuration.limits.requestTimeoutSeconds = timeout }
        if let rateLimit { configuration.limits.requestsPerSecond = rateLimit }
        if let burst { configuration.limits.burst = burst }
        if let maxConnections { configuration.limits.maxConnections = maxConnections }
        if let backlog { configuration.limits.backlog = backlog }
        if let ledger { configuration.ledger = try LedgerLocator.location(ledger, option: "--ledger") }
        if let tlsCertificateChain, let tlsPrivateKey {
            configuration.tls = TLSFiles(
                certificateChain: tlsCertificateChain, privateKey: tlsPrivateKey, origin: .flags)
        }
        // Before the ledger: a bad certificate is said at once, not after waiting for PostgreSQL.
        let tls = try configuration.tls.map { files throws(ConfigurationError) in try ServiceTLS.load(files) }
        // A PostgreSQL ledger's connections run while the service runs, and end with it.
        guard let location = configuration.ledger else {
            return try await serve(configuration, tls: tls, ledger: nil)
        }
        try await LedgerOptions.withLedger(location) { ledger in
            try await serve(configuration, tls: tls, ledger: ledger)
        }
    }

    private func serve(_ configuration: ServiceConfiguration, tls: ServiceTLS?, ledger: CodeLedger?) async throws {
        let service = try OfferService(
            configuration: configuration, ledger: ledger, authentication: noAuth ? .disabled : .required)
        // Before listening: a rule that would sign an offer App Store Connect does not have.
        try await service.checkRetentionOffers(source: config)
        let keyFiles =
            configuration.apps.values.map(\.keyFile)
            + [configuration.connectAPI?.keyFile, configuration.tls?.privateKey].compactMap { $0 }
        for keyFile in Set(keyFiles).sorted() { Credentials.warnIfExposed(keyFile) }

        // Lines are written from a thread of their own (ServiceLogHandler, LogWriter); every line
        // logged is written before this command returns or fails.
        var logger = Logger(label: "offerkit") { ServiceLogHandler(label: $0) }
        logger.logLevel = logLevel.level
        defer { LogWriter.standardError.flush() }
        if noAuth {
            Output.warning(
                "AUTHENTICATION IS OFF (--no-auth): anyone who can connect to \(host):\(port) can sign with every "
                    + "configured key" + (configuration.apiKeys.isEmpty ? "" : "; the configured API keys are ignored"))
        }
        let limits = configuration.limits
        logger.info(
            "starting",
            metadata: [
                "apps": .string(service.state.apps.bundleIds.joined(separator: ",")),
                "api.keys": .stringConvertible(noAuth ? 0 : configuration.apiKeys.count),
                "limits.maxBodyBytes": .stringConvertible(limits.maxBodyBytes),
                "limits.timeoutSeconds": .stringConvertible(limits.requestTimeoutSeconds),
                "limits.requestsPerSecond": .stringConvertible(limits.requestsPerSecond),
                "limits.burst": .stringConvertible(limits.burst),
                "limits.maxConnections": .stringConvertible(limits.maxConnections),
                "limits.backlog": .stringConvertible(limits.backlog),
                // The ledger's path, or its URL with the password replaced by ***.
                "ledger": .string(configuration.ledger?.description ?? "none"),
                // HTTPS: the certificate's subject and expiry (a renewed one is served after a restart).
                "tls": .string(
                    tls.map { "\($0.subject), valid until \(ServiceTLS.format($0.notValidAfter))" } ?? "off"),
            ])
        if let tls, tls.notValidAfter < Date().addingTimeInterval(14 * 86_400) {
            Output.warning(
                "the TLS certificate (\(tls.subject)) expires on \(ServiceTLS.format(tls.notValidAfter)): renew it "
                    + "and restart the service before then")
        }
        if let retention = service.state.retention {
            // Which apps Apple's calls are answered for, and where: what `offerkit retention url set` registers;
            // and the roots a request must chain to (roots of your own only ever answer test environments).
            let apps = retention.responder.apps.map { "\($0.bundleId) (appAppleId \($0.appAppleId))" }
            let environments = retention.responder.settings.environments.map(\.rawValue).sorted()
            let roots = retention.trustedRoots.dropFirst()
            let trust =
                roots.isEmpty
                ? retention.trustedRoots.joined()
                : "\(retention.trustedRoots[0]) or the test root\(roots.count == 1 ? "" : "s") "
                    + roots.joined(separator: ", ")
            LogWriter.standardError.flush()  // after the lines logged so far
            CommandContext.current.error.write(
                Data(
                    ("offerkit: Get Retention Message endpoint: POST \(retention.path) answers "
                        + "\(environments.joined(separator: " and ")) requests for \(apps.joined(separator: ", ")), "
                        + "signed under \(trust)\n").utf8))
        }
        FileDescriptorLimit.raise(toServe: limits.maxConnections, logger: logger)
        let runner = ServiceRunner(
            service: service, host: host, port: port, logger: logger, idleTimeoutSeconds: idleTimeout, tls: tls)
        try await runner.run { address in
            LogWriter.standardError.flush()
            CommandContext.current.error.write(Data("offerkit: listening on \(address.url)\n".utf8))
        }
        logger.notice("stopped")
    }
}
