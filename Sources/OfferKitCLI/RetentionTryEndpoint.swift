import ArgumentParser
import Foundation
import NIOSSL
import OfferJSON
import OfferKitSigningCLI
import OfferRetentionAPI
import OfferRetentionEndpoint
import OfferRetentionEndpointTesting
import OfferSigning

/// `offerkit retention try-endpoint`: real-time requests signed on a test chain, sent to a Get
/// Retention Message endpoint, and what it answers (or, with `--count`, how fast).
struct RetentionTryEndpoint: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "try-endpoint",
        abstract: "Send a Get Retention Message endpoint real-time requests signed on a test chain; judge the answers.",
        discussion: """
            Signs a real-time request with the chain of `retention test-chain` (a fresh requestIdentifier, \
            signedDate now), posts {"signedPayload": "…"} to --url (http://, or https:// trusting the system's \
            roots and --ca-certificate), and prints the status, \
            the answer and what the customer sees. The answer is read strictly as Apple's RealtimeResponseBody \
            (at most 64 KiB). With the app's credentials (--config and --bundle-id, or the other credential \
            flags, as `sign` takes them) a promotional offer's V2 JWS (transactionId = \
            --original-transaction-id) or V1 signature, and an Advanced Commerce request, are verified with the \
            app's key. The service must trust the chain's root.pem (retention.rootCertificates) and serve \
            --app-apple-id in --environment.

            --count N (at most 100000) sends N requests, --concurrency C (at most 256) at a time, and prints the \
            success rate and response times as Apple's performance test judges them: a success is a 200 with a \
            valid RealtimeResponseBody within 700 ms. An approximation: Apple's test runs from Apple's network.

            Exit codes: 0 a 200 with a valid answer (with --count: every request a success), 1 an answer that \
            is not a 200 with a valid, verified RealtimeResponseBody (a 401 with a hint), 2 usage, 3 credentials, \
            4 the chain folder is not a chain, 5 the endpoint or the chain could not be reached or read.
            """)

    @Option(
        help: ArgumentHelp("The endpoint's URL, such as http://127.0.0.1:8080/v1/retention/realtime.", valueName: "url")
    )
    var url: String

    @Option(help: ArgumentHelp("The folder of `offerkit retention test-chain`.", valueName: "folder"))
    var chain: String

    @Option(
        name: .customLong("app-apple-id"), parsing: .unconditional,
        help: ArgumentHelp("The app's App Apple ID (the service's appAppleId).", valueName: "number"))
    var appAppleId: Int64

    @Option(name: .customLong("product-id"), help: "The subscription the customer looks at cancelling.")
    var productId: String

    @Option(name: .customLong("user-locale"), help: "The customer's locale.")
    var userLocale = "en-US"

    @Option(name: .customLong("original-transaction-id"), help: "The subscription's original transaction ID.")
    var originalTransactionId = "2000000900000001"

    @Option(
        help: ArgumentHelp(
            "Sandbox or Production (Apple's names, in any case): the request's environment.",
            valueName: "environment"))
    var environment = RetentionEnvironment.sandbox.rawValue

    @Option(parsing: .unconditional, help: "Seconds each request may take (1 to 600).")
    var timeout = 10

    @Option(
        name: .customLong("ca-certificate"),
        help: ArgumentHelp(
            "A PEM file of certificates to trust for an https:// --url besides the system's (such as the CA of "
                + "offerkit serve's own TLS certificate).", valueName: "file"))
    var caCertificate: String?

    @Option(parsing: .unconditional, help: "How many requests to send (1 to 100000).")
    var count = 1

    @Option(parsing: .unconditional, help: "How many requests at a time (1 to 256).")
    var concurrency = 1

    @OptionGroup var credentials: CredentialOptions
    @OptionGroup var output: OutputOptions

    static let maximumCount = 100_000
    static let maximumConcurrency = 256

    func validate() throws {
        guard (1...Self.maximumCount).contains(count) else {
            throw CLIError.usage("--count must be 1 to \(Self.maximumCount), not \(count)")
        }
        guard (1...Self.maximumConcurrency).contains(concurrency) else {
            throw CLIError.usage("--concurrency must be 1 to \(Self.maximumConcurrency), not \(concurrency)")
        }
        guard (1...600).contains(timeout) else {
            throw CLIError.usage("--timeout must be 1 to 600 seconds, not \(timeout)")
        }
        guard appAppleId > 0 else {
            throw CLIError.usage("--app-apple-id must be a positive number, not \(appAppleId)")
        }
        guard let parsed = URLComponents(string: url), let scheme = parsed.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = parsed.host, !host.isEmpty,
            parsed.user == nil, parsed.password == nil
        else {
            throw CLIError.usage(
                "--url must be an http:// or https:// URL with a host and no user, such as "
                    + "http://127.0.0.1:8080/v1/retention/realtime")
        }
        do {
            _ = try RetentionIdentifier.productId(productId, field: "--product-id")
            _ = try RetentionIdentifier.locale(userLocale, field: "--user-locale")
            _ = try RetentionIdentifier.originalTransactionId(
                originalTransactionId, field: "--original-transaction-id")
        } catch {
            throw CLIError.usage(error.errorDescription ?? "\(error)")
        }
        _ = try requestEnvironment()
    }

    /// `--environment` as the request spells it: `Sandbox` or `Production`.
    func requestEnvironment() throws -> String {
        try RetentionOptions.environment(environment).appleName
    }

    func run() async throws {
        let folder = URL(fileURLWithPath: chain)
        let loaded: RetentionTestChain
        do {
            loaded = try RetentionTestChain(folder: folder)
        } catch .io(let path, let reason) {
            throw CLIError.io(path: path, reason: reason)
        } catch {
            throw CLIError.invalidInput("--chain \(chain): \(error.errorDescription ?? "not a test chain")")
        }
        let template = RetentionEndpointProbe.Template(
            originalTransactionId: originalTransactionId, appAppleId: appAppleId, productId: productId,
            userLocale: userLocale, environment: try requestEnvironment(),
            rootCertificate: folder.appendingPathComponent(RetentionTestChain.rootFile).path)
        let probe = RetentionEndpointProbe(
            url: url, template: template, chain: loaded, verification: try verification(), timeout: timeout,
            concurrency: min(concurrency, count), trusting: try trustedCertificates(), keepsBodies: count == 1)
        if count == 1 {
            let outcome = await probe.send()
            await probe.shutdown()
            try report(outcome, verifying: probe.verification != nil)
        } else {
            let started = ContinuousClock.now
            let outcomes = await Self.load(probe, count: count, concurrency: min(concurrency, count))
            let elapsed = ContinuousClock.now - started
            await probe.shutdown()
            try RetentionLoadReport(
                url: url, outcomes: outcomes, concurrency: min(concurrency, count), elapsed: elapsed
            )
            .print(format: output.format)
        }
    }

    /// The certificates of `--ca-certificate`, if given: PEM, at least one, at most 1 MiB.
    private func trustedCertificates() throws -> [NIOSSLCertificate] {
        guard let caCertificate else { return [] }
        let bytes = try InputFile.read(caCertificate, limit: InputFile.configLimit, what: "a PEM certificate file")
        guard let certificates = try? NIOSSLCertificate.fromPEMBytes(bytes), !certificates.isEmpty else {
            throw CLIError.invalidInput(
                "--ca-certificate \(caCertificate): expected PEM certificates (-----BEGIN CERTIFICATE-----), found "
                    + "none that could be read")
        }
        return certificates
    }

    /// The app's key and bundle ID, when any credential is given (flags, OFFERKIT_* or a config).
    private func verification() throws -> RetentionEndpointProbe.Verification? {
        let given = try Credentials.Identifiers(credentials, environment: CommandContext.current.environment)
        guard given.givenAnything else { return nil }
        let resolved = try Credentials(credentials, needs: [.bundleId])
        return RetentionEndpointProbe.Verification(
            verifier: JWSVerifier(key: resolved.key), bundleId: resolved.bundleId ?? "")
    }

    /// Sends `count` requests, `concurrency` at a time.
    static func load(_ probe: RetentionEndpointProbe, count: Int, concurrency: Int) async
        -> [RetentionEndpointProbe.Outcome]
    {
        await withTaskGroup(of: RetentionEndpointProbe.Outcome.self) { group in
            var outcomes: [RetentionEndpointProbe.Outcome] = []
            outcomes.reserveCapacity(count)
            var sent = 0
            while sent < concurrency {
                group.addTask { await probe.send() }
                sent += 1
            }
            while let outcome = await group.next() {
                outcomes.append(outcome)
                if sent < count {
                    group.addTask { await probe.send() }
                    sent += 1
                }
            }
            return outcomes
        }
    }

    /// Prints one exchange and exits with what it says.
    private func report(_ outcome: RetentionEndpointProbe.Outcome, verifying: Bool) throws {
        let shownTime = String(format: "%.1f", outcome.elapsed.milliseconds)
        let answerJSON =
            (try? JSONValue.parse(outcome.body)) ?? .string(String(decoding: outcome.body.prefix(2000), as: UTF8.self))
        var members: [(key: String, value: JSONValue)] = [
            ("url", .string(url)), ("requestIdentifier", .string(outcome.requestIdentifier.lowercasedString)),
            ("status", outcome.status.map { .integer($0) } ?? .null),
            ("milliseconds", .number(shownTime)),
        ]
        var lines: [String] = []
        if let status = outcome.status { lines.append("status \(status) in \(shownTime) ms") }
        var failure: CLIError?
        switch outcome.result {
        case .answered(let kind, let answer, let verified):
            // One request keeps its answer (`keepsBodies`).
            let customerSees = answer?.customerSees ?? kind
            members += [
                ("answer", answerJSON), ("valid", .bool(true)), ("decision", .string(kind)),
                ("customerSees", .string(customerSees)),
                ("verified", verifying ? .bool(verified) : .null),
            ]
            lines.append("answer \(String(decoding: outcome.body, as: UTF8.self))")
            lines.append("the customer sees \(customerSees)")
            if verified {
                lines.append("verified with the app's key")
            } else if !verifying, answer?.signs == true {
                lines.append("not verified: give the app's credentials (--config and --bundle-id) to verify it")
            }
            if outcome.elapsed > RetentionEndpointProbe.threshold {
                lines.append(
                    "slower than Apple's \(RetentionLoadReport.thresholdMilliseconds) ms: Apple would show the default message"
                )
            }
        case .refused(let problem), .notVerified(let problem):
            members += [
                ("answer", outcome.body.isEmpty ? .null : answerJSON), ("valid", .bool(false)),
                ("problem", .string(problem)),
            ]
            if !outcome.body.isEmpty {
                lines.append("answer \(String(decoding: outcome.body.prefix(2000), as: UTF8.self))")
            }
            failure = .verificationFailed(problem)
        case .unreachable(let problem), .timedOut(let problem):
            members += [("valid", .bool(false)), ("problem", .string(problem))]
            failure = .io(path: url, reason: "could not be reached: \(problem)")
        }
        switch output.format {
        case .text: for line in lines { Output.line(line) }
        case .json: Output.line(JSONValue.object(members).text())
        }
        if let failure { throw failure }
    }
}

extension RealtimeAnswer {
    /// Whether the answer carries a signature (an offer or an Advanced Commerce request).
    var signs: Bool {
        switch self {
        case .promotionalOfferV1, .promotionalOfferV2, .advancedCommerceInfo: true
        case .message, .alternateProduct, .default: false
        }
    }
}
