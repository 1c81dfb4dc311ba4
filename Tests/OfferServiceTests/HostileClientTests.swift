import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InteropSupport
import Logging
import NIOCore
import NIOHTTP1
import OfferSigning
import Testing

@testable import OfferService

/// Clients that break HTTP/1.1 framing, announce endless bodies or stop sending: each gets a 4xx
/// (never a 5xx, in the response, the metrics or the request log) and loses its connection.
@Suite("Hostile clients: broken framing and endless bodies are a 4xx and close the connection")
struct HostileClientTests {
    static let path = ServiceFixtures.promotionalOfferPath
    static let body = ServiceFixtures.promotionalOfferBody

    // MARK: Mapping, through Hummingbird's router test client

    /// An operation that fails as reading a badly framed body fails: with NIO's parser error.
    static func parserFailure(_ error: HTTPParserError) -> ServiceOperation {
        TestOperations.operation("parser-error") { _ in throw error }
    }

    @Test(
        "NIO's HTTP parser errors are a 400 bad-request with Connection: close, counted and logged as 400",
        arguments: [
            HTTPParserError.invalidEOFState, .closedConnection, .invalidChunkSize, .unknown, .invalidContentLength,
            .unexpectedContentLength, .lfExpected, .invalidInternalState,
        ])
    func parserErrorsAreBadRequests(error: HTTPParserError) async throws {
        let records = LogRecords()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(records: records) }
        let service = try ServiceFixtures.service()
        let app = service.testApplication(
            operations: OfferService.operations + [Self.parserFailure(error)], logger: logger)
        let metrics = try await app.test(.router) { client in
            let key = ServiceFixtures.admin.secret
            let response = try await client.call(.get, "/test/parser-error", key: key)
            #expect(response.status == 400, "\(response.text)")
            #expect(response.problemSlug == "bad-request")
            #expect(response.headers[.connection] == "close")
            #expect(response.string("detail")?.contains("the connection is closed") == true)
            return try await client.call(.get, "/metrics", key: key).text
        }
        #expect(metrics.contains(#"offerkit_problems_total{type="bad-request"} 1"#), "\(metrics)")
        #expect(metrics.contains(#"operation="parser-error",status="400"} 1"#), "\(metrics)")
        #expect(!metrics.contains("internal-error") && !metrics.contains(#"status="5"#), "\(metrics)")
        Self.expectNo5xx(in: records)
        #expect(records.all.contains { $0.metadata["http.status"] == "400" })
    }

    @Test("a 413 says Connection: close, whether the length was announced or the body ran past the limit")
    func bodyTooLargeClosesTheConnection() async throws {
        let cutOff = TestOperations.operation("cut-off") { _ in throw NIOTooManyBytesError(maxBytes: 1024) }
        let service = try ServiceFixtures.service { $0.limits.maxBodyBytes = 1024 }
        try await service.testApplication(operations: OfferService.operations + [cutOff]).test(.router) { client in
            let key = ServiceFixtures.admin.secret
            let announced = try await client.call(
                .post, Self.path, body: Self.body + String(repeating: " ", count: 2000), key: key)
            #expect(announced.status == 413)
            #expect(announced.headers[.connection] == "close")
            let streamed = try await client.call(.get, "/test/cut-off", key: key)
            #expect(streamed.status == 413)
            #expect(streamed.headers[.connection] == "close")
            // Problems that leave nothing unread keep the connection.
            let unauthorized = try await client.call(.post, Self.path, body: Self.body)
            #expect(unauthorized.status == 401)
            #expect(unauthorized.headers[.connection] == nil)
        }
    }

    @Test(
        "Content-Length is compared with the limit without overflowing",
        arguments: [
            ("0", false), ("1024", false), ("1025", true), (" 1025 ", true), ("9223372036854775807", true),
            ("9223372036854775808", true), ("99999999999999999999999999", true), ("", false), ("abc", false),
            ("-5", false),
        ])
    func contentLengthAgainstTheLimit(value: String, exceeds: Bool) {
        #expect(ContentLength.exceeds(1024, value: value.utf8) == exceeds)
        let fields: HTTPFields = [.contentType: "application/json", .contentLength: value]
        #expect(ContentLength.exceeds(1024, in: fields) == exceeds)
        #expect(!ContentLength.exceeds(1024, in: [.contentType: "application/json"]))
    }

    // MARK: On a live connection (ServiceRunner's application: NIO, Hummingbird, ConnectionGuard)

    /// Runs `body` against the application ``ServiceRunner`` serves, on a loopback port.
    static func live(
        limits: ServiceLimits = ServiceLimits(), records: LogRecords,
        _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        let service = try ServiceFixtures.service { $0.limits = limits }
        let logger = Logger(label: "test") { _ in CapturingLogHandler(records: records) }
        let runner = ServiceRunner(service: service, host: "127.0.0.1", port: 0, logger: logger)
        try await runner.makeApplication().test(.live) { client in
            try await body(try #require(client.port))
        }
    }

    @Test("a library caller's idle timeout is kept within 1 s to a day, so no value traps the server's set-up")
    func idleTimeoutIsClamped() throws {
        let service = try ServiceFixtures.service()
        let logger = Logger(label: "test")
        for (given, kept) in [(Int64.max, Int64(86_400)), (.min, 1), (0, 1), (90, 90)] {
            let runner = ServiceRunner(
                service: service, host: "127.0.0.1", port: 0, logger: logger, idleTimeoutSeconds: given)
            #expect(runner.idleTimeoutSeconds == kept, "\(given)")
            _ = try runner.makeApplication()
        }
    }

    static func head(
        _ path: String = path, key: String? = ServiceFixtures.admin.secret, requestId: String, _ fields: String
    ) -> String {
        var text = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        if let key { text += "Authorization: Bearer \(key)\r\n" }
        return text + "X-Request-Id: \(requestId)\r\n" + fields + "\r\n"
    }

    static func expectNo5xx(in records: LogRecords, sourceLocation: SourceLocation = #_sourceLocation) {
        let failures = records.all.filter { $0.metadata["http.status"]?.hasPrefix("5") == true || $0.level >= .error }
        #expect(failures.isEmpty, "\(failures)", sourceLocation: sourceLocation)
    }

    /// A request whose framing breaks, and whether the client half-closes after it.
    struct Broken: Sendable, CustomTestStringConvertible {
        let name: String
        let fields: String
        let body: String
        let halfClose: Bool
        var testDescription: String { name }
    }

    static let broken: [Broken] = [
        Broken(
            name: "a body shorter than its Content-Length, then a half-close", fields: "Content-Length: 500\r\n",
            body: body, halfClose: true),
        Broken(
            name: "a chunk size that is not hexadecimal", fields: "Transfer-Encoding: chunked\r\n",
            body: "zz\r\n{}\r\n0\r\n\r\n", halfClose: false),
        Broken(
            name: "a chunk size too large for 64 bits", fields: "Transfer-Encoding: chunked\r\n",
            body: "ffffffffffffffffffff\r\n{}\r\n", halfClose: false),
        Broken(
            name: "a negative chunk size", fields: "Transfer-Encoding: chunked\r\n", body: "-5\r\n{}\r\n0\r\n\r\n",
            halfClose: false),
        Broken(
            name: "no final chunk, then a half-close", fields: "Transfer-Encoding: chunked\r\n",
            body: String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n", halfClose: true),
        Broken(name: "Transfer-Encoding: gzip", fields: "Transfer-Encoding: gzip\r\n", body: body, halfClose: true),
        Broken(
            name: "Transfer-Encoding: identity", fields: "Transfer-Encoding: identity\r\n", body: body,
            halfClose: true),
        // NIO's parser reads these as chunked (chunked comes last); a proxy in front may not.
        Broken(
            name: "Transfer-Encoding: gzip, chunked", fields: "Transfer-Encoding: gzip, chunked\r\n",
            body: chunkedBody, halfClose: false),
        Broken(
            name: "Transfer-Encoding: x-unknown, chunked", fields: "Transfer-Encoding: x-unknown, chunked\r\n",
            body: chunkedBody, halfClose: false),
        Broken(
            name: "Transfer-Encoding: identity, chunked", fields: "Transfer-Encoding: identity, chunked\r\n",
            body: chunkedBody, halfClose: false),
        Broken(
            name: "Transfer-Encoding: identity, then a second field chunked",
            fields: "Transfer-Encoding: identity\r\nTransfer-Encoding: chunked\r\n", body: chunkedBody,
            halfClose: false),
    ]

    /// ``body`` as one chunk and the last chunk.
    static let chunkedBody = String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"

    @Test("broken framing is a 400 bad-request, and the connection is closed", arguments: broken)
    func brokenFraming(request: Broken) async throws {
        let records = LogRecords()
        try await Self.live(records: records) { port in
            let exchange = try await RawExchange.run(
                port: port, Self.head(requestId: "broken", request.fields) + request.body,
                halfClose: request.halfClose)
            #expect(exchange.status == 400, "\(String(decoding: exchange.received, as: UTF8.self))")
            #expect(exchange.problemSlug == "bad-request")
            #expect(exchange.headers["connection"] == "close")
            #expect(exchange.closedByServer)
        }
        Self.expectNo5xx(in: records)
        #expect(records.all.contains { $0.metadata["request.id"] == "broken" && $0.metadata["http.status"] == "400" })
    }

    @Test("a refused Transfer-Encoding reads nothing after the head: a request smuggled in the body is not answered")
    func refusedTransferEncodingReadsNoFurther() async throws {
        let records = LogRecords()
        try await Self.live(records: records) { port in
            let smuggled = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let exchange = try await RawExchange.run(
                port: port,
                Self.head(requestId: "smuggler", "Transfer-Encoding: gzip, chunked\r\n") + Self.chunkedBody + smuggled,
                seconds: 60)
            #expect(exchange.status == 400, "\(String(decoding: exchange.received, as: UTF8.self))")
            #expect(exchange.problemSlug == "bad-request")
            #expect(exchange.responseCount == 1, "\(String(decoding: exchange.received, as: UTF8.self))")
            #expect(exchange.closedByServer)
        }
        Self.expectNo5xx(in: records)
        #expect(!records.all.contains { $0.metadata["operation"] == "health" })
    }

    /// A chunked body whose chunk sizes announce more than a limit of 1024 bytes.
    struct Oversize: Sendable, CustomTestStringConvertible {
        let name: String
        /// What comes after the head: the chunks (the last one never ends).
        let chunks: String
        /// Whether a well-formed request comes first on the same connection.
        var afterAnother = false
        var testDescription: String { name }
    }

    static let oversize: [Oversize] = [
        Oversize(name: "a chunk size of 2^64 - 1, nothing after it", chunks: "FFFFFFFFFFFFFFFF\r\n"),
        Oversize(name: "a chunk of 1025 bytes, one sent", chunks: "401\r\n{"),
        Oversize(name: "a chunk size with leading zeros", chunks: "0000000000000000000000401\r\n"),
        Oversize(name: "a chunk size with an extension", chunks: "401;name=value\r\n{"),
        Oversize(
            name: "two chunks of 512 and 513 bytes",
            chunks: "200\r\n" + String(repeating: " ", count: 512) + "\r\n201\r\n"),
        Oversize(
            name: "after a well-formed request on the same connection", chunks: "FFFFFFFF\r\n", afterAnother: true),
    ]

    @Test(
        "chunk sizes that announce more than the body limit are a 413 at once, not a 408 at the timeout",
        arguments: oversize)
    func oversizeChunk(request: Oversize) async throws {
        let records = LogRecords()
        // A request timeout of 10 minutes: a 408 would come only then, long after this exchange gives up.
        let limits = ServiceLimits(maxBodyBytes: 1024, requestTimeoutSeconds: 600)
        try await Self.live(limits: limits, records: records) { port in
            let first =
                request.afterAnother
                ? Self.head(requestId: "first", "Content-Length: \(Self.body.utf8.count)\r\n") + Self.body : ""
            let exchange = try await RawExchange.run(
                port: port, first + Self.head(requestId: "oversize", "Transfer-Encoding: chunked\r\n") + request.chunks,
                seconds: 60)
            let text = String(decoding: exchange.received, as: UTF8.self)
            if request.afterAnother {
                #expect(exchange.status == 200 && exchange.responseCount == 2, "\(text)")
                #expect(text.contains("HTTP/1.1 413"), "\(text)")
            } else {
                #expect(exchange.status == 413, "\(text)")
                #expect(exchange.headers["connection"] == "close", "\(text)")
            }
            #expect(text.contains("urn:offerkit:problem:body-too-large"), "\(text)")
            #expect(exchange.closedByServer)
        }
        Self.expectNo5xx(in: records)
        #expect(records.all.contains { $0.metadata["request.id"] == "oversize" && $0.metadata["http.status"] == "413" })
    }

    @Test("chunked bodies up to the limit are read, in one chunk or several, with extensions and trailers")
    func chunkedWithinTheLimit() async throws {
        let records = LogRecords()
        let limit = 1024
        try await Self.live(limits: ServiceLimits(maxBodyBytes: limit), records: records) { port in
            let padded = Self.body + String(repeating: " ", count: limit - Self.body.utf8.count)
            let half = padded.utf8.count / 2
            let first = String(padded.prefix(half))
            let second = String(padded.dropFirst(half))
            let whole = String(limit, radix: 16) + "\r\n" + padded + "\r\n0\r\n\r\n"
            let split =
                String(first.utf8.count, radix: 16) + ";part=1\r\n" + first + "\r\n"
                + String(second.utf8.count, radix: 16).uppercased() + "\r\n" + second + "\r\n0\r\nX-Trailer: 1\r\n\r\n"
            let requests = [("whole", whole), ("split", split)].map { id, chunks in
                Self.head(requestId: id, "Transfer-Encoding: chunked\r\n") + chunks
            }
            let exchange = try await RawExchange.run(
                port: port, requests.joined() + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", seconds: 300,
                grace: 0.5
            ) { $0.responseCount >= 3 && $0.received.suffix(2) == Array("}\n".utf8)[...] }
            let text = String(decoding: exchange.received, as: UTF8.self)
            #expect(exchange.responseCount == 3, "\(text)")
            #expect(text.components(separatedBy: "HTTP/1.1 200").count == 4, "\(text)")
            #expect(!exchange.closedByServer)
        }
        Self.expectNo5xx(in: records)
    }

    @Test(
        "a body that stops arriving is a 408 body-timeout at the request timeout, and the connection is closed",
        arguments: [
            ("Content-Length: 500\r\n", body),
            ("Transfer-Encoding: chunked\r\n", String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n"),
        ])
    func bodyThatStops(fields: String, body: String) async throws {
        let records = LogRecords()
        try await Self.live(limits: ServiceLimits(requestTimeoutSeconds: 0.5), records: records) { port in
            // Read until the server closes (a safety net of 300 s, not a time it must meet: under a full
            // run's load the close half a second after the 408 once came after the former 20 s).
            let exchange = try await RawExchange.run(
                port: port, Self.head(requestId: "quiet", fields) + body, seconds: 300)
            #expect(exchange.status == 408, "\(String(decoding: exchange.received, as: UTF8.self))")
            #expect(exchange.problemSlug == "body-timeout")
            #expect(exchange.headers["connection"] == "close")
            #expect(exchange.closedByServer)
        }
        Self.expectNo5xx(in: records)
        #expect(records.all.contains { $0.metadata["request.id"] == "quiet" && $0.metadata["http.status"] == "408" })
    }

    @Test("a Content-Length over the limit is a 413 before the body is read; the server closes and reads no more")
    func endlessBody() async throws {
        let records = LogRecords()
        try await Self.live(records: records) { port in
            for path in [Self.path, "/v1/campaigns/validate", "/nope"] {
                let exchange = try await RawExchange.run(
                    port: port, Self.head(path, requestId: "endless", "Content-Length: 9223372036854775807\r\n"),
                    flood: true, seconds: 10)
                let expected = path == "/nope" ? 404 : 413
                #expect(exchange.status == expected, "\(path): \(String(decoding: exchange.received, as: UTF8.self))")
                #expect(exchange.headers["connection"] == "close", "\(path)")
                #expect(exchange.closedByServer, "\(path)")
                // Really closed (sending fails) within the 10 s: a server that read on, as Hummingbird
                // does to reach the next request, would take the endless body for as long as it came.
                // (The bytes this NIO client counts include its own buffers; `offerkit serve`'s end-to-end
                // test counts what the socket took.)
                #expect(exchange.floodFailed, "\(path)")
            }
        }
        Self.expectNo5xx(in: records)
        #expect(records.all.filter { $0.metadata["http.status"] == "413" }.count == 2)
    }

    @Test("an answer given before the body arrived (401) closes the connection instead of reading the body")
    func earlyAnswer() async throws {
        let records = LogRecords()
        try await Self.live(records: records) { port in
            let exchange = try await RawExchange.run(
                port: port, Self.head(key: nil, requestId: "early", "Content-Length: 100000\r\n"))
            #expect(exchange.status == 401)
            #expect(exchange.headers["connection"] == "close")
            #expect(exchange.closedByServer)
        }
        Self.expectNo5xx(in: records)
    }

    @Test("requests read in full keep their connection, pipelined or not")
    func wellFormedRequestsKeepTheConnection() async throws {
        let records = LogRecords()
        try await Self.live(records: records) { port in
            let one = Self.head(requestId: "kept", "Content-Length: \(Self.body.utf8.count)\r\n") + Self.body
            let chunked =
                Self.head(requestId: "kept-chunked", "Transfer-Encoding: chunked\r\n")
                + String(Self.body.utf8.count, radix: 16) + "\r\n" + Self.body + "\r\n0\r\n\r\n"
            // Read until the third answer (a full test run once took 70 s between two answers: the
            // bound is a safety net, not a time the service must meet).
            let exchange = try await RawExchange.run(
                port: port, one + chunked + "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", seconds: 300,
                grace: 0.5
            ) { $0.responseCount >= 3 && $0.received.suffix(2) == Array("}\n".utf8)[...] }
            #expect(exchange.responseCount == 3, "\(String(decoding: exchange.received, as: UTF8.self))")
            #expect(exchange.status == 200)
            #expect(!String(decoding: exchange.received, as: UTF8.self).lowercased().contains("connection: close"))
            #expect(!exchange.closedByServer)
        }
        Self.expectNo5xx(in: records)
    }

    @Test(
        "a body sent in time is no 408 when the service, not the client, was slow to read it; one cut short still is",
        arguments: [true, false])
    func bodySentInTimeWhileTheServiceWasBusy(complete: Bool) async throws {
        // The service's tasks cannot get a thread for 2 s (a busy machine) while the client sends a body
        // in 21 pieces within 0.4 s (or all but the last); the request timeout is 1 s. Its buffer full,
        // NIO stops reading the connection until the request's task reads the body. The application
        // runs under the gate's executor preference, which its connections' tasks inherit.
        let gate = GatedExecutor()
        let records = LogRecords()
        let service = try ServiceFixtures.service { $0.limits = ServiceLimits(requestTimeoutSeconds: 1) }
        let logger = Logger(label: "test") { _ in CapturingLogHandler(records: records) }
        let runner = ServiceRunner(service: service, host: "127.0.0.1", port: 0, logger: logger)
        let received = try await withTaskExecutorPreference(gate) {
            try await runner.makeApplication().test(.live) { client in
                let port = try #require(client.port)
                let body = Array(Self.body)
                let request =
                    Self.head(requestId: "busy", "Content-Length: \(Self.body.utf8.count)\r\n")
                // The client on a thread of its own: the gate holds the threads the service would use.
                return await OwnedThread.run {
                    guard let socket = BlockingSocket(port: port) else { return "" }
                    gate.hold()
                    let start = Date()
                    socket.send(request)
                    for piece in stride(from: 0, to: complete ? body.count : body.count - 5, by: 5) {
                        OwnedThread.pause(0.015)
                        socket.send(String(body[piece..<min(piece + 5, body.count)]))
                    }
                    OwnedThread.pause(max(0, 2 - Date().timeIntervalSince(start)))
                    gate.release()
                    let bytes = socket.receive {
                        String(decoding: $0, as: UTF8.self).contains("\r\n\r\n{") && $0.last == UInt8(ascii: "\n")
                    }
                    return String(decoding: bytes, as: UTF8.self)
                }
            }
        }
        #expect(received.hasPrefix(complete ? "HTTP/1.1 200" : "HTTP/1.1 408"), "\(received)")
        Self.expectNo5xx(in: records)
    }
}
