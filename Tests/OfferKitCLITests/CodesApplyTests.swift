import Foundation
import InteropSupport
import OfferSigning
import Testing

@testable import CLITestSupport

/// What a user of `offerkit codes apply`, `codes fetch`, `codes deactivate --apply` and `codes status`
/// sees, run as a subprocess against the local App Store Connect stand-in (`Tests/StandIns/`): exit codes,
/// stdout and stderr, the ledger (through `codes status`) and the stand-in's state. (The end-to-end,
/// fault and kill proofs are in `CodesApplyProofTests`.)
@Suite("offerkit codes apply, fetch, deactivate --apply against the App Store Connect stand-in")
struct CodesApplyTests {
    typealias Fixture = ApplyFixture

    // MARK: --dry-run

    @Test(
        "--dry-run before anything: every resource would be created and nothing is sent; after a run each exists with its id",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func dryRunBeforeAndAfterApply() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let before = try await fixture.connect("apply", ["--dry-run"])
        #expect(before.status == 0, "\(before)")
        #expect(
            before.output == """
                campaign apply-test: nothing is sent (--dry-run)
                  offer-1 (offer "Launch"): would be created
                  offer-1-one-time-use-1 (one-time-use batch): would be created
                  offer-1-one-time-use-2 (one-time-use batch): would be created
                  2 custom codes of offer "Launch": 2 would be created
                  offer-2 (offer "Press"): would be created
                  1 custom code of offer "Press": 1 would be created
                  total: 0 exist, 7 would be created, 0 looked up first, 0 sent again after a refusal
                """, "\(before)")
        let beforeJSON = try await fixture.connect("apply", ["--dry-run", "--format", "json"])
        #expect(beforeJSON.status == 0, "\(beforeJSON)")
        #expect(beforeJSON.json?["campaign"]?.string == "apply-test")
        let planned = beforeJSON.json?["resources"]?.array ?? []
        #expect(planned.compactMap { $0["request"]?.string } == Fixture.twoOffersRequests, "\(beforeJSON)")
        #expect(
            planned.map { $0["kind"]?.string ?? "?" } == [
                "offer", "oneTimeUse", "oneTimeUse", "customCode", "customCode", "offer", "customCode",
            ])
        for item in planned {
            #expect(item["action"]?.string == "create" && item["state"]?.string == "planned", "\(item)")
            #expect(item["id"] == nil, "\(item)")
        }
        let untouched = try await fixture.state()
        #expect(untouched["requests"] == .object([:]), "a dry run sends nothing")
        #expect(untouched["posts"] == .array([]))
        #expect(untouched["tokenFailures"] == .int(0))
        await #expect(try fixture.ledgerResources().isEmpty, "a dry run records nothing")

        let apply = try await fixture.connect("apply")
        #expect(apply.status == 0, "\(apply)")
        let lines = apply.output.split(separator: "\n").map(String.init)
        let expectedHead: [String] = [
            "campaign apply-test: 7 App Store Connect resources planned",
            Fixture.counts(created: 7, alreadyThere: 0, refused: 0, skipped: 0, unfinished: 0),
            "  one-time-use codes imported: \(Fixture.label("offer-1-one-time-use-1")): 5 codes",
            "  one-time-use codes imported: \(Fixture.label("offer-1-one-time-use-2")): 3 codes",
        ]
        #expect(Array(lines.prefix(4)) == expectedHead, "\(apply)")
        #expect(lines.count == 5, "\(apply)")
        let last = lines.last ?? ""
        #expect(
            last.hasPrefix("  11 requests in ")
                && last.hasSuffix(" s; rate limit: 3,489 of 3,500 requests left this hour"),
            "9 and a read of each of the 2 products: \(apply)")

        let ledger = try await fixture.ledgerResources()
        let ids = ledger.mapValues { $0["id"]?.string ?? "?" }
        #expect(ledger.values.allSatisfy { $0["state"]?.string == "created" }, "\(ledger)")
        let made =
            try await fixture.resources("inAppPurchaseOfferCodes")
            + fixture.resources(
                "inAppPurchaseOfferCodeOneTimeUseCodes") + fixture.resources("inAppPurchaseOfferCodeCustomCodes")
        #expect(Set(made.compactMap { $0["id"]?.string }) == Set(ids.values), "the ledger holds Apple's ids")

        let after = try await fixture.connect("apply", ["--dry-run"])
        #expect(after.status == 0, "\(after)")
        #expect(
            after.output == """
                campaign apply-test: nothing is sent (--dry-run)
                  offer-1 (offer "Launch"): exists (id \(ids["offer-1"] ?? "?"))
                  offer-1-one-time-use-1 (one-time-use batch): exists (id \(ids["offer-1-one-time-use-1"] ?? "?"))
                  offer-1-one-time-use-2 (one-time-use batch): exists (id \(ids["offer-1-one-time-use-2"] ?? "?"))
                  2 custom codes of offer "Launch": 2 exist
                  offer-2 (offer "Press"): exists (id \(ids["offer-2"] ?? "?"))
                  1 custom code of offer "Press": 1 exists
                  total: 7 exist, 0 would be created, 0 looked up first, 0 sent again after a refusal
                """, "\(after)")
        let afterJSON = try await fixture.connect("apply", ["--dry-run", "--format", "json"])
        for item in afterJSON.json?["resources"]?.array ?? [] {
            let request = item["request"]?.string ?? "?"
            #expect(item["action"]?.string == "none" && item["state"]?.string == "created", "\(item)")
            #expect(item["id"]?.string == ids[request], "\(item)")
        }
        await #expect(try fixture.requestCount() == 11, "the dry runs after the run sent nothing either")
    }

    @Test(
        "A resource whose outcome stayed unknown is shown `sent`, looked up first by --dry-run's account, and found by the next run",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func resourceLeftSentIsLookedUpFirst() async throws {
        let fixture = try await Fixture(
            CampaignFiles.campaign(
                name: "solo", offers: [CampaignFiles.offer("Solo", custom: [CampaignFiles.given(["SOLO27"])])]))
        defer { fixture.close() }
        // The custom code is created but its answer is lost; the lookup that follows is asked to wait longer than
        // OfferKit waits, so the run stops with the outcome unknown.
        try await fixture.standIn.setFaults(
            #"{"script": [{"method": "POST", "pathPrefix": "/v1/inAppPurchaseOfferCodeCustomCodes", "fault": "drop-after"}, "#
                + #"{"method": "GET", "pathPrefix": "/v1/inAppPurchaseOfferCodes/", "fault": "rate-limit", "retryAfter": 1000}]}"#
        )
        let stopped = try await fixture.connect("apply", ["--timeout", "2"])
        #expect(stopped.status == 5, "\(stopped)")
        #expect(
            Fixture.line(stopped, startingWith: "  created")
                == Fixture.counts(created: 1, alreadyThere: 0, refused: 0, skipped: 0, unfinished: 1), "\(stopped)")
        #expect(
            stopped.stdout.contains(
                "  stopped: App Store Connect could not be reached: App Store Connect's rate limit asks to wait 1000 s "
                    + "(Retry-After), longer than OfferKit waits; run again later."), "\(stopped)")
        #expect(stopped.stderr.contains("run the same command again to continue where it stopped"), "\(stopped)")

        let ledger = try await fixture.ledgerResources()
        #expect(ledger["offer-1"]?["state"]?.string == "created")
        #expect(ledger["offer-1-custom-code-1"]?["state"]?.string == "sent", "\(ledger)")
        #expect(ledger["offer-1-custom-code-1"]?["id"] == .null)
        let status = try await fixture.run("status")
        #expect(
            status.stdout.contains(
                "    custom codes: 1 sent\n      offer-1-custom-code-1 (SOLO27): sent: outcome unknown, looked up before "
                    + "it is sent again"), "\(status)")

        let offerId = ledger["offer-1"]?["id"]?.string ?? "?"
        let dryRun = try await fixture.connect("apply", ["--dry-run"])
        #expect(
            dryRun.output == """
                campaign solo: nothing is sent (--dry-run)
                  offer-1 (offer "Solo"): exists (id \(offerId))
                  1 custom code of offer "Solo": 1 outcome unknown: looked up in App Store Connect first, created only if missing
                    offer-1-custom-code-1: outcome unknown: looked up in App Store Connect first, created only if missing
                  total: 1 exist, 0 would be created, 1 looked up first, 0 sent again after a refusal
                """, "\(dryRun)")
        let dryRunJSON = try await fixture.connect("apply", ["--dry-run", "--format", "json"])
        let code = dryRunJSON.json?["resources"]?.array?.first { $0["request"]?.string == "offer-1-custom-code-1" }
        #expect(code?["action"]?.string == "look-up" && code?["state"]?.string == "sent", "\(dryRunJSON)")

        try await fixture.standIn.setFaults("{}")
        let rerun = try await fixture.connect("apply")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(
            Fixture.line(rerun, startingWith: "  created")
                == Fixture.counts(created: 0, alreadyThere: 2, refused: 0, skipped: 0, unfinished: 0), "\(rerun)")
        let state = try await fixture.state()
        #expect(state["creates"]?["inAppPurchaseOfferCodeCustomCodes"] == .int(1), "found, not sent again")
        #expect(state["repeatedCreates"] == .int(0))
        #expect(state["ruleFailures"] == .object([:]), "a second POST of the code would have been refused")
        #expect(state["posts"]?.array?.count == 2, "the rerun sent no POST")
        let codeId = try await fixture.resources("inAppPurchaseOfferCodeCustomCodes").first?["id"]?.string
        await #expect(try fixture.ledgerResources()["offer-1-custom-code-1"]?["id"]?.string == codeId)
    }

    // MARK: Apple refuses something

    @Test(
        "A batch App Store Connect refuses is named with its campaign path and Apple's code, recorded failed, and created by the next run",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func refusedBatchIsRecordedAndCreatedLater() async throws {
        // The stand-in's day is 5 days before the campaign's: the 6-month batch expires 5 days too late for it.
        let fixture = try await Fixture(standInToday: "2027-01-10")
        defer { fixture.close() }
        let apply = try await fixture.connect("apply")
        #expect(apply.status == 4, "\(apply)")
        let refusal =
            "\(Fixture.label("offer-1-one-time-use-2")): 409 ENTITY_ERROR.ATTRIBUTE.INVALID at "
            + "$.offers[0].oneTimeUseCodes[1].expirationDate: "
        let lines = apply.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 5, "\(apply)")
        #expect(
            Array(lines.prefix(2)) == [
                "campaign apply-test: 7 App Store Connect resources planned",
                Fixture.counts(created: 6, alreadyThere: 0, refused: 1, skipped: 0, unfinished: 0),
            ], "\(apply)")
        #expect(lines.count > 3 && lines[2].hasPrefix("  refused: " + refusal), "\(apply)")
        #expect(lines[2].contains("2027-07-15"), "Apple's detail is shown: \(apply)")
        #expect(
            lines.count > 3
                && lines[3] == "  one-time-use codes imported: \(Fixture.label("offer-1-one-time-use-1")): 5 codes")
        #expect(apply.stderr.contains("offerkit: App Store Connect refused " + refusal), "\(apply)")
        #expect(
            apply.stderr.hasSuffix(
                "offerkit: App Store Connect refused 1 resource(s); everything else is recorded. Fix what the messages "
                    + "name (the campaign paths say where), then run the same command again: it sends only what is not "
                    + "created yet.\n"), "\(apply)")

        let state = try await fixture.state()
        #expect(
            state["creates"]
                == .object([
                    "inAppPurchaseOfferCodes": .int(2), "inAppPurchaseOfferPrices": .int(4),
                    "inAppPurchaseOfferCodeOneTimeUseCodes": .int(1), "inAppPurchaseOfferCodeCustomCodes": .int(3),
                ]), "everything else is created")
        let ledger = try await fixture.ledgerResources()
        for request in Fixture.twoOffersRequests where request != "offer-1-one-time-use-2" {
            #expect(ledger[request]?["state"]?.string == "created", "\(request): \(ledger)")
        }
        let failed = ledger["offer-1-one-time-use-2"]
        #expect(failed?["state"]?.string == "failed")
        #expect(failed?["id"] == .null)
        #expect(
            failed?["error"]?.string?.hasPrefix(
                "409 ENTITY_ERROR.ATTRIBUTE.INVALID at $.offers[0].oneTimeUseCodes[1].expirationDate: ") == true,
            "\(String(describing: failed))")
        let status = try await fixture.run("status")
        #expect(
            status.stdout.contains(
                "    one-time-use 2 (offer-1-one-time-use-2): failed: 409 ENTITY_ERROR.ATTRIBUTE.INVALID at "
                    + "$.offers[0].oneTimeUseCodes[1].expirationDate: "), "\(status)")
        let dryRun = try await fixture.connect("apply", ["--dry-run"])
        #expect(
            dryRun.stdout.contains(
                "  offer-1-one-time-use-2 (one-time-use batch): refused before: sent again (409 ENTITY_ERROR"),
            "\(dryRun)")
        #expect(
            dryRun.stdout.contains(
                "  total: 6 exist, 0 would be created, 0 looked up first, 1 sent again after a refusal"),
            "\(dryRun)")

        // The rule passes once the stand-in's day is the campaign's: only the refused batch is sent.
        try await fixture.standIn.configure(#"{"today": "2027-01-15"}"#)
        let posts = try await fixture.state()["posts"]?.array?.count ?? 0
        let rerun = try await fixture.connect("apply")
        #expect(rerun.status == 0, "\(rerun)")
        let rerunLines = rerun.output.split(separator: "\n").map(String.init)
        #expect(
            Array(rerunLines.prefix(3)) == [
                "campaign apply-test: 7 App Store Connect resources planned",
                Fixture.counts(created: 1, alreadyThere: 6, refused: 0, skipped: 0, unfinished: 0),
                "  one-time-use codes imported: \(Fixture.label("offer-1-one-time-use-2")): 3 codes",
            ], "\(rerun)")
        let after = try await fixture.state()
        let newPosts = (after["posts"]?.array ?? []).dropFirst(posts)
        #expect(newPosts.map { $0["path"]?.string ?? "?" } == ["/v1/inAppPurchaseOfferCodeOneTimeUseCodes"])
        #expect(newPosts.first?["outcome"]?.string == "created")
        #expect(after["creates"]?["inAppPurchaseOfferCodeOneTimeUseCodes"] == .int(2))
        await #expect(try fixture.ledgerResources().values.allSatisfy { $0["state"]?.string == "created" })
    }

    @Test(
        "A refused offer: its codes are skipped and counted, the other offers are created; deactivate --apply refuses it",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func refusedOfferSkipsItsCodes() async throws {
        // "Press" is of a product the app (as the stand-in knows it) does not have.
        let fixture = try await Fixture(
            products: .init(inAppPurchases: ["6450000010"], productIds: ["6450000010": "com.example.offerkit.pro"]))
        defer { fixture.close() }
        let apply = try await fixture.connect("apply")
        #expect(apply.status == 4, "\(apply)")
        #expect(
            Fixture.line(apply, startingWith: "  created")
                == Fixture.counts(created: 5, alreadyThere: 0, refused: 1, skipped: 1, unfinished: 0), "\(apply)")
        let refusal =
            "\(Fixture.label("offer-2")): 409 ENTITY_ERROR.RELATIONSHIP.INVALID at $.offers[1].product.id: "
        #expect(
            Fixture.line(apply, startingWith: "  refused: ")?.hasPrefix("  refused: " + refusal) == true, "\(apply)")
        #expect(apply.stderr.contains("offerkit: App Store Connect refused " + refusal), "\(apply)")

        let state = try await fixture.state()
        #expect(state["creates"]?["inAppPurchaseOfferCodeCustomCodes"] == .int(2), "GAMMA27 is never sent")
        #expect(state["creates"]?["inAppPurchaseOfferCodes"] == .int(1))
        #expect(
            (state["posts"]?.array ?? []).filter { $0["path"]?.string == "/v1/inAppPurchaseOfferCodeCustomCodes" }.count
                == 2)
        let ledger = try await fixture.ledgerResources()
        #expect(ledger["offer-2"]?["state"]?.string == "failed")
        #expect(ledger["offer-2-custom-code-1"]?["state"]?.string == "planned", "skipped: not sent")
        #expect(ledger["offer-1-custom-code-2"]?["state"]?.string == "created")
        let status = try await fixture.run("status")
        #expect(
            status.stdout.contains(
                "    offer (offer-2): failed: 409 ENTITY_ERROR.RELATIONSHIP.INVALID at $.offers[1].product.id: "),
            "\(status)")
        #expect(status.stdout.contains("    custom codes: 1 planned\n"), "\(status)")

        let requests = try await fixture.requestCount()
        let deactivate = try await fixture.connect("deactivate", ["--offer", "Press", "--apply"])
        Expect.failure(
            deactivate, status: 4,
            mentioning: ["Offer \"Press\" of campaign \"apply-test\" was not created in App Store Connect"])
        await #expect(try fixture.requestCount() == requests)
        await #expect(try fixture.ledgerActive("Press") == true)
    }

    @Test(
        "A product ID that is not the product's in App Store Connect: exit 4, both named, nothing created",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func productIdOfAnotherProductIsRefused() async throws {
        // "Press" names in-app purchase 6450000011 with the product ID of 6450000010.
        let fixture = try await Fixture(
            products: .init(
                inAppPurchases: ["6450000010", "6450000011"],
                productIds: ["6450000010": "com.example.offerkit.pro", "6450000011": "com.example.offerkit.seasonpass"])
        )
        defer { fixture.close() }
        let apply = try await fixture.connect("apply")
        Expect.failure(
            apply, status: 4,
            mentioning: [
                "$.offers[1].product.productId is \"com.example.offerkit.pro\", but App Store Connect's in-app purchase "
                    + "\"6450000011\" has the product ID \"com.example.offerkit.seasonpass\"",
                "Nothing was created", "`offerkit codes lookup in-app-purchases` lists both",
            ])
        let state = try await fixture.state()
        #expect(state["posts"]?.array?.isEmpty == true, "nothing created: \(state["posts"] ?? .null)")
        #expect(state["requests"]?["GET /v2/inAppPurchases/{id}"]?.int == 2, "\(state["requests"] ?? .null)")
        await #expect(try fixture.ledgerResources().isEmpty, "nothing recorded either")

        // The campaign corrected: the run creates everything, and the next run reads no product again.
        let corrected = ApplyFixture.twoOffers.replacingOccurrences(
            of: #""id": "6450000011", "productId": "com.example.offerkit.pro""#,
            with: #""id": "6450000011", "productId": "com.example.offerkit.seasonpass""#)
        #expect(corrected != ApplyFixture.twoOffers)
        try fixture.files.write(corrected, to: "campaign.json")
        let again = try await fixture.connect("apply")
        #expect(again.status == 0, "\(again)")
        await #expect(try fixture.ledgerResources().values.allSatisfy { $0["state"]?.string == "created" })
        let reads = try await fixture.state()["requests"]?["GET /v2/inAppPurchases/{id}"]?.int
        let third = try await fixture.connect("apply")
        #expect(third.status == 0, "\(third)")
        #expect(try await fixture.state()["requests"]?["GET /v2/inAppPurchases/{id}"]?.int == reads)
    }

    @Test(
        "Every offer created, a code not: the next run reads no product, a refused key (exit 3) or no App Store Connect (exit 5) stops at the code's POST, and the run after finishes",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func offersCreatedThenTheirCodesCannotBeSent() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        // With --parallel 1 the custom codes go one after another: the third one's POST (offer-2's, both offers
        // created by then) stops the run.
        try await fixture.applyStopping(atPost: "/v1/inAppPurchaseOfferCodeCustomCodes", skip: 2, ["--parallel", "1"])
        let before = try await fixture.ledgerStates()
        #expect(before["offer-2"]?.hasPrefix("created ") == true, "\(before)")
        #expect(before["offer-2-custom-code-1"] == "planned -", "\(before)")
        #expect(before.values.filter { $0.hasPrefix("created ") }.count == 6, "\(before)")
        let requests = try await fixture.requestCount()

        let refused = try await fixture.connect("apply", credentials: ApplyFixture.wrongIssuerKey)
        #expect(refused.status == 3, "\(refused)")
        #expect(refused.stdout.contains("  stopped: App Store Connect refused the API key (401): "), "\(refused)")
        await #expect(try fixture.requestCount() == requests + 1, "the code's POST alone, no product read")
        let posts = try await fixture.state()["posts"]?.array ?? []
        #expect(posts.last?["path"]?.string == "/v1/inAppPurchaseOfferCodeCustomCodes", "\(posts)")

        let unreachable = try await fixture.connect("apply", ["--timeout", "1"], address: Fixture.deadAddress())
        #expect(unreachable.status == 5, "\(unreachable)")
        // 6 attempts to create the code, or (when the request's deadline comes before the refused connection is
        // reported, --timeout 1) 6 attempts of the lookup that an unknown outcome calls for; no product read.
        #expect(
            unreachable.stderr.hasPrefix("offerkit: App Store Connect could not be reached: 6 attempts ")
                && !unreachable.stderr.contains("/v2/inAppPurchases/"), "\(unreachable)")
        #expect(unreachable.stdout.contains("  stopped: App Store Connect could not be reached: "), "\(unreachable)")

        let rerun = try await fixture.connect("apply")
        #expect(rerun.status == 0, "\(rerun)")
        #expect(
            Fixture.line(rerun, startingWith: "  created")
                == Fixture.counts(created: 1, alreadyThere: 6, refused: 0, skipped: 0, unfinished: 0), "\(rerun)")
        let state = try await fixture.state()
        #expect(state["creates"]?["inAppPurchaseOfferCodeCustomCodes"] == .int(3), "each code once")
        #expect(state["repeatedCreates"] == .int(0))
        #expect(state["requests"]?["GET /v2/inAppPurchases/{id}"]?.int == 2, "only the first run read the products")
    }

    // MARK: Credentials

    @Test(
        "A wrong issuer ID: exit 3, App Store Connect refused the API key, nothing is created or sent after",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func wrongIssuerIdIsRefused() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let apply = try await fixture.connect("apply", credentials: ApplyFixture.wrongIssuerKey)
        #expect(apply.status == 3, "\(apply)")
        #expect(apply.stderr.hasPrefix("offerkit: App Store Connect refused the API key (401): "), "\(apply)")
        #expect(
            apply.stderr.contains(
                "Nothing more was sent; expected an App Store Connect API key with the App Manager or Admin role: "
                    + "check --key-id, --issuer-id (or --individual for an individual key) and that the key is not revoked."
            ),
            "\(apply)")
        #expect(apply.stdout.contains("  stopped: App Store Connect refused the API key (401): "), "\(apply)")
        let state = try await fixture.state()
        #expect(state["creates"] == .object([:]))
        #expect(state["tokenFailureReasons"] == .object(["iss": .int(1)]))
        #expect(state["posts"]?.array?.count == 0, "nothing was created")
        await #expect(try fixture.requestCount() == 1, "nothing more was sent after the first 401 (a product's read)")
        let ledger = try await fixture.ledgerResources()
        #expect(ledger.count == 7 && ledger.values.allSatisfy { $0["state"]?.string == "planned" }, "\(ledger)")
    }

    @Test(
        "An individual key (--individual) works against App Store Connect that expects one; a team token does not",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func individualKey() async throws {
        let fixture = try await Fixture(individual: true)
        defer { fixture.close() }
        let team = try await fixture.connect("apply")
        #expect(team.status == 3, "\(team)")
        #expect(team.stderr.contains("expected 'user' (individual key)"), "the stand-in's reason is shown: \(team)")
        let individual = try await fixture.connect("apply", credentials: Fixture.individualKey)
        #expect(individual.status == 0, "\(individual)")
        #expect(
            Fixture.line(individual, startingWith: "  created")
                == Fixture.counts(created: 7, alreadyThere: 0, refused: 0, skipped: 0, unfinished: 0), "\(individual)")
        let state = try await fixture.state()
        #expect(state["tokenFailures"] == .int(1), "only the team key's request")
        #expect(state["creates"]?["inAppPurchaseOfferCodeCustomCodes"] == .int(3))
    }

    // MARK: Secrets

    @Test(
        "--verbose prints one line per request (method, path, status, time) and never a token or key material",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func verboseLinesCarryNoSecrets() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        try await fixture.standIn.configure(#"{"valuesNotReady": 1}"#)
        let apply = try await fixture.connect("apply", ["--verbose"])
        #expect(apply.status == 0, "\(apply)")
        let pattern =
            /offerkit: (GET|POST) (\/v1\/[A-Za-z]+(\/[0-9]+\/values)?|\/v2\/inAppPurchases\/[0-9]+\?fields%5BinAppPurchases%5D=productId) (\d{3}) (\d+) ms/
        var requestLines: [(method: String, path: String, status: String)] = []
        for line in apply.stderr.split(separator: "\n").map(String.init) {
            if let match = line.wholeMatch(of: pattern) {
                requestLines.append((String(match.1), String(match.2), String(match.4)))
            } else {
                // Notes: values not ready yet, codes imported.
                #expect(
                    line.hasPrefix("offerkit: offer-1-one-time-use-")
                        && (line.hasSuffix(" one-time-use codes") || line.contains("has not produced the codes yet")),
                    "an unexpected stderr line: \(line)")
            }
        }
        let state = try await fixture.state()
        await #expect(
            Int64(requestLines.count) == (try fixture.requestCount()), "one line per request:\n\(apply.stderr)")
        #expect(requestLines.filter { $0.method == "POST" }.count == 7)
        #expect(
            requestLines.filter { $0.method == "GET" && $0.status == "404" }.count == 2, "values not ready once each")
        #expect(requestLines.filter { $0.path.hasSuffix("/values") && $0.status == "200" }.count == 2)
        #expect(
            requestLines.filter { $0.path.hasPrefix("/v2/inAppPurchases/") }.map(\.status) == ["200", "200"],
            "a read of each product before anything is created")
        #expect(state["valuesNotReadyAnswers"] == .int(2))

        // Error messages carry no secret either (ApplyFixture checks every run): a key App Store Connect refuses.
        let deactivate = try await fixture.connect(
            "deactivate", ["--offer", "Press", "--apply", "--verbose"],
            credentials: [
                "--key-file", DemoKey.privateCopy, "--key-id", "OTHERKEY12", "--issuer-id", DemoKey.issuerId,
            ])
        #expect(deactivate.status == 3, "\(deactivate)")
        #expect(deactivate.stderr.contains("offerkit: PATCH /v1/inAppPurchaseOfferCodes/"), "\(deactivate)")
        #expect(deactivate.stderr.contains("(stand-in: header kid is 'OTHERKEY12'"), "\(deactivate)")
    }

    // MARK: Addresses

    @Test("--api-base-url: plain http only on loopback (exit 2); https is accepted; a trailing / is fine")
    func addresses() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = try files.write(Fixture.twoOffers, to: "campaign.json")
        await #expect(try files.run("generate", campaign).status == 0)
        for command in [["apply"], ["fetch"]] {
            for address in ["http://example.com", "http://192.168.1.10:8080"] {
                let result = try await files.run(
                    command[0], campaign, ["--api-base-url", address] + Fixture.teamKey)
                Expect.failure(
                    result, status: 2,
                    mentioning: [
                        "--api-base-url \(address): plain http is refused except on the loopback interface (127.0.0.1, "
                            + "::1, localhost): the bearer token would travel in clear text; use https."
                    ])
            }
        }
        await Expect.failure(
            try files.run("apply", campaign, ["--api-base-url", "ftp://127.0.0.1"] + Fixture.teamKey), status: 2,
            mentioning: ["the scheme is ftp; expected https (or http on loopback)"])
        // https passes the address check: without a key the run stops at the credentials (exit 3), not at the address.
        let https = try await files.run("apply", campaign, ["--api-base-url", "https://api.example.test"])
        Expect.failure(https, status: 3, mentioning: ["no key given"])
        let plain = try await files.run("apply", campaign, ["--api-base-url", "http://example.com"])
        Expect.failure(plain, status: 2, mentioning: ["plain http is refused"])
    }

    @Test(
        "http://127.0.0.1:PORT/ (with a trailing slash) reaches App Store Connect's paths",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func loopbackAddressWithTrailingSlash() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let apply = try await fixture.connect("apply", address: fixture.standIn.baseURL + "/")
        #expect(apply.status == 0, "\(apply)")
        let requests = try await fixture.state()["requests"]?.object ?? [:]
        #expect(
            requests.keys.allSatisfy {
                $0.hasPrefix("POST /v1/") || $0.hasPrefix("GET /v1/") || $0.hasPrefix("GET /v2/")
            },
            "\(requests)")
        #expect(requests["POST /v1/inAppPurchaseOfferCodes"]?.int == 2, "\(requests)")
    }

    // MARK: Rate limits

    @Test(
        "A rate limit used up to the last request: the run goes at the rate the hour gives back, with no 429, and says what is left",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func rateLimitNearlyUsedUp() async throws {
        let fixture = try await Fixture(Fixture.customCodes(19))
        defer { fixture.close() }
        // 36,000 an hour, all used: the window gives one back every 0.1 s.
        try await fixture.standIn.configure(#"{"rateLimit": {"limit": 36000, "used": 36000}}"#)
        try await fixture.waitForRateLimit(remaining: 2)
        let apply = try await fixture.connect("apply")
        #expect(apply.status == 0, "\(apply)")
        #expect(
            Fixture.line(apply, startingWith: "  created")
                == Fixture.counts(created: 20, alreadyThere: 0, refused: 0, skipped: 0, unfinished: 0), "\(apply)")
        let last = apply.output.split(separator: "\n").last.map(String.init) ?? ""
        let headroom = last.wholeMatch(
            of: /\ \ 21 requests in \d+\.\d s; rate limit: (\d+) of 36,000 requests left this hour/)
        #expect(headroom != nil, "\(apply)")
        #expect((headroom.flatMap { Int($0.1) } ?? 99) <= 10, "\(apply)")
        let state = try await fixture.state()
        #expect(state["rateLimited"] == .int(0), "\(apply)")
        #expect(state["creates"]?["inAppPurchaseOfferCodeCustomCodes"] == .int(19))
    }

    @Test(
        "A 429 with Retry-After on the first POST: the run waits, goes on and creates nothing twice",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func retryAfterOnTheFirstPost() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        try await fixture.standIn.setFaults(
            #"{"script": [{"method": "POST", "fault": "rate-limit", "retryAfter": 1}]}"#)
        let apply = try await fixture.connect("apply", ["--verbose"])
        #expect(apply.status == 0, "\(apply)")
        #expect(
            Fixture.line(apply, startingWith: "  created")
                == Fixture.counts(created: 7, alreadyThere: 0, refused: 0, skipped: 0, unfinished: 0), "\(apply)")
        #expect(apply.stdout.contains("  12 requests in "), "one more request than without the 429: \(apply)")
        let requestLines = apply.stderr.split(separator: "\n").filter { $0.hasPrefix("offerkit: POST") }
        #expect(requestLines.first?.hasPrefix("offerkit: POST /v1/inAppPurchaseOfferCodes 429 ") == true, "\(apply)")
        #expect(requestLines.dropFirst().first?.hasPrefix("offerkit: POST /v1/inAppPurchaseOfferCodes 201 ") == true)
        let state = try await fixture.state()
        #expect(state["faultsInjected"] == .object(["rate-limit": .int(1)]))
        #expect(state["posts"]?[0]?["outcome"]?.string == "fault rate-limit: not processed")
        #expect(
            state["creates"]
                == .object([
                    "inAppPurchaseOfferCodes": .int(2), "inAppPurchaseOfferPrices": .int(4),
                    "inAppPurchaseOfferCodeOneTimeUseCodes": .int(2), "inAppPurchaseOfferCodeCustomCodes": .int(3),
                ]))
        #expect(state["repeatedCreates"] == .int(0))
    }

    // MARK: codes fetch

    @Test(
        "Codes Apple has not produced: apply lists them with the fetch command; codes fetch imports them later, once",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func fetchImportsCodesAppleProducesLater() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        try await fixture.standIn.configure(#"{"valuesNotReady": 1000}"#)
        let apply = try await fixture.connect("apply", ["--values-wait", "0"])
        #expect(apply.status == 0, "\(apply)")
        #expect(
            Fixture.line(apply, startingWith: "  one-time-use codes not produced")
                == "  one-time-use codes not produced by App Store Connect yet: "
                + "\(Fixture.label("offer-1-one-time-use-1")), \(Fixture.label("offer-1-one-time-use-2")); run later: "
                + "offerkit codes fetch \(fixture.campaign) --ledger \(fixture.files.ledger) (with the same credentials)",
            "\(apply)")
        #expect(!apply.stdout.contains("imported"), "\(apply)")
        let pending =
            try await fixture.status()["offers"]?.array?.first { $0["offer"]?.string == "Launch" }?["batches"]?
            .array?.filter { $0["kind"]?.string == "oneTimeUse" } ?? []
        #expect(pending.count == 2)
        #expect(pending.allSatisfy { $0["awaitingImport"]?.bool == true && $0["storedCodes"]?.int == 0 }, "\(pending)")
        let textStatus = try await fixture.run("status")
        #expect(textStatus.stdout.contains("not imported yet"), "\(textStatus)")

        try await fixture.standIn.configure(#"{"valuesNotReady": 0}"#)
        let fetch = try await fixture.connect("fetch")
        #expect(fetch.status == 0, "\(fetch)")
        let fetchLines = fetch.output.split(separator: "\n").map(String.init)
        let importedLines: [String] = [
            "  one-time-use codes imported: \(Fixture.label("offer-1-one-time-use-1")): 5 codes",
            "  one-time-use codes imported: \(Fixture.label("offer-1-one-time-use-2")): 3 codes",
        ]
        #expect(fetchLines.filter { $0.hasPrefix("  one-time-use codes") } == importedLines, "\(fetch)")
        #expect(fetchLines.last?.hasPrefix("  2 requests in ") == true, "\(fetch)")

        // The export holds exactly Apple's codes (as the stand-in gives them) and the custom codes.
        let token = try ConnectAPITokenSigner(key: DemoKey.key, issuer: .team(issuerId: DemoKey.issuerId))
            .token(lifetime: 600).token
        var appleCodes: [String] = []
        for batch in try await fixture.resources("inAppPurchaseOfferCodeOneTimeUseCodes") {
            let answer = try await fixture.standIn.request(
                "GET", "/v1/inAppPurchaseOfferCodeOneTimeUseCodes/\(batch["id"]?.string ?? "?")/values", bearer: token)
            #expect(answer.status == 200)
            appleCodes += answer.text.split(separator: "\n").map(String.init)
        }
        #expect(appleCodes.count == 8)
        let export = try await fixture.run("export", ["--offer", "Launch"])
        #expect(export.status == 0, "\(export)")
        #expect(
            Set(CampaignFiles.codes(ofCSV: export.stdout)) == Set(appleCodes + ["ALPHA27", "BETA27"]), "\(export)")
        let imported =
            try await fixture.status()["offers"]?.array?.first { $0["offer"]?.string == "Launch" }?["batches"]?
            .array?.filter { $0["kind"]?.string == "oneTimeUse" } ?? []
        #expect(imported.map { $0["storedCodes"]?.int } == [5, 3])

        let requests = try await fixture.requestCount()
        let again = try await fixture.connect("fetch")
        #expect(again.status == 0, "\(again)")
        #expect(!again.stdout.contains("one-time-use codes"), "nothing left to fetch: \(again)")
        #expect(again.output.split(separator: "\n").last?.hasPrefix("  0 requests in ") == true, "\(again)")
        await #expect(try fixture.requestCount() == requests)
    }

    // MARK: codes deactivate --apply

    @Test(
        "deactivate --apply switches the offer off in App Store Connect and in the ledger; Apple refuses to switch it on again",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func deactivateAndActivateWithApply() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        await #expect(try fixture.connect("apply").status == 0)
        let launchId = try await fixture.ledgerResources()["offer-1"]?["id"]?.string ?? "?"
        func appleActive(_ id: String) async throws -> Bool? {
            try await fixture.resources("inAppPurchaseOfferCodes").first { $0["id"]?.string == id }?["attributes"]?[
                "active"]?
                .bool
        }

        let off = try await fixture.connect("deactivate", ["--offer", "Launch", "--apply"])
        #expect(off.status == 0, "\(off)")
        #expect(off.output == "Launch: inactive (App Store Connect id \(launchId) and the ledger)")
        await #expect(try appleActive(launchId) == false)
        await #expect(try fixture.ledgerActive("Launch") == false)
        await #expect(try fixture.run("status").stdout.contains("Offer \"Launch\": inactive"))

        // The stand-in reads "deactivation may not be reversible" strictly: 409 STATE_ERROR, nothing changes.
        let on = try await fixture.connect("deactivate", ["--offer", "Launch", "--activate", "--apply"])
        #expect(on.status == 4, "\(on)")
        #expect(on.stdout.isEmpty)
        #expect(on.stderr.contains("409 STATE_ERROR at /data/attributes/active"), "\(on)")
        #expect(on.stderr.hasSuffix("Nothing was changed.\n"), "\(on)")
        await #expect(try appleActive(launchId) == false)
        await #expect(try fixture.ledgerActive("Launch") == false, "the ledger follows App Store Connect")

        // Switching on an offer that is on: App Store Connect accepts it and both stay on.
        let pressId = try await fixture.ledgerResources()["offer-2"]?["id"]?.string ?? "?"
        let pressOn = try await fixture.connect("deactivate", ["--offer", "Press", "--activate", "--apply"])
        #expect(pressOn.status == 0, "\(pressOn)")
        #expect(pressOn.output == "Press: active (App Store Connect id \(pressId) and the ledger)")
        await #expect(try appleActive(pressId) == true)
        await #expect(try fixture.ledgerActive("Press") == true)
        let patches = await (try fixture.state()["posts"]?.array ?? []).filter { $0["method"]?.string == "PATCH" }
        #expect(patches.map { $0["status"]?.int } == [200, 409, 200])
    }

    @Test(
        "deactivate --apply of an offer apply never created: exit 4, nothing is sent",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func deactivateOfAnOfferNeverCreated() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let result = try await fixture.connect("deactivate", ["--offer", "Launch", "--apply"])
        Expect.failure(
            result, status: 4,
            mentioning: [
                "Offer \"Launch\" of campaign \"apply-test\" was not created in App Store Connect by `offerkit codes "
                    + "apply` (the ledger has no id for it)"
            ])
        await #expect(try fixture.requestCount() == 0)
        await #expect(try fixture.ledgerActive("Launch") == true)
    }

    @Test(
        "deactivate --apply when App Store Connect fails: the ledger is not changed; after 5xx that pass, both are",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func failedPatchLeavesTheLedgerAlone() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        await #expect(try fixture.connect("apply").status == 0)
        // A wait longer than OfferKit's: the PATCH is given up (exit 5) without being processed.
        try await fixture.standIn.setFaults(
            #"{"script": [{"method": "PATCH", "fault": "rate-limit", "retryAfter": 1000, "times": 10}]}"#)
        let refused = try await fixture.connect("deactivate", ["--offer", "Launch", "--apply"])
        #expect(refused.status == 5, "\(refused)")
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("offerkit: App Store Connect could not be reached: "), "\(refused)")
        await #expect(try fixture.ledgerActive("Launch") == true, "the ledger is not changed")
        await #expect(
            try fixture.resources("inAppPurchaseOfferCodes").allSatisfy { $0["attributes"]?["active"]?.bool == true })

        // Two 500s, then the PATCH passes: retried, then recorded.
        try await fixture.standIn.setFaults(#"{"script": [{"method": "PATCH", "fault": "server-error", "times": 2}]}"#)
        let retried = try await fixture.connect("deactivate", ["--offer", "Launch", "--apply"])
        #expect(retried.status == 0, "\(retried)")
        await #expect(try fixture.ledgerActive("Launch") == false)
        let patches = await (try fixture.state()["posts"]?.array ?? []).filter { $0["method"]?.string == "PATCH" }
        #expect(
            patches.map { $0["outcome"]?.string ?? "?" } == [
                "fault rate-limit: not processed", "fault server-error: not processed",
                "fault server-error: not processed", "updated",
            ])
    }

    // MARK: Exit 5

    @Test(
        "App Store Connect unreachable (the stand-in stopped): exit 5, the ledger keeps what succeeded, the next run finishes",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func unreachableThenRerun() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        // A first run that stops part-way, at the second offer's POST.
        try await fixture.applyStopping(atPost: "/v1/inAppPurchaseOfferCodes", skip: 1)
        let before = try await fixture.ledgerStates()
        #expect(before["offer-1"]?.hasPrefix("created ") == true, "\(before)")
        #expect(before["offer-2"] == "planned -", "\(before)")

        let unreachable = try await fixture.connect("apply", ["--timeout", "1"], address: Fixture.deadAddress())
        #expect(unreachable.status == 5, "\(unreachable)")
        // 6 attempts to read the product of offer-2, the offer still to create (a run whose offers all exist
        // reads none: offersCreatedThenTheirCodesCannotBeSent).
        #expect(
            unreachable.stderr.hasPrefix(
                "offerkit: App Store Connect could not be reached: 6 attempts of GET /v2/inAppPurchases/6450000011 "),
            "\(unreachable)")
        #expect(
            unreachable.stderr.hasSuffix(
                "Everything that succeeded is recorded in the ledger; run the same command again to continue where it "
                    + "stopped.\n"), "\(unreachable)")
        #expect(unreachable.stdout.contains("  stopped: App Store Connect could not be reached: "), "\(unreachable)")
        let existing = before.values.filter { $0.hasPrefix("created ") }.count
        #expect(
            Fixture.line(unreachable, startingWith: "  created")
                == Fixture.counts(
                    created: 0, alreadyThere: existing, refused: 0, skipped: 0, unfinished: 7 - existing),
            "what exists is counted as there: \(unreachable)")
        // The ledger keeps everything that succeeded, and no more: the rest is planned, or sent (outcome unknown).
        let after = try await fixture.ledgerStates()
        #expect(after.keys.sorted() == before.keys.sorted())
        for (request, state) in before {
            if state.hasPrefix("created ") {
                #expect(after[request] == state, "\(request)")
            } else {
                #expect(after[request] == "planned -" || after[request] == "sent -", "\(request): \(after)")
            }
        }

        let rerun = try await fixture.connect("apply")
        #expect(rerun.status == 0, "\(rerun)")
        let created = before.values.filter { $0.hasPrefix("created ") }.count
        #expect(
            Fixture.line(rerun, startingWith: "  created")
                == Fixture.counts(
                    created: 7 - created, alreadyThere: created, refused: 0, skipped: 0, unfinished: 0), "\(rerun)")
        let state = try await fixture.state()
        #expect(
            state["creates"]
                == .object([
                    "inAppPurchaseOfferCodes": .int(2), "inAppPurchaseOfferPrices": .int(4),
                    "inAppPurchaseOfferCodeOneTimeUseCodes": .int(2), "inAppPurchaseOfferCodeCustomCodes": .int(3),
                ]), "each resource once")
        #expect(state["repeatedCreates"] == .int(0))
        #expect(state["ruleFailures"] == .object([:]))
        await #expect(try fixture.ledgerResources().values.allSatisfy { $0["state"]?.string == "created" })
    }

    // MARK: Before codes generate

    @Test("codes apply and fetch before codes generate: exit 2, run codes generate first")
    func applyBeforeGenerate() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = try files.write(Fixture.twoOffers, to: "campaign.json")
        let other = try files.write(
            CampaignFiles.campaign(
                name: "other", offers: [CampaignFiles.offer("Other", custom: [CampaignFiles.given(["OTHER27"])])]),
            to: "other.json")
        await #expect(try files.run("generate", other).status == 0)
        let apply = try await files.run("apply", campaign, Fixture.teamKey)
        Expect.failure(
            apply, status: 2,
            mentioning: [
                "campaign apply-test is not recorded in the ledger (0 of 4 batches): run `offerkit codes generate` with "
                    + "the same ledger first"
            ])
        let dryRun = try await files.run("apply", campaign, ["--dry-run"])
        Expect.failure(dryRun, status: 2, mentioning: ["run `offerkit codes generate`"])
    }
}
