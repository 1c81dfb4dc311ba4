import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit codes validate`, run as the built binary.
@Suite("offerkit codes validate")
struct CodesValidateTests {
    /// A campaign with seven problems of different kinds: two at the top, one shape problem in
    /// the first offer (whose other fields are valid) and four rule problems in the second.
    static let brokenCampaign = """
        {
          "name": "bad campaign!",
          "app": {"bundleId": "com.example.offerkit.demo", "appAppleId": "12ab"},
          "offers": [
            {
              "referenceName": "Typo",
              "product": {"id": "6450000001", "productId": "com.example.offerkit.monthly", "type": "AUTO_RENEWABLE_SUBSCRIPTION"},
              "paymentMode": "FREE_TRIAL",
              "duration": "ONE_MONTH",
              "customerEligibilities": ["NEW"],
              "offerEligibility": "REPLACE_INTRO_OFFERS",
              "autoRenewEnabeld": true,
              "prices": [{"territory": "USA", "free": true}]
            },
            {
              "referenceName": "Trial",
              "product": {"id": "6450000001", "productId": "com.example.offerkit.monthly", "type": "AUTO_RENEWABLE_SUBSCRIPTION"},
              "paymentMode": "ONE_TIME",
              "duration": "ONE_MONTH",
              "customerEligibilities": ["NEW"],
              "offerEligibility": "REPLACE_INTRO_OFFERS",
              "prices": [{"territory": "USA", "free": true}],
              "oneTimeUseCodes": [{"count": 10, "expirationDate": "2028-01-01"}],
              "customCodes": [{"codes": ["spring"], "redemptionLimit": 0}]
            }
          ]
        }
        """

    /// Every problem of ``brokenCampaign``, in document order: path and rule.
    static let expectedProblems: [(path: String, rule: String)] = [
        ("$.name", "campaign-name"),
        ("$.app.appAppleId", "app-apple-id"),
        ("$.offers[0].autoRenewEnabeld", "unknown-member"),
        ("$.offers[1].paymentMode", "payment-mode-for-product-type"),
        ("$.offers[1].oneTimeUseCodes[0].expirationDate", "one-time-use-expiry"),
        ("$.offers[1].customCodes[0].codes[0]", "custom-code-format"),
        ("$.offers[1].customCodes[0].redemptionLimit", "redemption-limit"),
    ]

    static let exampleSummary =
        "valid: spring-2027 (app 1234567890): 6 offers, 5 one-time-use batches (1820 codes), "
        + "5 custom-code batches (1303 codes), 1 promotional offer, 1 introductory offer (3 territories), "
        + "1 win-back offer"

    @Test func exampleCampaignIsValid() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let text = try await files.run("validate", CampaignFiles.example)
        #expect(text.status == 0, "\(text)")
        #expect(text.output == Self.exampleSummary, "\(text)")
        #expect(text.stderr.isEmpty, "\(text)")

        let json = try await files.run("validate", CampaignFiles.example, ["--format", "json"])
        #expect(json.status == 0, "\(json)")
        #expect(
            json.json
                == .object([
                    "valid": .bool(true), "problems": .array([]), "problemCount": .int(0), "truncated": .bool(false),
                ]), "\(json)")

        let exampleBytes = try Data(contentsOf: URL(fileURLWithPath: CampaignFiles.example))
        let stdin = try await files.run("validate", "-", ["--no-ledger"], ledger: .none, stdin: exampleBytes)
        #expect(stdin.status == 0, "\(stdin)")
        #expect(stdin.output == Self.exampleSummary, "\(stdin)")
    }

    @Test func everyProblemIsListedWithPathMessageAndAllowed() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let path = try files.write(Self.brokenCampaign, to: "broken.json")
        let result = try await files.run("validate", path)
        Expect.failure(result, status: 4)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "offerkit: the campaign has 7 problems:", "\(result)")
        let problemLines = Array(lines.dropFirst())
        try #require(problemLines.count == Self.expectedProblems.count, "one line per problem\n\(result)")
        for (line, expected) in zip(problemLines, Self.expectedProblems) {
            // "offerkit: $.path: message (allowed: …)"; the problems may be indented under the header.
            #expect(line.hasPrefix("offerkit: "), "\(line)")
            let body = line.dropFirst("offerkit:".count).drop { $0 == " " }
            #expect(body.hasPrefix(expected.path + ": "), "expected \(expected.path) first: \(line)")
            let allowed = body.range(of: " (allowed: ")
            #expect(allowed != nil && line.hasSuffix(")"), "no allowed part: \(line)")
            if let allowed {
                let message = body[..<allowed.lowerBound].dropFirst(expected.path.count + 2)
                #expect(message.count >= 10, "no message: \(line)")
            }
        }
        #expect(result.stderr.contains(#"did you mean "autoRenewEnabled"?"#), "\(result)")
        #expect(result.stderr.contains(#"write "SPRING""#), "\(result)")
    }

    @Test func jsonFormatListsTheSameProblemsOnStdout() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let path = try files.write(Self.brokenCampaign, to: "broken.json")
        let result = try await files.run("validate", path, ["--format", "json"])
        #expect(result.status == 4, "\(result)")
        let document = try #require(result.json, "stdout is one JSON object\n\(result)")
        // The members POST /v1/campaigns/validate answers with (one encoder): the total and whether the list is cut.
        #expect(document.keys == ["valid", "problems", "problemCount", "truncated"])
        #expect(document["valid"] == .bool(false))
        #expect(
            document["problemCount"]?.int == Int64(Self.expectedProblems.count) && document["truncated"] == .bool(false)
        )
        let problems = try #require(document["problems"]?.array)
        #expect(problems.map { $0["path"]?.string ?? "" } == Self.expectedProblems.map(\.path))
        #expect(problems.map { $0["rule"]?.string ?? "" } == Self.expectedProblems.map(\.rule))
        for problem in problems {
            #expect(problem.keys == ["path", "rule", "message", "allowed"], "\(problem)")
            #expect((problem["message"]?.string ?? "").count > 10, "\(problem)")
            #expect((problem["allowed"]?.string ?? "").count > 3, "\(problem)")
        }

        // The text lines say exactly what the JSON says.
        let text = try await files.run("validate", path)
        for problem in problems {
            let path = problem["path"]?.string ?? ""
            let message = problem["message"]?.string ?? ""
            let allowed = problem["allowed"]?.string ?? ""
            #expect(text.stderr.contains("\(path): \(message) (allowed: \(allowed))\n"), "\(path)\n\(text)")
        }
    }

    @Test func unreadableCampaignExits5() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let missing = files.file("missing.json")
        await Expect.failure(try files.run("validate", missing), status: 5, mentioning: [missing, "no such file"])
        let folder = files.file("a-folder.json")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        await Expect.failure(try files.run("validate", folder), status: 5, mentioning: [folder])
    }

    @Test func badTodayExits2() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        for day in ["2027-13-45", "15/01/2027", "tomorrow"] {
            let result = try await CLI.run(
                ["codes", "validate", CampaignFiles.example, "--today", day, "--ledger", files.ledger],
                cwd: files.folder.url)
            Expect.failure(result, status: 2, mentioning: ["--today", "YYYY-MM-DD"])
        }
    }

    @Test func ledgerAndNoLedgerTogetherExit2() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let result = try await files.run("validate", CampaignFiles.example, ["--no-ledger"])
        Expect.failure(result, status: 2, mentioning: ["--ledger", "--no-ledger"])
        #expect(!FileManager.default.fileExists(atPath: files.ledger), "\(files.listing())")
    }

    /// One offer with a production and a sandbox one-time-use batch.
    static func quarterCampaign(
        name: String, appAppleId: String = CampaignFiles.appAppleId, production: Int, sandbox: Int
    )
        -> String
    {
        CampaignFiles.campaign(
            name: name, appAppleId: appAppleId,
            offers: [
                CampaignFiles.offer(
                    "\(name) offer",
                    oneTimeUse: [
                        CampaignFiles.oneTimeUse(count: production),
                        CampaignFiles.oneTimeUse(count: sandbox, environment: "SANDBOX"),
                    ])
            ])
    }

    @Test func quarterlyLimitsCountOtherCampaignsOfTheAppInTheLedger() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let first = try files.write(
            Self.quarterCampaign(name: "first", production: 600_000, sandbox: 6000), to: "a.json")
        await #expect(try files.run("generate", first).status == 0)
        func rules(_ campaign: String, today: String = CampaignFiles.today) async throws -> [String] {
            let result = try await CLI.run(
                ["codes", "validate", campaign, "--format", "json", "--ledger", files.ledger, "--today", today],
                cwd: files.folder.url)
            #expect(result.status == (result.json?["valid"] == .bool(true) ? 0 : 4), "\(result)")
            return result.json?["problems"]?.array?.compactMap { $0["rule"]?.string } ?? ["(no JSON)"]
        }
        let atLimit = try files.write(
            Self.quarterCampaign(name: "at", production: 400_000, sandbox: 4000), to: "b.json")
        await #expect(try rules(atLimit) == [])
        let over = try files.write(Self.quarterCampaign(name: "over", production: 400_001, sandbox: 4001), to: "c.json")
        await #expect(try rules(over) == ["production-codes-per-quarter", "sandbox-codes-per-quarter"])
        await #expect(
            try rules(over, today: "2027-03-31") == ["production-codes-per-quarter", "sandbox-codes-per-quarter"])
        await #expect(try rules(over, today: "2027-04-01") == [], "a new quarter")
        let otherApp = try files.write(
            Self.quarterCampaign(name: "other", appAppleId: "987654321", production: 400_001, sandbox: 4001),
            to: "d.json")
        await #expect(try rules(otherApp) == [], "limits are per app")
    }

    /// `codes validate --help`: "Nothing is written, not even to the ledger."
    @Test func validateCreatesNoLedgerFile() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let explicit = try await files.run("validate", CampaignFiles.example)
        #expect(explicit.status == 0, "\(explicit)")
        let implicit = try await files.run("validate", CampaignFiles.example, ledger: .none)
        #expect(implicit.status == 0, "\(implicit)")
        #expect(
            files.listing().isEmpty,
            "validate wrote \(files.listing()) (--ledger \(files.ledger), then the default ./offerkit-ledger.sqlite)")
    }
}
