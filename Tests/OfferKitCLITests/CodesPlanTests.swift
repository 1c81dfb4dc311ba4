import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// `offerkit codes plan`, run as the built binary; request bodies are checked against Apple's
/// schemas by `Tests/Interop/validate_asc_requests.py` (Python's `jsonschema`).
@Suite("offerkit codes plan")
struct CodesPlanTests {
    /// Offers with given custom codes and one-time-use batches only: plannable without a ledger.
    static let givenOnly = CampaignFiles.campaign(
        name: "given-only",
        offers: [
            CampaignFiles.offer(
                "Press", oneTimeUse: [CampaignFiles.oneTimeUse(count: 50, environment: "SANDBOX")],
                custom: [CampaignFiles.given(["PRESS27", "REVIEW27"], redemptionLimit: 20, expires: "P60D")]),
            CampaignFiles.offer("Partners", custom: [CampaignFiles.given(["PARTNER27"], redemptionLimit: 500)]),
        ])

    /// The example campaign generated into the folder's ledger.
    static func generatedExample() async throws -> CampaignFiles {
        let files = try CampaignFiles.make()
        let generate = try await files.run("generate", CampaignFiles.example)
        #expect(generate.status == 0, "\(generate)")
        return files
    }

    @Test(
        "Plans of the example (document and JSON Lines) and of a ledger-less campaign are valid against Apple's schemas",
        .enabled(Schemas.reason) { await Schemas.available || Independent.isCI })
    func plansValidateAgainstApplesSchemas() async throws {
        let files = try await Self.generatedExample()
        defer { files.remove() }
        let document = files.file("plan.json")
        let plan = try await files.run("plan", CampaignFiles.example, ["--out", document])
        #expect(plan.status == 0 && plan.stdout.isEmpty, "\(plan)")
        let lines = try await files.run(
            "plan", CampaignFiles.example, ["--format", "json-lines", "--out", files.file("plan.jsonl")])
        #expect(lines.status == 0, "\(lines)")
        let linesText = files.text(of: files.file("plan.jsonl")) ?? ""
        let array = try files.write(
            "[\n" + linesText.split(separator: "\n").joined(separator: ",\n") + "\n]\n", to: "plan-lines.json")
        let givenOnly = try files.write(Self.givenOnly, to: "given-only.json")
        let ledgerless = try await files.run("plan", givenOnly, ["--no-ledger"], ledger: .none)
        #expect(ledgerless.status == 0, "\(ledgerless)")
        let ledgerlessPlan = try files.write(ledgerless.stdout, to: "plan-given-only.json")

        let result = try await Schemas.validate(planFiles: [document, array, ledgerlessPlan])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // 6 offers, 5 one-time-use batches, 1,303 custom codes, 1 promotional offer, 3 introductory offer
        // territories, 1 win-back offer, twice; then 2 + 1 + 3.
        #expect(
            result.stdout.contains("\(2 * 1319 + 6) requests valid against App Store Connect API 4.4.1 schemas"),
            "\(result.stdout)")
    }

    @Test func jsonLinesHoldTheDocumentsRequests() async throws {
        let files = try await Self.generatedExample()
        defer { files.remove() }
        // Large outputs go to files (--out), which also spares the key-leak scan of every run's stdout.
        let plan = try await files.run("plan", CampaignFiles.example, ["--out", files.file("plan.json")])
        #expect(plan.status == 0 && plan.stdout.isEmpty, "\(plan)")
        let document = try #require(JSON.parse(files.text(of: files.file("plan.json")) ?? ""))
        #expect(document["campaign"] == .string("spring-2027"))
        #expect(document["app"]?["appAppleId"] == .string(CampaignFiles.appAppleId))
        let requests = try #require(document["requests"]?.array)
        #expect(requests.count == 1319)
        #expect(Set(requests.compactMap { $0["id"]?.string }).count == requests.count, "request ids repeat")

        let lines = try await files.run(
            "plan", CampaignFiles.example, ["--format", "json-lines", "--out", files.file("plan.jsonl")])
        #expect(lines.status == 0, "\(lines)")
        let linesText = files.text(of: files.file("plan.jsonl")) ?? ""
        #expect(linesText.hasSuffix("\n") && !linesText.contains("\n\n"))
        let parsed = linesText.split(separator: "\n").map { JSON.parse($0) }
        #expect(parsed.count == requests.count)
        #expect(parsed.allSatisfy { $0 != nil }, "every line is one JSON value")
        #expect(parsed.compactMap { $0 } == requests, "the lines hold the document's requests, in order")

        // Every custom code of the ledger is created once, and nothing else.
        let export = try await files.run("export", CampaignFiles.example)
        let customCodes = requests.compactMap { $0["body"]?["data"]?["attributes"]?["customCode"]?.string }
        #expect(customCodes.count == 1303)
        #expect(Set(customCodes) == Set(CampaignFiles.codes(ofCSV: export.stdout)))
        #expect(Set(customCodes).count == customCodes.count)
    }

    @Test func planOnALaterDayKeepsTheRecordedExpiry() async throws {
        let files = try await Self.generatedExample()
        defer { files.remove() }
        let out = files.file("plan.jsonl")
        let plan = try await CLI.run(
            [
                "codes", "plan", CampaignFiles.example, "--ledger", files.ledger, "--today", "2027-02-01",
                "--format", "json-lines", "--out", out,
            ], cwd: files.folder.url)
        #expect(plan.status == 0, "\(plan)")
        var expiry: [String: String] = [:]
        for request in (files.text(of: out) ?? "").split(separator: "\n").compactMap({ JSON.parse($0) }) {
            if let id = request["id"]?.string,
                let date = request["body"]?["data"]?["attributes"]?["expirationDate"]?.string
            {
                expiry[id] = date
            }
        }
        // Recorded on 2027-01-15: P90D, P3M, P6M, P30D, P60D from that day (not from 2027-02-01).
        #expect(expiry["offer-1-one-time-use-1"] == "2027-04-15")
        #expect(expiry["offer-1-one-time-use-2"] == "2027-02-14")
        #expect(expiry["offer-2-custom-code-1"] == "2027-04-15")
        #expect(expiry["offer-3-one-time-use-1"] == "2027-07-15")
        #expect(expiry["offer-4-one-time-use-1"] == "2027-02-14")
        #expect(expiry["offer-5-custom-code-1"] == "2027-03-16")
    }

    @Test func planBeforeGenerateExits2AndWritesNothing() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let words = ["Spring half price, 3 months", "custom-code batch 2", "offerkit codes generate"]
        await Expect.failure(try files.run("plan", CampaignFiles.example), status: 2, mentioning: words)
        let out = files.file("plan.json")
        await Expect.failure(
            try files.run("plan", CampaignFiles.example, ["--out", out]), status: 2, mentioning: words)
        #expect(!FileManager.default.fileExists(atPath: out))
        await Expect.failure(
            try files.run("plan", CampaignFiles.example, ["--no-ledger"], ledger: .none), status: 2,
            mentioning: words)
    }

    /// A generated batch after many given codes: the missing codes must stop the plan before any
    /// request is streamed, not after hundreds of kilobytes of a partial plan.
    @Test func jsonLinesBeforeGenerateWritesNoPartialPlan() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let given = (1...1000).map { "GIVEN\($0)" }
        let campaign = try files.write(
            CampaignFiles.campaign(
                name: "late-generated",
                offers: [
                    CampaignFiles.offer("Given", custom: [CampaignFiles.given(given)]),
                    CampaignFiles.offer("Generated", custom: [CampaignFiles.generated(count: 10)]),
                ]),
            to: "late.json")
        let result = try await files.run("plan", campaign, ["--format", "json-lines"])
        // Not Expect.failure: it would print the whole partial plan.
        #expect(result.status == 2, "\(result.stderr)")
        #expect(
            result.stderr.hasPrefix("offerkit: ") && result.stderr.contains("\"Generated\"")
                && result.stderr.contains("offerkit codes generate"), "\(result.stderr)")
        let partialBytes = result.stdout.utf8.count
        let partialRequests = result.stdout.split(separator: "\n").count
        #expect(
            partialBytes == 0,
            "a partial plan reached stdout before the error: \(partialBytes) bytes, \(partialRequests) requests")
    }

    @Test func noLedgerPlansGivenCodes() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = try files.write(Self.givenOnly, to: "given-only.json")
        let plan = try await files.run("plan", campaign, ["--no-ledger"], ledger: .none)
        #expect(plan.status == 0, "\(plan)")
        let requests = try #require(plan.json?["requests"]?.array, "\(plan)")
        #expect(
            requests.compactMap { $0["id"]?.string } == [
                "offer-1", "offer-1-one-time-use-1", "offer-1-custom-code-1", "offer-1-custom-code-2", "offer-2",
                "offer-2-custom-code-1",
            ])
        let attributes = requests.map { $0["body"]?["data"]?["attributes"] }
        #expect(attributes[1]?["numberOfCodes"] == .int(50))
        #expect(attributes[1]?["environment"] == .string("SANDBOX"))
        #expect(attributes[1]?["expirationDate"] == .string("2027-02-14"))
        #expect(attributes[2]?["customCode"] == .string("PRESS27"))
        #expect(attributes[2]?["numberOfCodes"] == .int(20))
        #expect(attributes[2]?["expirationDate"] == .string("2027-03-16"))
        #expect(attributes[3]?["customCode"] == .string("REVIEW27"))
        #expect(attributes[5]?["customCode"] == .string("PARTNER27"))
        #expect(attributes[5]?["numberOfCodes"] == .int(500))
        #expect(files.listing() == ["given-only.json"], "--no-ledger wrote \(files.listing())")
    }
}

extension CodesPlanTests {
    /// `Tests/Interop/validate_asc_requests.py` with Apple's App Store Connect API 4.4.1 schemas.
    ///
    /// Without Python's `jsonschema` or the schemas the tests that need them are skipped with a loud
    /// reason; with `CI` set they run anyway and fail, so CI can never pass without the check.
    enum Schemas {
        static let script = CLI.packageRoot.appendingPathComponent("Tests/Interop/validate_asc_requests.py").path

        /// `OFFERKIT_ASC_SCHEMAS`, else the committed copy in `Tests/Fixtures/app-store-connect/`.
        static let schemas: String? = {
            let candidates: [String?] = [
                ProcessInfo.processInfo.environment["OFFERKIT_ASC_SCHEMAS"],
                CLI.packageRoot.appendingPathComponent(
                    "Tests/Fixtures/app-store-connect/offer_code_schemas_4.4.1.json"
                ).path,
            ]
            return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
        }()

        static var jsonschemaAvailable: Bool {
            get async { await ExternalProcess.succeeds(Independent.python, ["-c", "import jsonschema, referencing"]) }
        }

        static var available: Bool {
            get async { await jsonschemaAvailable && schemas != nil }
        }

        static let reason = Comment(
            rawValue: "SKIPPED LOUDLY: the CLI's request plans are not checked against Apple's schemas here because "
                + "\(Independent.python) cannot import jsonschema and referencing (run .ci/run, or pip install "
                + "jsonschema and set OFFERKIT_PYTHON) or offer_code_schemas_4.4.1.json was not found (set "
                + "OFFERKIT_ASC_SCHEMAS); CI never skips this")

        /// Runs the validator on plan files (documents or arrays of requests) in one Python run.
        static func validate(planFiles: [String]) async throws -> Independent.Result {
            let schemas = try #require(schemas, "Apple's offer-code schemas were not found (set OFFERKIT_ASC_SCHEMAS)")
            return try await Independent.run(Independent.python, [script, schemas] + planFiles)
        }
    }
}
