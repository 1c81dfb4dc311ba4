import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import OfferConnectAPI

/// Sends `codes apply`'s requests to App Store Connect over AsyncHTTPClient: HTTP/1.1 with
/// keep-alive, a timeout on connecting and on each request, a fresh bearer token on each, paced
/// by ``RequestPacer``. GETs are retried here; what to do when a `POST` fails is the caller's
/// decision (see ``ApplyRun``), because only the caller can look for what it may have created.
///
/// The Retention Messaging client (`OfferRetentionClient`) sends its App Store Server API requests
/// through the same transport (``attempt(method:_:body:contentType:accept:answerLimit:)``), with
/// its own tokens and retry rules.
public final class ConnectTransport: Sendable {
    /// How requests are sent and retried.
    public struct Settings: Sendable {
        /// Connecting, including TLS.
        public var connectTimeout: Duration = .seconds(10)
        /// Each request, from sending to the end of the answer.
        public var requestTimeout: Duration = .seconds(60)
        /// Requests in flight at most.
        public var parallel: Int = 4
        /// Attempts of a request whose failure allows another (the first included).
        public var attempts: Int = 6
        /// The first pause between attempts; it doubles each time, with jitter, up to ``backoffCap``.
        public var backoffBase: Duration = .milliseconds(500)
        public var backoffCap: Duration = .seconds(30)
        /// The longest `Retry-After` waited for; a longer one stops the run (it is resumable).
        public var retryAfterCap: Duration = .seconds(900)
        /// The largest JSON answer read, in bytes.
        public var answerLimit = 8 << 20

        public init() {}
    }

    /// An answer with its body.
    package struct Answer: Sendable {
        package var status: Int
        var headers: HTTPHeaders
        package var body: [UInt8]

        /// The first value of the header `name` (any case), if the answer has it.
        package func header(_ name: String) -> String? { headers.first(name: name) }
    }

    /// What one attempt gave.
    package enum Attempt: Sendable {
        case answer(Answer)
        /// No byte of the request reached the server (it could not connect): safe to send again.
        case notSent(String)
        /// The request may or may not have been processed (a timeout or a dropped connection after
        /// sending).
        case unknown(String)
    }

    let address: ConnectAPIAddress
    package let settings: Settings
    let pacer: RequestPacer
    private let tokens: ConnectTokenSource
    private let client: HTTPClient
    private let observe: @Sendable (ConnectExchange) -> Void

    package init(
        address: ConnectAPIAddress, tokens: ConnectTokenSource, settings: Settings,
        observe: @escaping @Sendable (ConnectExchange) -> Void
    ) {
        self.address = address
        self.tokens = tokens
        self.settings = settings
        self.observe = observe
        pacer = RequestPacer(reserve: settings.parallel + 2)
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .nanoseconds(settings.connectTimeout.nanoseconds)))
        configuration.httpVersion = .http1Only
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: settings.parallel)
        client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
    }

    /// Closes the connections.
    package func shutdown() async { try? await client.shutdown() }

    /// One request by the method's name (`GET`, `PUT`, `DELETE`, …): see
    /// ``attempt(_:_:body:contentType:accept:answerLimit:)``.
    package func attempt(
        method: String, _ pathOrURL: String, body: [UInt8]? = nil, contentType: String = "application/json",
        accept: String = "application/json", answerLimit: Int? = nil
    ) async throws -> Attempt {
        try await attempt(
            HTTPMethod(rawValue: method), pathOrURL, body: body, contentType: contentType, accept: accept,
            answerLimit: answerLimit)
    }

    /// One request: waits for its turn, sends it with the current token, reads the answer.
    ///
    /// A `401` to a token that has since reached its renewal time (it expired on the way, on a
    /// slow network or a busy machine) is not the key's fault: the request is sent once more with
    /// the new token. A `401` cannot have been processed, so sending it again creates nothing
    /// twice. A `401` to a token that is still current is answered as it is.
    /// - Parameter contentType: the body's media type (only sent with a body).
    func attempt(
        _ method: HTTPMethod, _ pathOrURL: String, body: [UInt8]? = nil, contentType: String = "application/json",
        accept: String = "application/json", answerLimit: Int? = nil
    ) async throws -> Attempt {
        let (first, sent) = try await attemptOnce(
            method, pathOrURL, body: body, contentType: contentType, accept: accept, answerLimit: answerLimit)
        guard case .answer(let answer) = first, answer.status == 401, try tokens.token() != sent else { return first }
        return try await attemptOnce(
            method, pathOrURL, body: body, contentType: contentType, accept: accept, answerLimit: answerLimit
        ).attempt
    }

    /// One request with the token current once it is its turn; returns the token too.
    private func attemptOnce(
        _ method: HTTPMethod, _ pathOrURL: String, body: [UInt8]?, contentType: String, accept: String,
        answerLimit: Int?
    ) async throws -> (attempt: Attempt, token: String) {
        try await pacer.turn()
        let token = try tokens.token()
        let url = pathOrURL.hasPrefix("/") ? address.url(pathOrURL) : pathOrURL
        let path = String(url.dropFirst(address.baseURL.count))
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer " + token)
        request.headers.add(name: "Accept", value: accept)
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let started = ContinuousClock.now
        func report(_ status: Int?, _ failure: String?) {
            observe(
                ConnectExchange(
                    method: method.rawValue, path: path, status: status, failure: failure,
                    duration: ContinuousClock.now - started))
        }
        do {
            let limit = answerLimit ?? settings.answerLimit
            let timeout = settings.requestTimeout
            let client = client
            let request = request
            // AsyncHTTPClient's deadline ends with the answer's head: the body is read under the
            // same deadline here, so a server that stalls mid-answer cannot hold the run.
            let (response, buffer) = try await withThrowingTaskGroup(of: (HTTPClientResponse, ByteBuffer)?.self) {
                group in
                group.addTask {
                    let response = try await client.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
                    return (response, try await response.body.collect(upTo: limit))
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let result = first else {
                    throw HTTPClientError.deadlineExceeded
                }
                return result
            }
            let status = Int(response.status.code)
            if let header = response.headers.first(name: "X-Rate-Limit"), let limit = RateLimitStatus(header: header) {
                await pacer.observe(limit)
            }
            report(status, nil)
            return (
                .answer(Answer(status: status, headers: response.headers, body: Array(buffer.readableBytesView))), token
            )
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            let reason = Self.describe(error)
            report(nil, reason)
            return (Self.wasNotSent(error) ? .notSent(reason) : .unknown(reason), token)
        }
    }

    /// A GET, retried after `429` (waiting `Retry-After`), `5xx` and failed connections.
    /// - Throws: ``ConnectError/notAuthorized(status:detail:)`` on `401` or `403`,
    ///   ``ConnectError/unreachable(reason:)`` when the attempts run out.
    func get(_ pathOrURL: String, accept: String = "application/json", answerLimit: Int? = nil) async throws -> Answer {
        var last = ""
        for attempt in 0..<settings.attempts {
            switch try await self.attempt(.GET, pathOrURL, accept: accept, answerLimit: answerLimit) {
            case .answer(let answer):
                switch answer.status {
                case 401, 403: throw notAuthorized(answer)
                case 429:
                    last = "429 RATE_LIMIT_EXCEEDED"
                    try await waitAfterRateLimit(answer, attempt: attempt)
                case 500...599:
                    last = "\(answer.status) for GET \(Self.pathOnly(pathOrURL))"
                    try await backOff(attempt)
                default: return answer
                }
            case .notSent(let reason), .unknown(let reason):
                last = reason
                try await backOff(attempt)
            }
        }
        throw ConnectError.unreachable(
            reason: "\(settings.attempts) attempts of GET \(Self.pathOnly(pathOrURL)) failed, the last with: \(last)")
    }

    func notAuthorized(_ answer: Answer) -> ConnectError {
        let detail =
            AppleErrorDetail.parse(status: answer.status, body: answer.body).first?.summary ?? "\(answer.status)"
        return .notAuthorized(status: answer.status, detail: detail)
    }

    /// Waits as a `429` asks: `Retry-After` when given, else the back-off; every request waits too.
    func waitAfterRateLimit(_ answer: Answer, attempt: Int) async throws {
        let retryAfter = answer.headers.first(name: "Retry-After").flatMap { RetryAfter.delay($0) }
        if retryAfter == nil, let header = answer.headers.first(name: "X-Rate-Limit"),
            let status = RateLimitStatus(header: header), status.remaining == 0,
            attempt + 1 >= settings.attempts || 3_600 / status.limit > Self.longestReturnInterval
        {
            // None left. The rolling hour gives requests back only as its oldest ones age out: at
            // best one every 3600 / limit seconds. When that is over a minute, or the back-off of
            // every attempt brought none back, the hour is spent for a while: stop (resumable).
            throw ConnectError.hourlyLimitSpent(limit: status.limit)
        }
        if let header = answer.headers.first(name: "Retry-After"), let delay = RetryAfter.delay(header) {
            guard delay <= settings.retryAfterCap else {
                throw ConnectError.unreachable(
                    reason: "App Store Connect's rate limit asks to wait \(delay.components.seconds) s (Retry-After), "
                        + "longer than OfferKit waits; run again later")
            }
            await pacer.pause(for: delay)
            try await Task.sleep(for: delay)
        } else {
            let delay = backoff(attempt)
            await pacer.pause(for: delay)
            try await Task.sleep(for: delay)
        }
    }

    /// The longest time, in seconds, a run waits for a spent hour to give one request back
    /// (a limit of fewer than 60 requests an hour gives them back more slowly: the run stops).
    static let longestReturnInterval = 60

    /// Holds every request of this transport back for `delay` and waits it out (after a `429`
    /// whose wait the caller read).
    package func hold(for delay: Duration) async throws {
        await pacer.pause(for: delay)
        try await Task.sleep(for: delay)
    }

    /// Sleeps before attempt `attempt + 1`; after the last attempt there is none to wait for.
    package func backOff(_ attempt: Int) async throws {
        guard attempt + 1 < settings.attempts else { return }
        try await Task.sleep(for: backoff(attempt))
    }

    /// Exponential back-off with full jitter: a random time up to base × 2^attempt, capped.
    func backoff(_ attempt: Int) -> Duration {
        let ceiling = min(
            Double(settings.backoffBase.nanoseconds) * pow(2, Double(min(attempt, 20))),
            Double(settings.backoffCap.nanoseconds))
        return .nanoseconds(Int64(Double.random(in: 0.5...1) * ceiling))
    }

    /// Whether the request certainly did not reach the server: it could not connect.
    static func wasNotSent(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError {
            return error == .connectTimeout || error == .getConnectionFromPoolTimeout || error == .tlsHandshakeTimeout
        }
        if error is NIOConnectionError { return true }
        if let error = error as? ChannelError, case .connectTimeout = error { return true }
        if let error = error as? IOError {
            return [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL].contains(error.errnoCode)
        }
        return false
    }

    /// A short description of a failure (no request contents).
    package static func describe(_ error: any Error) -> String {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout: return "no answer within the request timeout"
            case .remoteConnectionClosed: return "the connection was closed before the answer"
            case .connectTimeout: return "connecting timed out"
            default: return "HTTP client error \(error)"
            }
        }
        if let error = error as? NIOConnectionError {
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "could not connect: host name not found" }
            if let failure = error.connectionErrors.first?.error as? IOError {
                return "could not connect: \(String(cString: strerror(failure.errnoCode)))"
            }
            return "could not connect"
        }
        if let error = error as? IOError { return "I/O error: \(String(cString: strerror(error.errnoCode)))" }
        return String(describing: error).prefix(200).description
    }

    /// The path of a path or URL (no query).
    static func pathOnly(_ pathOrURL: String) -> String {
        var text = pathOrURL
        if let range = text.range(of: "://"), let slash = text[range.upperBound...].firstIndex(of: "/") {
            text = String(text[slash...])
        }
        return String(text.prefix { $0 != "?" })
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
