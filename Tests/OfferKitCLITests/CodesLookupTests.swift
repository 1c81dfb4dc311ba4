import Foundation
import InteropSupport
import OfferSigning
import Testing

@testable import CLITestSupport

/// `offerkit codes lookup …` against the App Store Connect stand-in (`Tests/StandIns/`, `--catalog`): the
/// ids a campaign names, listed page by page with the key, pacing and retries of `codes apply`.
@Suite("offerkit codes lookup against the App Store Connect stand-in")
struct CodesLookupTests {
    typealias Fixture = ApplyFixture

    /// `offerkit codes lookup ARGUMENTS… --api-base-url STAND-IN` with the demo key (team key, unless
    /// `credentials` says otherwise); no run shows a token or key material.
    static func lookup(
        _ standIn: AppStoreConnectStandIn, _ arguments: [String], credentials: [String] = Fixture.teamKey,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CLIResult {
        let result = try await CLI.run(
            ["codes", "lookup"] + arguments + ["--api-base-url", standIn.baseURL] + credentials)
        expectNoSecrets(result, sourceLocation: sourceLocation)
        return result
    }

    /// No bearer token, `Authorization` header or key material in a run's output, as
    /// ``ApplyFixture/expectNoSecrets(_:sourceLocation:)`` checks, except that a look-up prints price point
    /// ids, which start with `eyJ` as a token does (base64url JSON): a token is two such parts and a dot.
    static func expectNoSecrets(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) {
        for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            #expect(
                text.range(of: #"eyJ[A-Za-z0-9_-]*\.eyJ"#, options: .regularExpression) == nil,
                "\(name) contains a token\n\(result)", sourceLocation: sourceLocation)
            for secret in ["Bearer", "BEGIN", "PRIVATE KEY", String(DemoKey.base64Body.dropFirst(48).prefix(24))] {
                #expect(!text.contains(secret), "\(name) contains \(secret)\n\(result)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The id the stand-in gives the price point `index` (from 0) of `territory` in its catalog: Apple's
    /// shape, base64url of `{"s": PRODUCT, "t": TERRITORY, "p": "10001" + index}`.
    static func pricePoint(_ product: String, _ territory: String, _ index: Int) -> String {
        Base64URL.encode(Data(#"{"s":"\#(product)","t":"\#(territory)","p":"\#(10001 + index)"}"#.utf8))
    }

    /// The stand-in's count of `GET TEMPLATE` requests.
    static func gets(_ standIn: AppStoreConnectStandIn, _ template: String) async throws -> Int {
        try await (standIn.state()["requests"] as? [String: Int])?["GET " + template] ?? 0
    }

    static func expectSchemaValidAnswers(
        _ standIn: AppStoreConnectStandIn, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let state = try await standIn.state()
        #expect(state["responseSchemaFailures"] as? Int == 0, "\(state)", sourceLocation: sourceLocation)
        #expect((state["responsesValidated"] as? Int ?? 0) > 0, sourceLocation: sourceLocation)
    }

    @Test(
        "Every look-up lists the catalog's ids: apps, subscription groups, subscriptions, in-app purchases, price points",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func everyLookup() async throws {
        let standIn = try await AppStoreConnectStandIn.start(catalog: AppStoreConnectStandIn.exampleCatalog)
        defer { standIn.stop() }

        let apps = try await Self.lookup(standIn, ["apps"])
        #expect(apps.status == 0, "\(apps)")
        #expect(
            apps.output == """
                1234567890\tcom.example.offerkit.demo\tOFFERKIT-DEMO\tOfferKit Demo
                1234567891\tcom.example.offerkit.lite\tOFFERKIT-LITE\tOfferKit Lite
                """, "\(apps)")

        let groups = try await Self.lookup(standIn, ["subscription-groups", "--app", "1234567890"])
        #expect(groups.status == 0 && groups.output == "21000001\tOfferKit Premium", "\(groups)")
        let none = try await Self.lookup(standIn, ["subscription-groups", "--app", "1234567891"])
        #expect(none.status == 0 && none.stdout.isEmpty, "\(none)")

        let byApp = try await Self.lookup(standIn, ["subscriptions", "--app", "1234567890"])
        #expect(
            byApp.output == """
                6450000001\tcom.example.offerkit.monthly\t21000001\tONE_MONTH\tPremium Monthly
                6450000002\tcom.example.offerkit.yearly\t21000001\tONE_YEAR\tPremium Yearly
                """, "\(byApp)")
        let byGroup = try await Self.lookup(standIn, ["subscriptions", "--subscription-group", "21000001"])
        #expect(byGroup.status == 0 && byGroup.output == byApp.output, "\(byGroup)")

        let purchases = try await Self.lookup(standIn, ["in-app-purchases", "--app", "1234567890"])
        #expect(
            purchases.output == """
                6450000009\tcom.example.offerkit.gems100\tCONSUMABLE\t100 Gems
                6450000010\tcom.example.offerkit.pro\tNON_CONSUMABLE\tPro
                6450000011\tcom.example.offerkit.seasonpass\tNON_RENEWING_SUBSCRIPTION\tSeason Pass
                """, "\(purchases)")

        let usa = try await Self.lookup(
            standIn, ["price-points", "--subscription", "6450000001", "--territory", "USA"])
        #expect(usa.status == 0, "\(usa)")
        let lines = usa.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 40, "\(usa)")
        #expect(lines.dropFirst(4).first == "\(Self.pricePoint("6450000001", "USA", 4))\tUSA\tUSD\t4.99\t3.49")

        let every = try await Self.lookup(standIn, ["price-points", "--in-app-purchase", "6450000009"])
        let territories = every.output.split(separator: "\n").map {
            $0.split(separator: "\t")[1...2].joined(separator: " ")
        }
        #expect(territories.count == 90, "\(every)")
        #expect(Set(territories) == ["USA USD", "GBR GBP", "JPN JPY"])
        let pricePointGets = try await Self.gets(standIn, "/v2/inAppPurchases/{id}/pricePoints")
        #expect(pricePointGets == 1, "90 price points in one page (limit 8000)")
        try await Self.expectSchemaValidAnswers(standIn)
    }

    @Test(
        "--format json: one object per look-up with the ids and the attributes a campaign needs",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func jsonShape() async throws {
        let standIn = try await AppStoreConnectStandIn.start(catalog: AppStoreConnectStandIn.exampleCatalog)
        defer { standIn.stop() }
        func json(_ arguments: [String]) async throws -> JSON {
            let result = try await Self.lookup(standIn, arguments + ["--format", "json"])
            #expect(result.status == 0, "\(result)")
            return try #require(result.json, "\(result)")
        }
        let apps = try await json(["apps"])
        #expect(
            apps["apps"]?.array?.first
                == JSON.parse(
                    #"{"id": "1234567890", "name": "OfferKit Demo", "bundleId": "com.example.offerkit.demo", "sku": "OFFERKIT-DEMO", "primaryLocale": "en-US"}"#
                ))
        let groups = try await json(["subscription-groups", "--app", "1234567890"])
        #expect(
            groups
                == JSON.parse(
                    #"{"app": "1234567890", "subscriptionGroups": [{"id": "21000001", "referenceName": "OfferKit Premium"}]}"#
                ))
        let subscriptions = try await json(["subscriptions", "--subscription-group", "21000001"])
        #expect(
            subscriptions["subscriptions"]?.array?.first
                == JSON.parse(
                    #"{"id": "6450000001", "productId": "com.example.offerkit.monthly", "name": "Premium Monthly", "state": "APPROVED", "subscriptionPeriod": "ONE_MONTH", "groupLevel": 2, "subscriptionGroup": "21000001"}"#
                ))
        let purchases = try await json(["in-app-purchases", "--app", "1234567890"])
        #expect(purchases["app"]?.string == "1234567890")
        #expect(
            purchases["inAppPurchases"]?.array?.last
                == JSON.parse(
                    #"{"id": "6450000011", "productId": "com.example.offerkit.seasonpass", "name": "Season Pass", "inAppPurchaseType": "NON_RENEWING_SUBSCRIPTION", "state": "READY_TO_SUBMIT"}"#
                ))
        let points = try await json(["price-points", "--subscription", "6450000002", "--territory", "JPN"])
        #expect(points["product"] == JSON.parse(#"{"type": "subscription", "id": "6450000002"}"#))
        #expect(points["territory"]?.string == "JPN")
        #expect(points["customerPrice"] == nil)
        #expect(points["pricePoints"]?.array?.count == 20)
        #expect(
            points["pricePoints"]?.array?.first
                == .object([
                    "id": .string(Self.pricePoint("6450000002", "JPN", 0)), "territory": .string("JPN"),
                    "currency": .string("JPY"), "customerPrice": .string("100"), "proceeds": .string("70"),
                ]))
    }

    @Test(
        "--customer-price finds the price point id of a customer price (as decimals); none matching is an error listing the nearest",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func customerPrice() async throws {
        let standIn = try await AppStoreConnectStandIn.start(catalog: AppStoreConnectStandIn.exampleCatalog)
        defer { standIn.stop() }
        let monthly = ["price-points", "--subscription", "6450000001"]
        for price in ["4.99", "4.990", "04.99"] {
            let found = try await Self.lookup(standIn, monthly + ["--territory", "USA", "--customer-price", price])
            #expect(found.status == 0 && found.output == Self.pricePoint("6450000001", "USA", 4), "\(found)")
        }
        // docs/offer-codes.md's walk-through from an empty app to a signed offer: 1.99 is the USA price
        // point the promotional offer of examples/subscription-offers.json names.
        let example = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: CLI.packageRoot.appendingPathComponent("examples/subscription-offers.json")))
                as? [String: Any])
        let promotional = try #require((example["promotionalOffers"] as? [[String: Any]])?.first)
        let usa = (promotional["prices"] as? [[String: Any]])?.first { $0["territory"] as? String == "USA" }
        let documented = try await Self.lookup(standIn, monthly + ["--territory", "USA", "--customer-price", "1.99"])
        #expect(documented.status == 0 && documented.output == usa?["pricePoint"] as? String, "\(documented)")
        let yen = try await Self.lookup(
            standIn,
            ["price-points", "--in-app-purchase", "6450000009", "--territory", "JPN", "--customer-price", "120"])
        #expect(yen.output == Self.pricePoint("6450000009", "JPN", 1), "\(yen)")
        let json = try await Self.lookup(
            standIn, monthly + ["--territory", "GBR", "--customer-price", "1.99", "--format", "json"])
        #expect(json.json?["customerPrice"]?.string == "1.99")
        #expect(
            json.json?["pricePoints"]
                == .array([
                    .object([
                        "id": .string(Self.pricePoint("6450000001", "GBR", 1)), "territory": .string("GBR"),
                        "currency": .string("GBP"), "customerPrice": .string("1.99"), "proceeds": .string("1.39"),
                    ])
                ]), "\(json)")

        let missing = try await Self.lookup(standIn, monthly + ["--territory", "USA", "--customer-price", "4.98"])
        #expect(missing.status == 4, "\(missing)")
        #expect(missing.stdout.isEmpty)
        #expect(
            missing.stderr
                == "offerkit: --subscription 6450000001: no price point in USA has the customer price 4.98 USD; "
                + "expected one of App Store Connect's 40 prices there (from 0.99 to 149.99); nearest: 1.99, 2.99, 3.99, 4.99, "
                + "5.99, 6.99 (without --customer-price the list shows each with its id)\n",
            "\(missing)")
        let nowhere = try await Self.lookup(standIn, monthly + ["--territory", "FRA", "--customer-price", "4.99"])
        #expect(nowhere.status == 4 && nowhere.stderr.contains("has no price points in FRA"), "\(nowhere)")

        for (arguments, message) in [
            (["--customer-price", "4.99"], "--customer-price needs --territory"),
            (["--territory", "USA", "--customer-price", "$4.99"], "--customer-price must be an amount such as 4.99"),
            (["--territory", "USA", "--customer-price", "4,99"], "--customer-price must be an amount such as 4.99"),
            (["--territory", "usa"], "--territory must be a territory's App Store Connect id"),
        ] {
            let refused = try await Self.lookup(standIn, monthly + arguments)
            #expect(refused.status == 2 && refused.stderr.contains(message), "\(refused)")
        }
        let gets = try await Self.gets(standIn, "/v1/subscriptions/{id}/pricePoints")
        #expect(gets == 7, "usage errors send nothing")
    }

    @Test(
        "Lists of several pages are read to the end through links.next (450 subscriptions: 3 pages of 200)",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func pagingAcrossPages() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let subscriptions = (0..<450).map { index in
            #"{"id": "\#(7_000_000_000 + index)", "productId": "com.example.tier\#(index)", "name": "Tier \#(index)", "state": "APPROVED", "subscriptionPeriod": "ONE_MONTH", "groupLevel": \#(index + 1)}"#
        }
        let apps = (0..<205).map { index in
            #"{"id": "\#(1_500_000_000 + index)", "name": "App \#(index)", "bundleId": "com.example.app\#(index)", "sku": "APP\#(index)", "primaryLocale": "en-US""#
                + (index == 0
                    ? #", "subscriptionGroups": [{"id": "22000001", "referenceName": "Tiers", "subscriptions": [\#(subscriptions.joined(separator: ","))]}]}"#
                    : "}")
        }
        let catalog = try files.write(#"{"apps": [\#(apps.joined(separator: ","))], "prices": {}}"#, to: "catalog.json")
        let standIn = try await AppStoreConnectStandIn.start(catalog: catalog)
        defer { standIn.stop() }

        let listed = try await Self.lookup(standIn, ["subscriptions", "--app", "1500000000", "--format", "json"])
        #expect(listed.status == 0, "\(listed)")
        let ids = listed.json?["subscriptions"]?.array?.compactMap { $0["id"]?.string } ?? []
        let expectedIDs: [String] = (0..<450).map { (index: Int) -> String in String(7_000_000_000 + index) }
        #expect(ids == expectedIDs)
        let pages = try await Self.gets(standIn, "/v1/subscriptionGroups/{id}/subscriptions")
        #expect(pages == 3)

        let allApps = try await Self.lookup(standIn, ["apps", "--format", "json"])
        #expect(allApps.json?["apps"]?.array?.count == 205, "\(allApps.stderr)")
        let appPages = try await Self.gets(standIn, "/v1/apps")
        #expect(appPages == 2)
        try await Self.expectSchemaValidAnswers(standIn)
    }

    @Test(
        "429 with Retry-After is waited out and the list read; a Retry-After longer than OfferKit waits stops with exit 5",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func rateLimitIsHonoured() async throws {
        let standIn = try await AppStoreConnectStandIn.start(catalog: AppStoreConnectStandIn.exampleCatalog)
        defer { standIn.stop() }
        try await standIn.setFaults(
            #"{"script": [{"method": "GET", "pathPrefix": "/v1/apps", "fault": "rate-limit", "retryAfter": 1, "times": 2}]}"#
        )
        let waited = try await Self.lookup(standIn, ["apps", "--verbose"])
        #expect(waited.status == 0, "\(waited)")
        #expect(waited.stdout.hasPrefix("1234567890\t"), "\(waited)")
        let requests = waited.stderr.split(separator: "\n").filter { $0.hasPrefix("offerkit: GET /v1/apps") }
        #expect(requests.count == 3 && requests.prefix(2).allSatisfy { $0.contains(" 429 ") }, "\(waited)")
        let faults = try await standIn.state()["faultsInjected"] as? [String: Int]
        #expect(faults == ["rate-limit": 2])

        try await standIn.setFaults(
            #"{"script": [{"method": "GET", "pathPrefix": "/v1/apps", "fault": "rate-limit", "retryAfter": 1000}]}"#)
        let stopped = try await Self.lookup(standIn, ["apps"])
        #expect(stopped.status == 5, "\(stopped)")
        #expect(stopped.stderr.contains("asks to wait 1000 s (Retry-After), longer than OfferKit waits"), "\(stopped)")
        #expect(stopped.stderr.hasPrefix("offerkit: App Store Connect: could not be reached: "), "\(stopped)")
        #expect(stopped.stderr.hasSuffix("A look-up changes nothing: run it again.\n"), "\(stopped)")
        #expect(!stopped.stderr.contains("ledger"), "a look-up records nothing: \(stopped)")
        #expect(stopped.stdout.isEmpty)

        // A spent hour (X-Rate-Limit: none of 10 left, one back every 6 minutes) stops at once, as apply does.
        try await standIn.setFaults("{}")
        try await standIn.configure(#"{"rateLimit": {"limit": 10, "used": 10}}"#)
        let spent = try await Self.lookup(standIn, ["apps"])
        #expect(spent.status == 5, "\(spent)")
        #expect(
            spent.stderr
                == "offerkit: App Store Connect: the API key's hourly limit of 10 requests is spent (X-Rate-Limit: "
                + "none left). A look-up changes nothing: run it again in about an hour (the limit is a rolling hour), "
                + "or with another key.\n", "\(spent)")
    }

    @Test(
        "A token App Store Connect refuses stops the look-up with exit 3 after one request, as for apply",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func badTokenIsRefused() async throws {
        let standIn = try await AppStoreConnectStandIn.start(catalog: AppStoreConnectStandIn.exampleCatalog)
        defer { standIn.stop() }
        let otherIssuer = [
            "--key-file", DemoKey.privateCopy, "--key-id", DemoKey.keyId, "--issuer-id",
            "00000000-0000-4000-8000-000000000000",
        ]
        for arguments in [["apps"], ["price-points", "--subscription", "6450000001", "--territory", "USA"]] {
            let refused = try await Self.lookup(standIn, arguments, credentials: otherIssuer)
            #expect(refused.status == 3, "\(refused)")
            #expect(refused.stderr.hasPrefix("offerkit: App Store Connect refused the API key (401)"), "\(refused)")
            #expect(refused.stdout.isEmpty)
        }
        let individual = try await Self.lookup(standIn, ["apps"], credentials: Fixture.individualKey)
        #expect(individual.status == 3, "a team key's stand-in refuses an individual key's token: \(individual)")
        let state = try await standIn.state()
        #expect(state["tokenFailures"] as? Int == 3, "\(state)")
        #expect(
            state["requests"] as? [String: Int] == ["GET /v1/apps": 2, "GET /v1/subscriptions/{id}/pricePoints": 1],
            "one request each, nothing more sent: \(state)")
    }

    @Test(
        "An id App Store Connect does not know is exit 4 naming the flag; flags that do not fit are exit 2",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func unknownIdsAndUsage() async throws {
        let standIn = try await AppStoreConnectStandIn.start(catalog: AppStoreConnectStandIn.exampleCatalog)
        defer { standIn.stop() }
        for (arguments, message) in [
            (["subscription-groups", "--app", "999"], "--app 999: App Store Connect has no app with this id"),
            (["in-app-purchases", "--app", "999"], "--app 999: App Store Connect has no app with this id"),
            (
                ["subscriptions", "--subscription-group", "999"],
                "--subscription-group 999: App Store Connect has no subscription group with this id"
            ),
            (
                ["price-points", "--subscription", "6450000009"],
                "--subscription 6450000009: App Store Connect has no subscription with this id"
            ),
            (
                ["price-points", "--in-app-purchase", "6450000001"],
                "--in-app-purchase 6450000001: App Store Connect has no in-app purchase with this id"
            ),
        ] {
            let missing = try await Self.lookup(standIn, arguments)
            #expect(missing.status == 4 && missing.stderr.hasPrefix("offerkit: \(message)"), "\(missing)")
        }
        for (arguments, message) in [
            (["subscriptions"], "give exactly one of --subscription-group and --app"),
            (["subscriptions", "--app", "1", "--subscription-group", "2"], "give exactly one of --subscription-group"),
            (["price-points"], "give exactly one of --subscription and --in-app-purchase"),
            (["price-points", "--subscription", "1", "--in-app-purchase", "2"], "give exactly one of --subscription"),
            (["in-app-purchases", "--app", "a/b"], "--app must be an App Store Connect id"),
            (["subscription-groups", "--app", ".."], "--app must be an App Store Connect id"),
            (["apps", "--timeout", "0"], "--timeout must be 1 to 600 seconds"),
        ] {
            let refused = try await Self.lookup(standIn, arguments)
            #expect(refused.status == 2 && refused.stderr.contains(message), "\(refused)")
        }
        let requests = try await standIn.state()["requests"] as? [String: Int] ?? [:]
        #expect(
            requests.values.reduce(0, +) == 5, "one request for each unknown id, none for usage errors: \(requests)")
    }
}
