import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import OfferAppleVerification
import OfferConnect
import OfferJSON
import OfferRetentionEndpoint
import OfferRetentionEndpointTesting
import OfferSigning

/// Sends real-time requests signed on a test chain to a Get Retention Message endpoint and judges
/// each answer as Apple's performance test does: a 200 with a valid `RealtimeResponseBody`
/// (verified with the app's key when one is given) within ``threshold``.
final class RetentionEndpointProbe: Sendable {
    /// Apple's performance test: an answer must come within 700 ms.
    static let threshold: Duration = .milliseconds(700)

    /// What the probe sends: everything but the request's identifier and signed date.
    struct Template: Sendable {
        var originalTransactionId: String
        var appAppleId: Int64
        var productId: String
        var userLocale: String
        /// `Sandbox` or `Production`.
        var environment: String
        /// The chain's root.pem, which the service must trust.
        var rootCertificate: String
    }

    /// The app's key and bundle ID, to verify what the answers sign.
    struct Verification: Sendable {
        let verifier: JWSVerifier
        let bundleId: String
    }

    /// One request and what came of it.
    struct Outcome: Sendable {
        enum Result: Sendable {
            /// A 200 with a valid answer (verified when a key was given): its kind (``RealtimeAnswer/kind``),
            /// and the answer itself only when the probe keeps bodies (under `--count` it keeps only
            /// the kind and the verdict, not a V2 JWS or `advancedCommerceData` per request).
            case answered(kind: String, answer: RealtimeAnswer?, verified: Bool)
            /// An answer that came but is not a valid `RealtimeResponseBody`, or not a 200.
            case refused(String)
            /// A valid `RealtimeResponseBody` whose signature does not verify with the app's key.
            case notVerified(String)
            /// No answer: the endpoint could not be reached.
            case unreachable(String)
            /// No whole answer within `--timeout`.
            case timedOut(String)
        }
        let requestIdentifier: UUID
        let status: Int?
        /// The answer's bytes; empty under `--count`, where only the verdicts are kept (100,000
        /// answers of up to 64 KiB each would not fit in memory).
        let body: [UInt8]
        let elapsed: Duration
        let result: Result

        var isSuccess: Bool {
            if case .answered = result { elapsed <= RetentionEndpointProbe.threshold } else { false }
        }
    }

    let url: String
    let template: Template
    let signer: RealtimeRequestSigner
    let verification: Verification?
    /// How long a request may take, from sending it to the answer's last byte.
    let timeout: Int
    /// Whether each outcome keeps the answer's bytes (one request) or only the verdict (a load).
    let keepsBodies: Bool
    private let client: HTTPClient

    /// - Parameter trusting: certificates trusted for `https://` besides the system's roots.
    init(
        url: String, template: Template, chain: RetentionTestChain, verification: Verification?, timeout: Int,
        concurrency: Int, trusting: [NIOSSLCertificate] = [], keepsBodies: Bool = true
    ) {
        self.keepsBodies = keepsBodies
        self.url = url
        self.template = template
        self.signer = RealtimeRequestSigner(chain: chain)
        self.verification = verification
        self.timeout = timeout
        // The deadline of ``exchange(_:)`` owns `--timeout`: the client's own timers run longer, so
        // that they never race it (only a connection that takes over 10 s of a longer timeout ends
        // at the client's connect timeout).
        let slack = Int64(Self.clientSlack)
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .seconds(timeout > 10 ? 10 : Int64(timeout) + slack), read: .seconds(Int64(timeout) + slack)))
        configuration.httpVersion = .http1Only
        if !trusting.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(trusting)]
            configuration.tlsConfiguration = tls
        }
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        // One request (bodies kept): a connection that fails fails it at once, saying why, instead of
        // being tried again until the deadline hides the reason. Under `--count` failed connections
        // are tried again: without retries the pool fails every request waiting for a connection when
        // one attempt fails, and one refusal would count as many.
        configuration.connectionPool.retryConnectionEstablishment = !keepsBodies
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// Closes the connections.
    func shutdown() async { try? await client.shutdown() }

    /// Signs one fresh request (a new `requestIdentifier`, `signedDate` now), posts it, reads the answer.
    func send() async -> Outcome {
        let request = DecodedRealtimeRequestBody(
            originalTransactionId: template.originalTransactionId, appAppleId: template.appAppleId,
            productId: template.productId, userLocale: template.userLocale, requestIdentifier: UUID(),
            signedDate: RealtimeRequestSigner.now(), environment: template.environment)
        let body: [UInt8]
        do {
            body = try signer.body(for: request)
        } catch {
            return Outcome(
                requestIdentifier: request.requestIdentifier, status: nil, body: [], elapsed: .zero,
                result: .refused("the request could not be signed (\(error))"))
        }
        var post = HTTPClientRequest(url: url)
        post.method = .POST
        post.headers.add(name: "Content-Type", value: "application/json")
        post.body = .bytes(ByteBuffer(bytes: body))
        let started = ContinuousClock.now
        let exchange: Exchange
        do {
            exchange = try await self.exchange(post)
        } catch {
            let timedOut = error is DeadlinePassed
            return Outcome(
                requestIdentifier: request.requestIdentifier, status: nil, body: [],
                elapsed: ContinuousClock.now - started,
                result: timedOut ? .timedOut(Self.describe(error)) : .unreachable(Self.describe(error)))
        }
        let elapsed = ContinuousClock.now - started
        let (status, answer, tooLarge) = (exchange.status, exchange.answer, exchange.tooLarge)
        func outcome(_ result: Outcome.Result) -> Outcome {
            Outcome(
                requestIdentifier: request.requestIdentifier, status: status, body: keepsBodies ? answer : [],
                elapsed: elapsed, result: result)
        }
        if tooLarge {
            return outcome(.refused(RealtimeAnswerError.tooLarge(bytes: RealtimeAnswer.maximumBytes + 1).message))
        }
        guard status == 200 else { return outcome(.refused(Self.statusProblem(status, template: template))) }
        let read: RealtimeAnswer
        do {
            read = try RealtimeAnswer(body: answer)
        } catch {
            return outcome(.refused("not a valid RealtimeResponseBody: \(error.message)"))
        }
        var verified = false
        if let verification {
            do {
                verified = try read.verify(
                    with: verification.verifier, bundleId: verification.bundleId,
                    originalTransactionId: template.originalTransactionId)
            } catch {
                return outcome(.notVerified("a valid RealtimeResponseBody, but \(error.message)"))
            }
        }
        return outcome(.answered(kind: read.kind, answer: keepsBodies ? read : nil, verified: verified))
    }

    /// What came back for one request.
    private struct Exchange: Sendable {
        var status: Int
        var answer: [UInt8]
        var tooLarge: Bool
    }

    /// Seconds the client's own timers (connect, read, the answer's head) run beyond `--timeout`.
    static let clientSlack = 5

    /// Why a request gave up.
    private struct DeadlinePassed: Error, CustomStringConvertible {
        let seconds: Int
        var description: String { "no whole answer within \(seconds) s (--timeout)" }
    }

    /// Posts `request` and reads its answer (at most ``RealtimeAnswer/maximumBytes``), all within
    /// ``timeout``: AsyncHTTPClient's own deadline ends at the answer's head, and its read timeout
    /// starts again with every byte, so a body that trickles in is cut off here. This deadline is the
    /// only one of `--timeout`'s length: the client's timers have ``clientSlack`` more, so a request
    /// that runs out of time always ends with ``DeadlinePassed``.
    private func exchange(_ request: HTTPClientRequest) async throws -> Exchange {
        let client = self.client
        let seconds = timeout
        return try await withThrowingTaskGroup(of: Exchange?.self) { group in
            group.addTask {
                let response = try await client.execute(
                    request, timeout: .seconds(Int64(seconds + RetentionEndpointProbe.clientSlack)))
                do {
                    let buffer = try await response.body.collect(upTo: RealtimeAnswer.maximumBytes)
                    return Exchange(
                        status: Int(response.status.code), answer: Array(buffer.readableBytesView), tooLarge: false)
                } catch is NIOTooManyBytesError {
                    return Exchange(status: Int(response.status.code), answer: [], tooLarge: true)
                }
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let exchange = first else {
                throw DeadlinePassed(seconds: seconds)
            }
            return exchange
        }
    }

    /// What a status other than 200 means.
    static func statusProblem(_ status: Int, template: Template) -> String {
        guard status == 401 else {
            return "the endpoint answered HTTP \(status); Apple counts only a 200 with a RealtimeResponseBody"
        }
        guard template.environment == "Sandbox" else {
            // A service trusts the chain's root (a root of its own) for the test environments only.
            return "the endpoint answered 401 (it did not verify the request): a request signed under a test chain is "
                + "never answered for \(template.environment), as a service trusts retention.rootCertificates only "
                + "without Production in retention.environments; send it with --environment sandbox"
        }
        return "the endpoint answered 401 (it did not verify the request): the service must list "
            + "\(template.rootCertificate) in retention.rootCertificates, serve an app with appAppleId \(template.appAppleId), and have "
            + "\(template.environment) in retention.environments (its log line's retention.rejection says which)"
    }

    /// A connection error as a person reads it (``ConnectTransport/describe(_:)``).
    private static func describe(_ error: any Error) -> String { ConnectTransport.describe(error) }
}

extension RealtimeAnswerError {
    /// The message, never empty.
    var message: String { errorDescription ?? "invalid" }
}
