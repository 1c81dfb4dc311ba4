import Foundation
import OfferConnect
import OfferConnectAPI
import OfferJSON
import OfferRetentionAPI
import OfferSigning

/// A client of Apple's Retention Messaging API (App Store Server API): messages, images, default
/// messages, the real-time URL and the performance test, for one app and one environment.
///
/// It sends through `codes apply`'s transport (AsyncHTTPClient, HTTP/1.1, a timeout that covers
/// the whole answer, plain `http` only on loopback) with App Store Server API tokens made from
/// the In-App Purchase key (claims `iss`, `iat`, `exp`, `aud`, `bid`), made again when a quarter
/// of a token's lifetime is left. Every body is checked against Apple's documented limits before
/// it leaves (``UploadMessageRequestBody/validated()``, ``PNGImage``, ``RealtimeURL``,
/// ``RetentionIdentifier``).
///
/// Retries: a failure to connect, a `5xx` and a `429` (after its `Retry-After`, a UNIX time in
/// milliseconds, at most ``ConnectTransport/Settings/retryAfterCap``) are sent again, up to
/// ``ConnectTransport/Settings/attempts`` attempts. When an attempt's outcome is unknown (a timeout,
/// a dropped connection, or a `5xx` that may have come after the change), a request that is safe to
/// repeat is sent again; an upload is looked up in the list first; a delete that then finds nothing
/// to delete is done; Initiate Performance Test is not sent again after a lost answer
/// (``RetentionAPIError/outcomeUnknown(operation:reason:)``), only after a `5xx` (Apple's "errors to
/// retry"; a test that did start makes Apple refuse the second with `ExistingPerformanceTestRunError`).
///
/// Call ``shutdown()`` when done.
public final class RetentionClient: Sendable {
    public let environment: RetentionEnvironment
    let transport: ConnectTransport
    let events: @Sendable (RetentionEvent) -> Void

    /// - Parameters:
    ///   - address: where to send (`--api-base-url`); `nil` for Apple's base URL of `environment`.
    ///   - signer: the app's signer (In-App Purchase key, issuer ID, bundle ID): it makes the tokens.
    ///   - tokenLifetime: seconds each token is valid, 1 to 3600.
    public init(
        environment: RetentionEnvironment, address: ConnectAPIAddress? = nil, signer: OfferSigner,
        tokenLifetime: Int = 300, settings: ConnectTransport.Settings = RetentionClient.defaultSettings,
        events: @escaping @Sendable (RetentionEvent) -> Void = { _ in }
    ) throws(ConnectError) {
        self.environment = environment
        self.events = events
        let tokens = ConnectTokenSource(lifetime: min(tokenLifetime, OfferSigner.serverAPITokenMaximumLifetime)) {
            try signer.serverAPIToken(lifetime: $0, issuedAt: $1)
        }
        let resolved: ConnectAPIAddress
        if let address { resolved = address } else { resolved = try ConnectAPIAddress(environment.baseURL) }
        transport = ConnectTransport(address: resolved, tokens: tokens, settings: settings) { events(.exchange($0)) }
    }

    /// The settings the client uses unless told otherwise: 30 s per request, 4 attempts, back-off
    /// from 0.5 s up to 8 s, a `Retry-After` of at most 2 minutes, one request at a time.
    public static var defaultSettings: ConnectTransport.Settings {
        var settings = ConnectTransport.Settings()
        settings.requestTimeout = .seconds(30)
        settings.connectTimeout = .seconds(10)
        settings.attempts = 4
        settings.backoffBase = .milliseconds(500)
        settings.backoffCap = .seconds(8)
        settings.retryAfterCap = .seconds(120)
        settings.parallel = 1
        settings.answerLimit = 1 << 20
        return settings
    }

    /// Closes the connections.
    public func shutdown() async { await transport.shutdown() }

    /// Sends `request` until it succeeds or cannot; returns the `2xx` answer's body.
    func send(_ request: RetentionRequest) async throws -> [UInt8] {
        let settings = transport.settings
        var last = ""
        var uncertain = false
        for attempt in 0..<settings.attempts {
            if uncertain, case .lookUp(let isDone) = request.afterUnknownOutcome {
                if try await isDone() {
                    events(.note("\(request.operation): the answer was lost, and the lookup found it done"))
                    return []
                }
                events(
                    .note("\(request.operation): the answer was lost and the lookup did not find it: sending it again"))
            }
            switch try await transport.attempt(
                method: request.method, request.path, body: request.body, contentType: request.contentType)
            {
            case .answer(let answer):
                switch answer.status {
                case 200...299:
                    return answer.body
                case 401:
                    throw RetentionAPIError.notAuthorized(operation: request.operation, status: 401)
                case 429:
                    last = "429 RateLimitExceededError"
                    try await waitAfterRateLimit(answer, request: request, attempt: attempt)
                case 500...599:
                    last =
                        "\(answer.status)"
                        + (RetentionErrorBody.parse(answer.body).map { " \($0.summary)" } ?? "")
                    // Apple asks to retry its internal errors, but one may come after the change was
                    // made: a request that must not be repeated blindly is looked up first.
                    if case .lookUp = request.afterUnknownOutcome { uncertain = true }
                    if request.doneWhenRefusedAgainWith != nil { uncertain = true }
                    try await transport.backOff(attempt)
                default:
                    let error = RetentionErrorBody.parse(answer.body)
                    if uncertain, let done = request.doneWhenRefusedAgainWith, error?.errorCode == done.rawValue {
                        events(
                            .note(
                                "\(request.operation): sent again after a lost answer, Apple answered \(done.name): done"
                            ))
                        return []
                    }
                    if answer.status == 403, error == nil {
                        throw RetentionAPIError.notAuthorized(operation: request.operation, status: 403)
                    }
                    throw RetentionAPIError.refused(
                        operation: request.operation, request: request.label, status: answer.status, error: error)
                }
            case .notSent(let reason):
                last = reason
                try await transport.backOff(attempt)
            case .unknown(let reason):
                last = reason
                if case .stop = request.afterUnknownOutcome {
                    throw RetentionAPIError.outcomeUnknown(operation: request.operation, reason: reason)
                }
                uncertain = true
                try await transport.backOff(attempt)
            }
        }
        throw RetentionAPIError.unreachable(
            operation: request.operation,
            reason: "\(settings.attempts) attempts of \(request.label) failed, the last with: \(last)")
    }

    /// Waits as a `429` asks: its `Retry-After` (at most the cap), else the back-off.
    private func waitAfterRateLimit(
        _ answer: ConnectTransport.Answer, request: RetentionRequest, attempt: Int
    ) async throws {
        guard attempt + 1 < transport.settings.attempts else { return }
        if let header = answer.header("Retry-After"), let delay = ServerAPIRetryAfter.delay(header) {
            guard delay <= transport.settings.retryAfterCap else {
                throw RetentionAPIError.rateLimited(operation: request.operation, seconds: delay.components.seconds)
            }
            events(.note("\(request.operation): 429, waiting \(Self.seconds(delay)) s as Retry-After asks"))
            try await transport.hold(for: delay)
        } else {
            try await transport.backOff(attempt)
        }
    }

    /// Reads an answer with `parse`, or says what is wrong with it.
    func read<Answer>(
        _ bytes: [UInt8], operation: String, _ parse: ([UInt8]) throws(RetentionAnswerError) -> Answer
    ) throws -> Answer {
        do {
            return try parse(bytes)
        } catch {
            throw RetentionAPIError.unexpectedAnswer(operation: operation, status: 200, reason: error.reason)
        }
    }

    static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f", Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    /// A JSON body of one string member.
    static func body(_ key: StaticString, _ value: String) -> [UInt8] {
        var writer = JSONWriter(capacity: 128)
        writer.beginObject()
        writer.member(key, value)
        writer.endObject()
        return writer.bytes
    }
}
