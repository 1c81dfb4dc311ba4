import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// `offerkit codes plan` and `codes apply` with prices written as customer prices (issue 32): each
/// looked up in App Store Connect (the stand-in, `--catalog`) once, recorded in the ledger, and
/// planned from the ledger ever after, so that a re-plan is stable.
@Suite("offerkit codes plan: customer prices resolved through App Store Connect", .serialized)
struct CodesPlanCustomerPricesTests {
    typealias Fixture = ApplyFixture

    /// A promotional offer priced by what customers pay in USA, GBR and JPN.
    static func campaign(usa: String = "2.99") -> String {
        """
        {
          "name": "prices-2027",
          "app": {"bundleId": "com.example.offerkit.demo", "appAppleId": "\(CampaignFiles.appAppleId)"},
          "promotionalOffers": [
            {"referenceName": "Two months at 2.99", "offerIdentifier": "two_months_299",
             "subscription": \(CodesPlanSubscriptionOffersTests.subscription), "paymentMode": "PAY_AS_YOU_GO",
             "duration": "ONE_MONTH", "numberOfPeriods": 2,
             "prices": [{"territory": "USA", "customerPrice": "\(usa)"}, {"territory": "GBR", "customerPrice": "2.990"},
                        {"territory": "JPN", "customerPrice": "400"}]}
          ]
        }
        """
    }

    /// The stand-in's ids of USA 2.99, GBR 2.99 and JPN 400 (the catalog's third, third and eighth prices).
    static let expectedPricePoints = [
        CodesLookupTests.pricePoint("6450000001", "USA", 2), CodesLookupTests.pricePoint("6450000001", "GBR", 2),
        CodesLookupTests.pricePoint("6450000001", "JPN", 7),
    ]

    static let pricePointList = "/v1/subscriptions/{id}/pricePoints"

    /// The price point ids of the plan's first request (an offer with its prices), in territory order.
    static func pricePoints(ofPlan text: String) throws -> [String] {
        let document = try #require(JSON.parse(text))
        let body = try #require(document["requests"]?[0]?["body"])
        return (body["included"]?.array ?? []).compactMap { included in
            let relationships = included["relationships"]?.object ?? [:]
            return relationships.filter { $0.key != "territory" }.values.compactMap { $0["data"]?["id"]?.string }.first
        }
    }

    /// A stand-in serving the example catalog, and a folder for the campaign and its ledger.
    static func start() async throws -> (AppStoreConnectStandIn, CampaignFiles) {
        let standIn = try await AppStoreConnectStandIn.start(
            catalog: AppStoreConnectStandIn.exampleCatalog, today: CampaignFiles.today)
        do {
            return (standIn, try CampaignFiles.make())
        } catch {
            standIn.stop()
            throw error
        }
    }

    static func stop(_ standIn: AppStoreConnectStandIn, _ files: CampaignFiles) {
        standIn.stop()
        files.remove()
    }

    /// `--api-base-url STAND-IN` and the demo team key.
    static func key(_ standIn: AppStoreConnectStandIn) -> [String] {
        ["--api-base-url", standIn.baseURL] + Fixture.teamKey
    }

    @Test(
        "plan looks customer prices up once, records them, and plans from the ledger after; apply sends them (SQLite)",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func resolvesRecordsAndAppliesOnSQLite() async throws {
        try await resolvesRecordsAndApplies(ledger: .folder)
    }

    @Test("The same on a PostgreSQL ledger", .enabled(Fixture.reason) { await Fixture.enabled })
    func resolvesRecordsAndAppliesOnPostgreSQL() async throws {
        guard let ledger = CLIPostgres.ledger("postgres") else { return }
        try await resolvesRecordsAndApplies(ledger: ledger)
    }

    private func resolvesRecordsAndApplies(ledger: CampaignFiles.LedgerChoice) async throws {
        let (standIn, files) = try await Self.start()
        defer { Self.stop(standIn, files) }
        let campaign = try files.write(Self.campaign(), to: "prices.json")
        try #require(try await files.run("generate", campaign, ledger: ledger).status == 0)

        // Without a key nothing is looked up: the refusal names both ways on.
        let refused = try await files.run("plan", campaign, ledger: ledger)
        #expect(refused.status == 4, "\(refused)")
        #expect(refused.stderr.contains("or give this command that key, and it looks the price point up"), "\(refused)")

        let first = try await files.run("plan", campaign, Self.key(standIn), ledger: ledger)
        try #require(first.status == 0, "\(first)")
        #expect(try Self.pricePoints(ofPlan: first.stdout) == Self.expectedPricePoints)
        #expect(!first.stderr.contains("recorded none"), "\(first)")
        #expect(try await CodesLookupTests.gets(standIn, Self.pricePointList) == 3)  // one per territory
        CodesLookupTests.expectNoSecrets(first)

        // Recorded: a plan without a key (no look-up possible) is the same plan, and one with a key
        // looks nothing up.
        let again = try await files.run("plan", campaign, ledger: ledger)
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == first.stdout)
        let withKey = try await files.run("plan", campaign, Self.key(standIn), ledger: ledger)
        #expect(withKey.stdout == first.stdout)
        #expect(try await CodesLookupTests.gets(standIn, Self.pricePointList) == 3)

        // apply sends the recorded price points; App Store Connect (the stand-in) knows them.
        let apply = try await files.run(
            "apply", campaign, Self.key(standIn) + ["--format", "json"], ledger: ledger)
        #expect(apply.status == 0, "\(apply)")
        #expect(JSON.parse(apply.stdout)?["created"]?.int == 1, "\(apply)")
        let state = try #require(StandInState(JSON.parseLarge(try await standIn.stateData())))
        let offer = try #require(state.connectResources.first { $0.type == "subscriptionPromotionalOffers" })
        let sent = offer.prices.compactMap { state.priceText[$0]?.split(separator: " ").last.map(String.init) }
        #expect(sent.sorted() == Self.expectedPricePoints.sorted(), "\(state.raw)")
    }

    @Test(
        "apply looks up and records a customer price plan did not, and a later plan uses the recorded one",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func applyRecordsWhatItLooksUp() async throws {
        let (standIn, files) = try await Self.start()
        defer { Self.stop(standIn, files) }
        let campaign = try files.write(Self.campaign(), to: "prices.json")
        try #require(try await files.run("generate", campaign).status == 0)
        // --dry-run looks up but records nothing.
        let dryRun = try await files.run("apply", campaign, Self.key(standIn) + ["--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun)")
        #expect(try await files.run("plan", campaign).status == 4)
        let apply = try await files.run("apply", campaign, Self.key(standIn) + ["--format", "json"])
        #expect(apply.status == 0, "\(apply)")
        let plan = try await files.run("plan", campaign)
        #expect(plan.status == 0, "\(plan)")
        #expect(try Self.pricePoints(ofPlan: plan.stdout) == Self.expectedPricePoints)
    }

    @Test(
        "A customer price App Store Connect does not list is refused at its path, with the nearest prices",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func anUnlistedPriceIsRefusedAtItsPath() async throws {
        let (standIn, files) = try await Self.start()
        defer { Self.stop(standIn, files) }
        let campaign = try files.write(Self.campaign(usa: "2.98"), to: "prices.json")
        try #require(try await files.run("generate", campaign).status == 0)
        let plan = try await files.run("plan", campaign, Self.key(standIn))
        #expect(plan.status == 4, "\(plan)")
        #expect(plan.stdout.isEmpty)
        #expect(plan.stderr.contains("$.promotionalOffers[0].prices[0].customerPrice"), "\(plan)")
        #expect(
            plan.stderr.contains("subscription 6450000001 in USA has no price point with the customer price 2.98"),
            "\(plan)")
        #expect(plan.stderr.contains("the nearest are 2.99, 1.99, 3.99"), "\(plan)")
        // Nothing was recorded: the prices that were found are looked up again next time.
        #expect(try await files.run("plan", campaign).status == 4)
    }

    @Test(
        "Without a ledger that holds the campaign, plan looks prices up and says it recorded none",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func withoutTheCampaignInALedgerNothingIsRecorded() async throws {
        let (standIn, files) = try await Self.start()
        defer { Self.stop(standIn, files) }
        let campaign = try files.write(Self.campaign(), to: "prices.json")
        for ledger in [["--no-ledger"], []] {
            let plan = try await files.run(
                "plan", campaign, Self.key(standIn) + ledger, ledger: ledger.isEmpty ? .folder : .none)
            #expect(plan.status == 0, "\(plan)")
            #expect(try Self.pricePoints(ofPlan: plan.stdout) == Self.expectedPricePoints)
            #expect(plan.stderr.contains("looked up 3 customer price(s) in App Store Connect but recorded none"))
            #expect(
                plan.stderr.contains(ledger.isEmpty ? "the ledger does not hold campaign prices-2027" : "--no-ledger"),
                "\(plan)")
        }
        #expect(!FileManager.default.fileExists(atPath: files.ledger), "plan created a ledger")
    }

    @Test(
        "A subscription App Store Connect does not have is named with the prices that need it",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func anUnknownProductIsNamed() async throws {
        let (standIn, files) = try await Self.start()
        defer { Self.stop(standIn, files) }
        let campaign = try files.write(
            Self.campaign().replacingOccurrences(of: "6450000001", with: "6459999999"), to: "prices.json")
        let plan = try await files.run("plan", campaign, Self.key(standIn) + ["--no-ledger"], ledger: .none)
        #expect(plan.status == 4, "\(plan)")
        #expect(
            plan.stderr.contains(
                "$.promotionalOffers[0].prices[0].customerPrice, $.promotionalOffers[0].prices[1].customerPrice, "
                    + "$.promotionalOffers[0].prices[2].customerPrice: App Store Connect has no subscription with the "
                    + "id \"6459999999\""), "\(plan)")
        // An id that is not one path segment is refused before anything is sent.
        let gets = try await CodesLookupTests.gets(standIn, Self.pricePointList)
        let dots = try files.write(Self.campaign().replacingOccurrences(of: "6450000001", with: ".."), to: "dots.json")
        let refused = try await files.run("plan", dots, Self.key(standIn) + ["--no-ledger"], ledger: .none)
        #expect(refused.status == 4, "\(refused)")
        #expect(
            refused.stderr.contains("$.promotionalOffers[0].subscription.id: \"..\" is not an App Store Connect id"),
            "\(refused)")
        #expect(try await CodesLookupTests.gets(standIn, Self.pricePointList) == gets)
    }

    @Test(
        "An offer code's price of an in-app purchase is looked up in the in-app purchase's price points",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func anOfferCodePriceOfAnInAppPurchase() async throws {
        let (standIn, files) = try await Self.start()
        defer { Self.stop(standIn, files) }
        let offer = CampaignFiles.offer("Pro at 0.99", oneTimeUse: [CampaignFiles.oneTimeUse(count: 10)])
            .replacingOccurrences(
                of: #"[{"territory": "USA", "free": true}, {"territory": "GBR", "free": true}]"#,
                with: #"[{"territory": "USA", "customerPrice": "0.99"}, {"territory": "GBR", "customerPrice": "0.99"}]"#
            )
        let campaign = try files.write(CampaignFiles.campaign(name: "pro-2027", offers: [offer]), to: "pro.json")
        try #require(try await files.run("generate", campaign).status == 0)
        let plan = try await files.run("plan", campaign, Self.key(standIn))
        #expect(plan.status == 0, "\(plan)")
        #expect(
            try Self.pricePoints(ofPlan: plan.stdout) == [
                CodesLookupTests.pricePoint("6450000010", "USA", 0),
                CodesLookupTests.pricePoint("6450000010", "GBR", 0),
            ])
        #expect(try await CodesLookupTests.gets(standIn, "/v2/inAppPurchases/{id}/pricePoints") == 2)
        #expect(try await CodesLookupTests.gets(standIn, Self.pricePointList) == 0)
    }

    @Test(
        "Credentials decide: none in a checkout looks nothing up at Apple; part of them names what is missing",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func whichCredentialsLookUp() async throws {
        let (standIn, files) = try await Self.start()
        defer { Self.stop(standIn, files) }
        let campaign = try files.write(Self.campaign(), to: "prices.json")
        try FileManager.default.copyItem(
            at: CLI.packageRoot.appendingPathComponent("keys-example"),
            to: files.folder.url.appendingPathComponent("keys-example"))
        // A checkout's demo key goes to a stand-in the command names, never to Apple.
        let atApple = try await files.run("plan", campaign, ["--no-ledger"], ledger: .none)
        #expect(atApple.status == 4, "\(atApple)")
        #expect(atApple.stderr.contains("or give this command that key"), "\(atApple)")
        let atStandIn = try await files.run(
            "plan", campaign, ["--no-ledger"], ledger: .none,
            environment: ["OFFERKIT_CONNECT_API_URL": standIn.baseURL])
        #expect(atStandIn.status == 0, "\(atStandIn)")
        #expect(try Self.pricePoints(ofPlan: atStandIn.stdout) == Self.expectedPricePoints)
        // An issuer ID without a key: the key is named as missing, not skipped.
        let partial = try await files.run(
            "plan", campaign, ["--no-ledger", "--api-base-url", standIn.baseURL, "--issuer-id", DemoKey.issuerId],
            ledger: .none)
        #expect(partial.status != 0 && partial.stderr.contains("no key given"), "\(partial)")
        // A refused --out costs no look-up.
        _ = try files.write("kept", to: "plan.json")
        let gets = try await CodesLookupTests.gets(standIn, Self.pricePointList)
        let refused = try await files.run(
            "plan", campaign, Self.key(standIn) + ["--no-ledger", "--out", "plan.json"], ledger: .none)
        #expect(refused.status != 0, "\(refused)")
        #expect(try await CodesLookupTests.gets(standIn, Self.pricePointList) == gets)
    }
}
