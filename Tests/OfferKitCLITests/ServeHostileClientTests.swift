import Foundation
import Testing

@testable import CLITestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `offerkit serve`, run as a real process on a loopback port, against clients that break HTTP/1.1
/// framing, announce endless bodies, reset, send campaigns built to overflow, or arrive by the
/// hundred: each gets a 4xx or its answer, never a 5xx (in the response or the request log), and
/// the service still answers afterwards.
@Suite("offerkit serve: hostile clients")
struct ServeHostileClientTests {
    /// A request that breaks the framing, the status it must get, and whether the client
    /// half-closes after sending it.
    struct Hostile {
        let name: String
        let fields: String
        let body: String
        let halfClose: Bool
        let status: Int
    }

    static let body = ServeCommandTests.offerBody(bundleId: DemoKey.bundleId)
    static let chunk = String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n"

    static let hostile: [Hostile] = [
        Hostile(name: "short-body-half-close", fields: "Content-Length: 500", body: body, halfClose: true, status: 400),
        Hostile(name: "short-body-quiet", fields: "Content-Length: 500", body: body, halfClose: false, status: 408),
        Hostile(
            name: "chunk-size-not-hex", fields: "Transfer-Encoding: chunked", body: "zz\r\n{}\r\n0\r\n\r\n",
            halfClose: false, status: 400),
        Hostile(
            name: "chunk-size-huge", fields: "Transfer-Encoding: chunked", body: "ffffffffffffffffffff\r\n{}\r\n",
            halfClose: false, status: 400),
        Hostile(
            name: "chunk-size-negative", fields: "Transfer-Encoding: chunked", body: "-5\r\n{}\r\n0\r\n\r\n",
            halfClose: false, status: 400),
        Hostile(
            name: "no-final-chunk-half-close", fields: "Transfer-Encoding: chunked", body: chunk, halfClose: true,
            status: 400),
        Hostile(
            name: "no-final-chunk-quiet", fields: "Transfer-Encoding: chunked", body: chunk, halfClose: false,
            status: 408),
        Hostile(name: "te-gzip", fields: "Transfer-Encoding: gzip", body: body, halfClose: false, status: 400),
        Hostile(name: "te-identity", fields: "Transfer-Encoding: identity", body: body, halfClose: false, status: 400),
        Hostile(
            name: "te-identity-with-length",
            fields: "Transfer-Encoding: identity\r\nContent-Length: \(body.utf8.count)",
            body: body, halfClose: false, status: 400),
        Hostile(
            name: "te-chunked-with-length", fields: "Transfer-Encoding: chunked\r\nContent-Length: 5",
            body: chunk + "0\r\n\r\n", halfClose: false, status: 400),
    ]

    static func head(_ path: String, key: ServeFixture.CreatedKey, requestId: String, _ fields: String) -> String {
        "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key.secret)\r\n"
            + "Content-Type: application/json\r\nX-Request-Id: \(requestId)\r\n\(fields)\r\n\r\n"
    }

    @Test func hostileRequestsGetA4xxTheServiceStaysUpAndLogsNo5xx() async throws {
        let key = try await ServeFixture.createKey(name: "hostile")
        // A short request timeout, for the bodies that stop arriving.
        let (server, port) = try await ServeFixture.start(["--timeout", "2"], keys: [key])
        let signPath = ServeCommandTests.signPath
        var expectedStatus: [String: Int] = [:]

        // Broken framing: a 4xx with Connection: close, then the server closes the connection.
        for hostile in Self.hostile {
            let requestId = "hostile-\(hostile.name)"
            let connection = try HTTPConnection(port: port)
            try connection.send(Self.head(signPath, key: key, requestId: requestId, hostile.fields) + hostile.body)
            if hostile.halfClose { connection.finishSending() }
            let (bytes, closed) = await connection.readUntilClosed(seconds: 20)
            let reply = try #require(
                HTTPReply.parse(bytes), "\(hostile.name): \(String(decoding: bytes, as: UTF8.self))")
            #expect(reply.status == hostile.status, "\(hostile.name)\n\(reply)")
            #expect(reply.header("Connection")?.lowercased() == "close", "\(hostile.name)\n\(reply)")
            #expect(closed, "\(hostile.name): the server closes the connection after answering")
            if reply.header("X-Request-Id") == requestId { expectedStatus[requestId] = hostile.status }
        }
        // The connection reset while the body arrives: nobody reads the answer, and it is no 5xx.
        do {
            let connection = try HTTPConnection(port: port)
            try connection.send(Self.head(signPath, key: key, requestId: "hostile-reset", "Content-Length: 500") + "{")
            _ = try await server.waitUntil("the server reading the head") {
                connection.unreadByServer() == 0 ? true : nil
            }
            connection.reset()
            expectedStatus["hostile-reset"] = 400
        }

        // An endless body announced on an authenticated campaign check: a 413 before any of it is
        // read, then the connection is closed and the server reads no more.
        do {
            let connection = try HTTPConnection(port: port)
            try connection.send(
                Self.head(
                    "/v1/campaigns/validate", key: key, requestId: "hostile-endless",
                    "Content-Length: 9223372036854775807"))
            let flood = await connection.flood(seconds: 15)
            let reply = try #require(HTTPReply.parse(flood.received), "\(flood)")
            #expect(reply.status == 413, "\(reply)")
            #expect(reply.json?["type"]?.string == "urn:offerkit:problem:body-too-large", "\(reply)")
            #expect(reply.header("Connection")?.lowercased() == "close", "\(reply)")
            #expect((flood.closedAfter ?? 99) < 5, "the server ends its side soon after the 413: \(flood)")
            #expect([EPIPE, ECONNRESET].contains(flood.sendError ?? 0), "and really closes: \(flood)")
            #expect((flood.sendFailedAfter ?? 99) < 5, "\(flood)")
            // What the server's side took is what the sockets' buffers hold: it stopped reading.
            #expect(flood.sent < 64 << 20, "\(flood.sent) bytes taken")
            expectedStatus["hostile-endless"] = 413
        }

        // A custom-code batch whose generated length is Int.max (this crashed the service once):
        // a 200 with the problem list.
        let campaign = CampaignFiles.campaign(
            name: "hostile",
            offers: [
                CampaignFiles.offer(
                    "Huge length", custom: [CampaignFiles.generated(count: 10, prefix: "A", length: Int.max)])
            ])
        let validated = try await HTTPConnection.request(
            "POST", "/v1/campaigns/validate", port: port,
            headers: ServeCommandTests.signHeaders(key, requestId: "hostile-int-max-length"),
            body: #"{"campaign": \#(campaign), "today": "\#(CampaignFiles.today)"}"#)
        #expect(validated.status == 200, "\(validated)")
        #expect(validated.json?["valid"] == .bool(false), "\(validated)")
        #expect((validated.json?["problemCount"]?.int ?? 0) >= 1, "\(validated)")
        #expect(validated.body.contains("length"), "a problem names the length\n\(validated)")
        expectedStatus["hostile-int-max-length"] = 200

        // A burst of 300 connections open at once, each asking /healthz.
        let burst = 300
        var connections: [HTTPConnection] = []
        for _ in 0..<burst { connections.append(try HTTPConnection(port: port)) }
        for (index, connection) in connections.enumerated() {
            try connection.send(
                HTTPConnection.head(
                    "GET", "/healthz", headers: [("X-Request-Id", "burst-\(index)"), ("Connection", "close")]))
        }
        var answered: [Int] = []
        for connection in connections { answered.append(try await connection.readReply().status) }
        #expect(
            answered.filter { $0 == 200 }.count == burst, "\(Dictionary(grouping: answered) { $0 }.mapValues(\.count))")
        connections.removeAll()

        let health = try await HTTPConnection.request("GET", "/healthz", port: port)
        #expect(health.status == 200, "the service still answers\n\(health)")

        server.terminate()
        let run = await server.waitForExit()
        #expect(run.status == 0, "\(run)")
        let lines = run.stderr.split(separator: "\n")
        let serverErrors = lines.filter { $0.range(of: #"http\.status=5[0-9]{2}"#, options: .regularExpression) != nil }
        #expect(
            serverErrors.isEmpty,
            "no 5xx in the request log (as CI counts them):\n\(serverErrors.joined(separator: "\n"))")
        #expect(!run.stderr.contains("internal error"), "\(run)")
        for (requestId, status) in expectedStatus.sorted(by: { $0.key < $1.key }) {
            #expect(
                lines.contains { $0.contains("request.id=\(requestId) ") && $0.contains("http.status=\(status) ") },
                "\(requestId) is logged with \(status)\n\(run.stderr.suffix(3000))")
        }
        #expect(lines.filter { $0.contains("request.id=burst-") && $0.contains("http.status=200 ") }.count == burst)
    }

    @Test func connectionsBeyondMaxConnectionsWaitUntilOneCloses() async throws {
        let (server, port) = try await ServeFixture.start([
            "--no-auth", "--max-connections", "3", "--backlog", "16",
        ])
        #expect(server.stderr.contains("limits.backlog=16") && server.stderr.contains("limits.maxConnections=3"))
        var held: [HTTPConnection] = []
        for index in 0..<3 {
            let connection = try HTTPConnection(port: port)
            try connection.send(HTTPConnection.head("GET", "/healthz", headers: [("X-Request-Id", "held-\(index)")]))
            await #expect(try connection.readReply().status == 200)
            held.append(connection)
        }
        // The kernel completes the fourth connection (it waits in the backlog), but the service does
        // not take it while three are open.
        let waiting = try HTTPConnection(port: port)
        try waiting.send(HTTPConnection.head("GET", "/healthz", headers: [("X-Request-Id", "waiting")]))
        let early = await waiting.readUntilClosed(seconds: 0.5)
        #expect(early.bytes.isEmpty && !early.closed, "no answer while three connections are open")
        held.removeFirst()  // closes it
        let reply = try await waiting.readReply()
        #expect(reply.status == 200, "answered once a connection closed\n\(reply)")
        held.removeAll()
        server.terminate()
        await #expect(server.waitForExit().status == 0)
    }
}
