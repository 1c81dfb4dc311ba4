import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit codes claim|status|validate --format json` and the service's `POST /v1/codes/claim`,
/// `GET /v1/campaigns/{name}/status` and `POST /v1/campaigns/validate` come from one encoder: for
/// the same ledger state they answer the same JSON, member by member (and, compact, byte by byte).
@Suite("The CLI's and the service's JSON")
struct CLIServiceJSONTests {
    /// The paths at which `a` and `b` differ: a member one has and the other lacks, or another value.
    static func differences(_ a: JSON?, _ b: JSON?, at path: String = "$") -> [String] {
        switch (a, b) {
        case (.object(let left)?, .object(let right)?):
            return Set(left.keys).union(right.keys).sorted().flatMap {
                differences(left[$0], right[$0], at: "\(path).\($0)")
            }
        case (.array(let left)?, .array(let right)?) where left.count == right.count:
            return zip(left, right).enumerated().flatMap {
                differences($0.element.0, $0.element.1, at: "\(path)[\($0.offset)]")
            }
        default:
            return a == b
                ? [] : ["\(path): CLI \(a.map(\.canonical) ?? "nothing"), service \(b.map(\.canonical) ?? "nothing")"]
        }
    }

    @Test("claim, status and validate: the same members and values", arguments: HandOut.backends)
    func sameJSON(backend: String) async throws {
        guard let handOut = try await HandOut.make(backend) else { return }
        defer { handOut.remove() }
        let locator: String
        switch handOut.ledger {
        case .at(let url): locator = url
        default: locator = handOut.files.ledger
        }
        let key = try await ServeFixture.createKey(name: "parity", ["--scope", "codes", "--scope", "campaigns"])
        let config = try handOut.files.write(
            """
            {"apps": {"\(DemoKey.bundleId)": {"keyFile": "\(DemoKey.keyPath)", "keyId": "\(DemoKey.keyId)",
                      "issuerId": "\(DemoKey.issuerId)", "appAppleId": \(CampaignFiles.appAppleId)}},
             "ledger": \(CampaignFiles.quoted(locator))}
            """, to: "service.json")
        let server = try ServerProcess(
            ["serve", "--config", config, "--port", "0"], environment: ["OFFERKIT_API_KEYS": "[\(key.entryText)]"])
        let prefix = "offerkit: listening on http://127.0.0.1:"
        let line = try await server.waitForStderrLine(containing: prefix)
        let port = try #require(Int(line.dropFirst(prefix.count)), "no port in \(line)")
        defer { server.terminate() }
        func call(_ method: String, _ path: String, _ body: String? = nil) async throws -> HTTPReply {
            var headers = [("Authorization", "Bearer \(key.secret)")]
            if body != nil { headers.append(("Content-Type", "application/json")) }
            return try await HTTPConnection.request(method, path, port: port, headers: headers, body: body)
        }

        // A claim: the CLI hands the code out, then both answer for the same assignment.
        let first = try await handOut.claim(HandOut.personal, "alice", ["--format", "json"])
        #expect(first.status == 0 && JSON.parse(first.stdout)?["new"] == .bool(true), "\(first)")
        let cliClaim = try await handOut.claim(HandOut.personal, "alice", ["--format", "json"])
        let httpClaim = try await call(
            "POST", "/v1/codes/claim", #"{"campaign":"handout","offer":"Personal","recipient":"alice"}"#)
        #expect(httpClaim.status == 200, "\(httpClaim)")
        #expect(Self.differences(JSON.parse(cliClaim.stdout), httpClaim.json) == [], "\(cliClaim)\n\(httpClaim)")
        #expect(
            cliClaim.stdout.trimmingCharacters(in: .newlines) == httpClaim.body.trimmingCharacters(in: .newlines),
            "one encoder, the same bytes")
        // A shared code and a one-time-use code handed out over HTTP, for the status to count.
        await #expect(
            try call("POST", "/v1/codes/claim", #"{"campaign":"handout","offer":"Gems","recipient":"bob"}"#).status
                == 200)

        // The status of that ledger, on the service's day.
        let httpStatus = try await call("GET", "/v1/campaigns/handout/status")
        #expect(httpStatus.status == 200, "\(httpStatus)")
        let today = try #require(httpStatus.json?["today"]?.string, "\(httpStatus)")
        var arguments = ["codes", "status", handOut.campaign, "--format", "json", "--today", today]
        arguments += ["--ledger", locator]
        let cliStatus = try await CLI.run(arguments, cwd: handOut.files.folder.url)
        #expect(cliStatus.status == 0, "\(cliStatus)")
        #expect(Self.differences(JSON.parse(cliStatus.stdout), httpStatus.json) == [], "\(cliStatus)\n\(httpStatus)")
        #expect(
            cliStatus.stdout.trimmingCharacters(in: .newlines) == httpStatus.body.trimmingCharacters(in: .newlines),
            "one encoder, the same bytes")
        let offers = httpStatus.json?["offers"]?.array ?? []
        #expect(
            offers.compactMap { $0["offer"]?.string } == [
                HandOut.personal, HandOut.shared, HandOut.gems, HandOut.later,
            ])
        #expect(offers.first?["totals"]?[0]?["assigned"] == .int(1), "\(httpStatus)")
        #expect(offers.last?["batches"]?[0]?["awaitingImport"] == .bool(true), "\(httpStatus)")

        // Validation of a campaign with more problems than a line: the same document.
        let broken = try handOut.files.write(
            CampaignFiles.campaign(
                name: "broken",
                offers: [
                    CampaignFiles.offer("A", custom: [CampaignFiles.given(["lower"])]).replacingOccurrences(
                        of: "\"ONE_TIME\"", with: "\"FREE_TRIAL\""),
                    CampaignFiles.offer("A"),
                ]), to: "broken.json")
        let cliValidate = try await CLI.run(
            ["codes", "validate", broken, "--format", "json", "--today", CampaignFiles.today, "--no-ledger"],
            cwd: handOut.files.folder.url)
        #expect(cliValidate.status == 4, "\(cliValidate)")
        let campaign = try String(contentsOfFile: broken, encoding: .utf8)
        let httpValidate = try await call(
            "POST", "/v1/campaigns/validate", #"{"campaign":\#(campaign),"today":"\#(CampaignFiles.today)"}"#)
        #expect(httpValidate.status == 200, "\(httpValidate)")
        #expect((httpValidate.json?["problemCount"]?.int ?? 0) >= 3, "\(httpValidate)")
        #expect(
            Self.differences(JSON.parse(cliValidate.stdout), httpValidate.json) == [], "\(cliValidate)\n\(httpValidate)"
        )
        #expect(JSON.parse(cliValidate.stdout)?.keys == ["valid", "problems", "problemCount", "truncated"])
    }
}
