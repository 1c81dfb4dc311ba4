import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit codes plan` and `codes apply` with a campaign of promotional, introductory and
/// win-back offers: planned (bodies checked against Apple's schemas by Python's `jsonschema`), and
/// listed by `apply --dry-run` (`CodesApplySubscriptionOffersTests` applies them).
@Suite("offerkit codes plan: promotional, introductory and win-back offers")
struct CodesPlanSubscriptionOffersTests {
    static let subscription =
        #"{"id": "6450000001", "productId": "com.example.offerkit.monthly", "period": "ONE_MONTH"}"#

    static func campaign(winBackPrice: String = #""pricePoint": "pp-usa-499""#) -> String {
        """
        {
          "name": "offers-2027",
          "app": {"bundleId": "com.example.offerkit.demo", "appAppleId": "\(CampaignFiles.appAppleId)"},
          "promotionalOffers": [
            {"referenceName": "Come back for 3 months", "offerIdentifier": "comeback_monthly_3",
             "subscription": \(subscription), "paymentMode": "PAY_AS_YOU_GO", "duration": "ONE_MONTH",
             "numberOfPeriods": 3, "prices": [{"territory": "USA", "pricePoint": "pp-usa-199"}]}
          ],
          "introductoryOffers": [
            {"subscription": \(subscription), "paymentMode": "FREE_TRIAL", "duration": "ONE_WEEK",
             "prices": [{"territory": "USA", "free": true}, {"territory": "GBR", "free": true}]}
          ],
          "winBackOffers": [
            {"referenceName": "Win back 2027", "offerIdentifier": "winback_2027", "subscription": \(subscription),
             "paymentMode": "PAY_UP_FRONT", "duration": "THREE_MONTHS",
             "customerEligibility": {"paidSubscriptionDurationInMonths": 6,
                                     "timeSinceLastSubscribedInMonths": {"minimum": 1, "maximum": 12}},
             "startDate": "2027-04-01", "priority": "NORMAL", "prices": [{"territory": "USA", \(winBackPrice)}]}
          ]
        }
        """
    }

    @Test(
        "A campaign of promotional, introductory and win-back offers plans into requests Apple's schemas accept",
        .enabled(CodesPlanTests.Schemas.reason) { await CodesPlanTests.Schemas.available || Independent.isCI })
    func plansSubscriptionOffers() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = try files.write(Self.campaign(), to: "offers.json")
        let plan = try await files.run("plan", campaign, ["--no-ledger"], ledger: .none)
        #expect(plan.status == 0, "\(plan)")
        let document = try #require(JSON.parse(plan.stdout))
        let ids = try #require(document["requests"]?.array).compactMap { $0["id"]?.string }
        #expect(
            ids == ["promotional-offer-1", "introductory-offer-1-USA", "introductory-offer-1-GBR", "win-back-offer-1"])
        let result = try await CodesPlanTests.Schemas.validate(planFiles: [
            try files.write(plan.stdout, to: "plan.json")
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("4 requests valid against App Store Connect API 4.4.1 schemas"), "\(result.stdout)")
    }

    @Test(
        "examples/subscription-offers.json validates, with its offers counted, and plans into valid requests",
        .enabled(CodesPlanTests.Schemas.reason) { await CodesPlanTests.Schemas.available || Independent.isCI })
    func exampleValidatesAndPlans() async throws {
        let example = CLI.packageRoot.appendingPathComponent("examples/subscription-offers.json").path
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let validate = try await files.run("validate", example, [], ledger: .none)
        #expect(validate.status == 0, "\(validate)")
        #expect(
            validate.output
                == "valid: subscription-offers-2027 (app 1234567890): 0 offers, 0 one-time-use batches (0 codes), "
                + "0 custom-code batches (0 codes), 1 promotional offer, 1 introductory offer (3 territories), "
                + "1 win-back offer", "\(validate)")
        let plan = try await files.run("plan", example, ["--no-ledger"], ledger: .none)
        #expect(plan.status == 0, "\(plan)")
        let result = try await CodesPlanTests.Schemas.validate(planFiles: [
            try files.write(plan.stdout, to: "plan.json")
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("5 requests valid against App Store Connect API 4.4.1 schemas"), "\(result.stdout)")
    }

    @Test func refusesToPlanACustomerPriceItCannotLookUp() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = try files.write(Self.campaign(winBackPrice: #""customerPrice": "4.99""#), to: "offers.json")
        let validate = try await files.run("validate", campaign, [], ledger: .none)
        #expect(validate.status == 0, "\(validate)")
        let plan = try await files.run("plan", campaign, ["--no-ledger"], ledger: .none)
        #expect(plan.status == 4, "\(plan)")
        #expect(plan.stdout.isEmpty)
        #expect(
            plan.stderr.contains(
                "win-back offer 1 (\"winback_2027\"): the USA price is the customer price 4.99, whose price point "
                    + "was not looked up"), "\(plan.stderr)")
        // It names the command that finds the id to write.
        #expect(
            plan.stderr.contains(
                "`offerkit codes lookup price-points --subscription 6450000001 --territory USA --customer-price 4.99` "
                    + "prints it"), "\(plan.stderr)")
    }

    /// `generate` records a campaign without offer codes (what `apply` records its offers under), and
    /// `apply --dry-run` lists each offer it would create, reading the ledger only.
    @Test func generateRecordsTheCampaignAndTheDryRunListsItsOffers() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = try files.write(Self.campaign(), to: "offers.json")
        let early = try await files.run("apply", campaign, ["--dry-run"])
        #expect(early.status == 2 && early.stderr.contains("run `offerkit codes generate`"), "\(early)")
        let generate = try await files.run("generate", campaign)
        #expect(generate.status == 0, "\(generate)")
        #expect(generate.stderr.contains("campaign offers-2027 recorded; it has no offer codes to generate"))
        let apply = try await files.run("apply", campaign, ["--dry-run"])
        #expect(apply.status == 0, "\(apply)")
        #expect(
            apply.stdout.split(separator: "\n").map { String($0) } == [
                "campaign offers-2027: nothing is sent (--dry-run)",
                "  promotional-offer-1 (promotional offer \"comeback_monthly_3\"): would be created",
                "  introductory-offer-1-USA (introductory offer of subscription \"6450000001\" in USA): would be created",
                "  introductory-offer-1-GBR (introductory offer of subscription \"6450000001\" in GBR): would be created",
                "  win-back-offer-1 (win-back offer \"winback_2027\"): would be created",
                "  total: 0 exist, 4 would be created, 0 looked up first, 0 sent again after a refusal",
            ], "\(apply)")
    }

    /// Without `--today`, `plan` reads the campaign as of the day the ledger recorded it: a relative
    /// start date names the same day on every later run, and once that day has passed the plan is
    /// still made (not refused for a past start date), so that an interrupted `apply` resumes.
    @Test func relativeDatesCountFromTheDayTheCampaignWasRecorded() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = try files.write(
            Self.campaign().replacingOccurrences(of: #""startDate": "2027-04-01""#, with: #""startDate": "P7D""#),
            to: "offers.json")
        let generate = try await CLI.run(
            ["codes", "generate", campaign, "--ledger", files.ledger], cwd: files.folder.url)
        try #require(generate.status == 0, "\(generate)")
        // Recorded 30 days ago: what a ledger made last month says.
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        let recordedAt = Date().addingTimeInterval(-30 * 86_400)
        let recorded = day.string(from: recordedAt)
        let start = day.string(from: recordedAt.addingTimeInterval(7 * 86_400))
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE campaigns SET recorded_at = ? WHERE name = 'offers-2027'", (sys.argv[2] + "T09:00:00.000Z",))
            db.commit()
            """
        let moved = try await AwaitedProcess.run("python3", ["-c", script, files.ledger, recorded])
        try #require(moved.status == 0, "\(moved)")
        for _ in 0..<2 {
            let plan = try await CLI.run(
                ["codes", "plan", campaign, "--ledger", files.ledger, "--format", "json-lines"], cwd: files.folder.url)
            #expect(plan.status == 0, "\(plan)")
            let winBack = plan.stdout.split(separator: "\n").first { $0.contains(#""id":"win-back-offer-1""#) }
            #expect(
                winBack?.contains(#""startDate":"\#(start)""#) == true, "\(winBack ?? "")")
        }
        // With --today, the plan is as of that day.
        let today = try await files.run("plan", campaign, ["--format", "json-lines"])
        #expect(today.status == 0 && today.stdout.contains(#""startDate":"2027-01-22""#), "\(today)")

        // A start date before the recorded day is refused as of that day, and the message says
        // that "today" there is the recorded day, not today.
        let before = day.string(from: recordedAt.addingTimeInterval(-86_400))
        let past = try files.write(
            Self.campaign().replacingOccurrences(
                of: #""startDate": "2027-04-01""#, with: #""startDate": "\#(before)""#),
            to: "past.json")
        let refused = try await CLI.run(["codes", "plan", past, "--ledger", files.ledger], cwd: files.folder.url)
        #expect(refused.status == 4, "\(refused)")
        let earliest = day.string(from: recordedAt.addingTimeInterval(86_400))
        #expect(
            refused.stderr.contains(
                "\(before) is before \(earliest); App Store Connect schedules a win-back offer from the day after "
                    + "today at the earliest"),
            "\(refused)")
        #expect(
            refused.stderr.contains(
                #"offerkit: "today" above is \#(recorded), the day the ledger first recorded campaign "offers-2027": "#
                    + "plan and apply check dates, expiry limits and quarters as of that day on every run; --today "
                    + "YYYY-MM-DD checks them as of another"),
            "\(refused)")
        // With --today, "today" is today's word again: no such line.
        let given = try await CLI.run(
            ["codes", "plan", past, "--ledger", files.ledger, "--today", recorded], cwd: files.folder.url)
        #expect(given.status == 4 && !given.stderr.contains(#""today" above"#), "\(given)")
    }
}
