import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import OfferAppleVerification
import OfferJSON
import OfferRetentionTesting
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
            /// A 200 with a valid answer (verified when a key was given).
            case answered(RealtimeAnswer, verified: Bool)
            /// An answer that came but is not a valid (or verified) `RealtimeResponseBody`, or not a 200.
            case refused(String)
            /// No answer: the endpoint could not be reached, or did not answer in time.
            case unreachable(String)
        }
        let requestIdentifier: UUID
        let status: Int?
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
    /// How long a request may take to connect and bring its answer's head (the body's reads each as long).
    let timeout: Int
    private let client: HTTPClient

    /// - Parameter trusting: certificates trusted for `https://` besides the system's roots.
    init(
        url: String, template: Template, chain: RetentionTestChain, verification: Verification?, timeout: Int,
        concurrency: Int, trusting: [NIOSSLCertificate] = []
    ) {
        self.url = url
        self.template = template
        self.signer = RealtimeRequestSigner(chain: chain)
        self.verification = verification
        self.timeout = timeout
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(Int64(min(timeout, 10))), read: .seconds(Int64(timeout))))
        configuration.httpVersion = .http1Only
        if !trusting.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(trusting)]
            configuration.tlsConfiguration = tls
        }
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
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
        let status: Int
        var answer: [UInt8] = []
        var tooLarge = false
        do {
            let response = try await client.execute(post, timeout: .seconds(Int64(timeout)))
            status = Int(response.status.code)
            do {
                let buffer = try await response.body.collect(upTo: RealtimeAnswer.maximumBytes)
                answer = Array(buffer.readableBytesView)
            } catch is NIOTooManyBytesError {
                tooLarge = true
            }
        } catch {
            return Outcome(
                requestIdentifier: request.requestIdentifier, status: nil, body: [],
                elapsed: ContinuousClock.now - started, result: .unreachable(Self.describe(error)))
        }
        let elapsed = ContinuousClock.now - started
        func outcome(_ result: Outcome.Result) -> Outcome {
            Outcome(
                requestIdentifier: request.requestIdentifier, status: status, body: answer, elapsed: elapsed,
                result: result)
        }
        if tooLarge {
            return outcome(.refused(RealtimeAnswerError.tooLarge(bytes: RealtimeAnswer.maximumBytes + 1).message))
        }
        guard status == 200 else { return outcome(.refused(Self.statusProblem(status, template: template))) }
        do {
            let read = try RealtimeAnswer(body: answer)
            var verified = false
            if let verification {
                verified = try read.verify(
                    with: verification.verifier, bundleId: verification.bundleId,
                    originalTransactionId: template.originalTransactionId)
            }
            return outcome(.answered(read, verified: verified))
        } catch {
            return outcome(.refused("not a valid RealtimeResponseBody: \(error.message)"))
        }
    }

    /// What a status other than 200 means.
    static func statusProblem(_ status: Int, template: Template) -> String {
        guard status == 401 else {
            return "the endpoint answered HTTP \(status); Apple counts only a 200 with a RealtimeResponseBody"
        }
        return "the endpoint answered 401 (it did not verify the request): the service must list "
            + "\(template.rootCertificate) in retention.rootCertificates, serve an app with appAppleId \(template.appAppleId), and have "
            + "\(template.environment) in retention.environments (its log line's retention.rejection says which)"
    }

    private static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.count > 300 ? String(text.prefix(300)) + "…" : text
    }
}

extension RealtimeAnswerError {
    /// The message, never empty.
    var message: String { errorDescription ?? "invalid" }
}
