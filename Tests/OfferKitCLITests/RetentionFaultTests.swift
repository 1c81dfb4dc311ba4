import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// How `offerkit retention` rides out what the network and Apple do, judged by the stand-in's state:
/// `429` with `Retry-After` (a UNIX time in milliseconds) waited for, a wait over the bound refused,
/// `5xx` and failed connections retried, lost answers settled by a lookup (uploads) or by Apple's
/// "not found" (deletes) and never by sending a performance test twice; `--verbose` without secrets.
@Suite("offerkit retention: faults, retries, rate limits", .serialized)
struct RetentionFaultTests {
    typealias Fixture = RetentionFixture
    static var enabled: Bool {
        get async { await Fixture.available || Independent.isCI }
    }

    @Test(
        "429 with Retry-After is waited for; a wait past the bound and endless 429s are exit 5",
        .enabled(Fixture.reason) { await enabled })
    func rateLimits() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        try await fixture.standIn.setFaults(
            #"{"script": [{"pathPrefix": "/inApps/v1/messaging/message/list", "fault": "rate-limit", "retryAfter": 2}]}"#
        )
        let started = Date()
        let waited = try await fixture.run(["message", "list", "--verbose"])
        #expect(waited.status == 0, "\(waited)")
        #expect(Date().timeIntervalSince(started) >= 1.5, "Retry-After (2 s) was waited for")
        #expect(waited.stderr.contains("Get Message List: 429, waiting"), "\(waited)")
        await #expect(try fixture.requests("GET /inApps/v1/messaging/message/list") == 2)

        // Apple's hourly limit of the endpoint, spent: Retry-After is an hour away, past OfferKit's 2 minutes.
        try await fixture.standIn.setFaults("{}")
        try await fixture.standIn.configure(#"{"rateLimits": {"Get Image List": 1}}"#)
        await #expect(try fixture.run(["image", "list"]).status == 0)
        let spent = try await fixture.run(["image", "list"])
        #expect(spent.status == 5, "\(spent)")
        #expect(spent.stderr.contains("Apple's rate limit for Get Image List asks to wait 3"), "\(spent)")
        await #expect(try fixture.requests("GET /inApps/v1/messaging/image/list") == 2, "not asked again")

        try await fixture.standIn.setFaults(
            #"{"script": [{"pathPrefix": "/inApps/v1/messaging/realtime", "fault": "rate-limit-no-retry-after", "times": 10}]}"#
        )
        let endless = try await fixture.run(["url", "get"])
        #expect(endless.status == 5, "\(endless)")
        #expect(
            endless.stderr.contains("4 attempts of GET /inApps/v1/messaging/realtime/url failed, the last with: 429"))
    }

    @Test("5xx and refused connections are retried, then exit 5", .enabled(Fixture.reason) { await enabled })
    func serverErrors() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        try await fixture.standIn.setFaults(
            #"{"script": [{"method": "PUT", "fault": "server-error"}, {"method": "PUT", "fault": "unavailable"}]}"#)
        let retried = try await fixture.run(["url", "set", "https://retention.example.test/x"])
        #expect(retried.status == 0, "\(retried)")
        await #expect(try fixture.requests("PUT /inApps/v1/messaging/realtime/url") == 3)
        // A 5xx may come after the change: an upload is looked up before it is sent again.
        try await fixture.standIn.setFaults(#"{"script": [{"method": "PUT", "fault": "server-error"}]}"#)
        let upload = try await fixture.run([
            "message", "upload", "--message-identifier", Fixture.message, "--header", "h", "--body", "b",
        ])
        #expect(upload.status == 0, "\(upload)")
        await #expect(try fixture.requests("PUT /inApps/v1/messaging/message/{id}") == 2)
        await #expect(
            try fixture.requests("GET /inApps/v1/messaging/message/list") == 2,
            "asked before the upload, and looked up after the 500")
        await #expect((try fixture.standIn.app()["messages"] as? [Any])?.count == 1)
        try await fixture.standIn.setFaults(#"{"script": [{"fault": "server-error", "times": 10}]}"#)
        let failing = try await fixture.run(["url", "get"])
        #expect(failing.status == 5, "\(failing)")
        #expect(failing.stderr.contains("the last with: 500 5000000 GeneralInternalError"), "\(failing)")
        let nowhere = try await fixture.run(
            ["url", "get", "--timeout", "2"], environment: ["OFFERKIT_SERVER_API_URL": "http://127.0.0.1:9"])
        #expect(nowhere.status == 5, "\(nowhere)")
        #expect(nowhere.stderr.contains("could not be reached for Get Realtime URL"), "\(nowhere)")
    }

    @Test(
        "A lost answer: an upload is looked up, not sent twice; a delete that finds nothing is done",
        .enabled(Fixture.reason) { await enabled })
    func droppedConnections() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        try await fixture.standIn.setFaults(#"{"script": [{"method": "PUT", "fault": "drop-after"}]}"#)
        let upload = try await fixture.run([
            "message", "upload", "--message-identifier", Fixture.message, "--header", "h", "--body", "b", "--verbose",
        ])
        #expect(upload.status == 0, "\(upload)")
        #expect(
            upload.stderr.contains("Upload Message: the answer was lost, and the lookup found it done"), "\(upload)")
        await #expect(try fixture.requests("PUT /inApps/v1/messaging/message/{id}") == 1, "sent once")
        await #expect(
            try fixture.requests("GET /inApps/v1/messaging/message/list") == 2,
            "asked before the upload, and looked up after the lost answer")

        try await fixture.standIn.setFaults(#"{"script": [{"method": "PUT", "fault": "drop-before"}]}"#)
        let image = try await fixture.run([
            "image", "upload", try fixture.png("i.png", width: 1024, height: 1024), "--image-identifier",
            Fixture.message,
            "--image-size", "BULLET_POINT",
        ])
        #expect(image.status == 0, "\(image)")
        await #expect(
            try fixture.requests("PUT /inApps/v1/messaging/image/{id}") == 2,
            "not stored by the dropped one: sent again")
        await #expect((try fixture.standIn.app()["images"] as? [Any])?.count == 1)

        try await fixture.standIn.setFaults(#"{"script": [{"method": "DELETE", "fault": "drop-after"}]}"#)
        let deleted = try await fixture.run(["message", "delete", Fixture.message, "--verbose"])
        #expect(deleted.status == 0, "\(deleted)")
        #expect(deleted.stderr.contains("Apple answered MessageNotFoundError: done"), "\(deleted)")

        // A slow answer past --timeout is a lost answer too: the URL is set again (it overwrites).
        try await fixture.standIn.configure(#"{"slowSeconds": 2.5}"#)
        try await fixture.standIn.setFaults(#"{"script": [{"method": "PUT", "fault": "slow"}]}"#)
        let slow = try await fixture.run(["url", "set", "https://retention.example.test/x", "--timeout", "1"])
        #expect(slow.status == 0, "\(slow)")
        await #expect(try fixture.requests("PUT /inApps/v1/messaging/realtime/url") == 2)

        // The performance test is never sent twice.
        try await fixture.standIn.setFaults(#"{"script": [{"method": "POST", "fault": "drop-after"}]}"#)
        let test = try await fixture.run(["performance-test", "start", "--original-transaction-id", "2000000900000001"])
        #expect(test.status == 5, "\(test)")
        #expect(test.stderr.contains("Initiate Performance Test got no answer"), "\(test)")
        await #expect(try fixture.requests("POST /inApps/v1/messaging/performanceTest") == 1)
    }

    @Test(
        "An upload whose identifier Apple already has is refused before sending (exit 4), so a lost answer cannot pass for it",
        .enabled(Fixture.reason) { await enabled })
    func uploadOfExistingIdentifier() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        let first = try await fixture.run([
            "message", "upload", "--message-identifier", Fixture.message, "--header", "old", "--body", "b",
        ])
        #expect(first.status == 0, "\(first)")
        // Were it sent, its answer would be lost: a lookup would find the earlier message and take
        // it for this one.
        try await fixture.standIn.setFaults(#"{"script": [{"method": "PUT", "fault": "drop-after"}]}"#)
        let again = try await fixture.run([
            "message", "upload", "--message-identifier", Fixture.message.uppercased(), "--header", "new", "--body", "b",
        ])
        #expect(again.status == 4, "\(again)")
        #expect(
            again.stderr.contains(
                "Upload Message: \(Fixture.message) is already in Apple's message list, so nothing was sent"),
            "\(again)")
        #expect(again.stderr.contains("offerkit retention message delete \(Fixture.message)"), "\(again)")
        await #expect(try fixture.requests("PUT /inApps/v1/messaging/message/{id}") == 1, "the second was not sent")

        try await fixture.standIn.setFaults("{}")
        let png = try fixture.png("i.png", width: 1024, height: 1024)
        let image = ["image", "upload", png, "--image-identifier", Fixture.message, "--image-size", "BULLET_POINT"]
        await #expect(try fixture.run(image).status == 0)
        let imageAgain = try await fixture.run(image + ["--format", "json"])
        #expect(imageAgain.status == 4, "\(imageAgain)")
        #expect(
            imageAgain.stderr.contains("Upload Image: \(Fixture.message) is already in Apple's image list"),
            "\(imageAgain)")
        await #expect(try fixture.requests("PUT /inApps/v1/messaging/image/{id}") == 1)
    }

    @Test(
        "--verbose prints method, path, status and time, never a token or the key",
        .enabled(Fixture.reason) { await enabled })
    func verbose() async throws {
        let fixture = try await Fixture()
        defer { fixture.stop() }
        let result = try await fixture.run(["message", "list", "--verbose"])
        #expect(result.status == 0, "\(result)")
        let line = try #require(result.stderr.split(separator: "\n").first { $0.contains("GET /inApps") })
        #expect(
            line.wholeMatch(of: /offerkit: GET \/inApps\/v1\/messaging\/message\/list 200 \d+ ms/) != nil, "\(line)")
        #expect(!result.stderr.contains("eyJ") && !result.stderr.contains("Bearer"), "\(result)")
    }
}
