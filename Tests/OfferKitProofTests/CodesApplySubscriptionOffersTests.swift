import Foundation
import InteropSupport
import OfferSigning
import Testing

@testable import CLITestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `offerkit codes apply` with promotional, introductory and win-back offers (issue 32): each created in
/// App Store Connect exactly once, under faults and SIGKILL, its id recorded, refusals mapped to campaign
/// paths, `--dry-run` and `status` showing them.
///
/// Judged by the App Store Connect stand-in's state (`Tests/StandIns/`), which validates every body
/// against Apple's schemas and counts repeated creates, through ``ApplyProof``'s checks.
@Suite("offerkit codes apply: promotional, introductory and win-back offers", .serialized)
struct CodesApplySubscriptionOffersTests {
    /// The example's request ids, in plan order.
    static let exampleRequests = [
        "promotional-offer-1", "introductory-offer-1-USA", "introductory-offer-1-GBR", "introductory-offer-1-JPN",
        "win-back-offer-1",
    ]

    // MARK: A clean run

    @Test(
        "A clean run creates each promotional, introductory and win-back offer once and records its id; a second run sends nothing (SQLite)",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func cleanRunOnSQLite() async throws {
        try await cleanRun(ledger: .folder)
    }

    @Test("The same clean run on a PostgreSQL ledger", .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func cleanRunOnPostgreSQL() async throws {
        guard let ledger = CLIPostgres.ledger("postgres") else { return }
        try await cleanRun(ledger: ledger)
    }

    private func cleanRun(ledger: CampaignFiles.LedgerChoice) async throws {
        let proof = try await ApplyProof(
            campaignText: ApplyProof.subscriptionOffersCampaign(name: "offers-clean"), ledger: ledger)
        defer { proof.stop() }
        try await #require(try proof.codes("generate").status == 0)
        let plan = try await proof.plan()
        #expect(plan.compactMap { $0["id"]?.string } == Self.exampleRequests)
        let dryRun = try await proof.codes("apply", ["--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun)")
        #expect(
            dryRun.stdout.contains(
                "  promotional-offer-1 (promotional offer \"comeback_half_3m\"): would be created"), "\(dryRun)")
        #expect(
            dryRun.stdout.contains(
                "  introductory-offer-1-GBR (introductory offer of subscription \"6450000001\" in GBR): would be created"
            ), "\(dryRun)")

        let first = try await proof.apply()
        try #require(first.status == 0, "\(first)")
        let summary = try #require(first.json, "\(first)")
        #expect(summary["planned"]?.int == 5)
        #expect(summary["created"]?.int == 5)
        #expect(summary["refused"]?.array?.isEmpty == true)
        try await proof.checkEndState(plan: plan)

        // The ledger says what each is, with App Store Connect's id.
        let status = try await proof.status()
        let recorded = status["appStoreConnect"]?.array ?? []
        #expect(
            recorded.map {
                "\($0["request"]?.string ?? "?") \($0["offerKind"]?.string ?? "?") \($0["offer"]?.string ?? "?")"
            }
                == [
                    "promotional-offer-1 promotionalOffer comeback_half_3m",
                    "introductory-offer-1-USA introductoryOffer 6450000001",
                    "introductory-offer-1-GBR introductoryOffer 6450000001",
                    "introductory-offer-1-JPN introductoryOffer 6450000001",
                    "win-back-offer-1 winBackOffer winback_3m_for_1",
                ])
        let text = try await proof.codes("status")
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("Promotional, introductory and win-back offers in App Store Connect:"), "\(text)")
        #expect(
            text.stdout.contains(
                "  win-back-offer-1 (win-back offer \"winback_3m_for_1\"): created (id "), "\(text)")

        let before = try await proof.state()
        let second = try await proof.apply()
        #expect(second.status == 0, "\(second)")
        #expect(second.json?["created"]?.int == 0)
        #expect(second.json?["alreadyThere"]?.int == 5)
        let after = try await proof.state()
        #expect(
            after.posts.count == before.posts.count, "the second run sent \(after.posts.dropFirst(before.posts.count))")
        let totals = try await proof.dryRunTotals()
        #expect(totals == (5, 0, 0, 0), "\(totals)")
    }

    // MARK: Faults

    @Test(
        "A create whose answer is lost (dropped, 5xx, timed out) is looked up, never sent twice; a 429 is sent again after its wait",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func faultsOnEveryKind() async throws {
        let proof = try await ApplyProof(
            campaignText: ApplyProof.subscriptionOffersCampaign(name: "offers-faults", extra: 1))
        defer { proof.stop() }
        try await #require(try proof.codes("generate").status == 0)
        let plan = try await proof.plan()
        // One fault of each kind on the first creates of each offer type, whatever the order of the run.
        try await proof.standIn.configure(#"{"slowSeconds": 1.25}"#)
        let script = [
            // Each on a request of its own: the n-th POST of the path (skip n - 1).
            ("/v1/subscriptionPromotionalOffers", "drop-after", 0),
            ("/v1/subscriptionPromotionalOffers", "server-error", 1),
            ("/v1/subscriptionIntroductoryOffers", "slow-before", 0),
            ("/v1/subscriptionIntroductoryOffers", "unavailable", 1), ("/v1/winBackOffers", "slow", 0),
            ("/v1/winBackOffers", "rate-limit", 1), ("/v1/winBackOffers", "drop-before", 2),
        ].map { path, kind, skip in
            #"{"method": "POST", "pathPrefix": "\#(path)", "skip": \#(skip), "times": 1, "fault": "\#(kind)", "retryAfter": 1}"#
        }
        try await proof.standIn.setFaults(#"{"script": [\#(script.joined(separator: ", "))]}"#)
        var runs: [CLIResult] = []
        while runs.last?.status != 0, runs.count < 6 {
            let run = try await proof.apply(["--timeout", "1"])
            runs.append(run)
            try #require([0, 5].contains(run.status), "\(run)")
        }
        try #require(runs.last?.status == 0, "no run finished: \(runs.last.map(\.description) ?? "")")
        let state = try await proof.state()
        let injected = state.raw["faultsInjected"]?.object ?? [:]
        for kind in ["drop-after", "server-error", "slow-before", "unavailable", "slow", "rate-limit", "drop-before"] {
            #expect((injected[kind]?.int ?? 0) >= 1, "no \(kind) fault was injected: \(injected)")
        }
        // Each kind's answers that were lost were settled by reading the subscription's list, not by a second POST.
        let requests = state.raw["requests"]?.object ?? [:]
        for list in ["promotionalOffers", "introductoryOffers", "winBackOffers"] {
            #expect(
                (requests["GET /v1/subscriptions/{id}/\(list)"]?.int ?? 0) >= 1,
                "\(list) was never looked up: \(requests)")
        }
        let rateLimited = state.posts.filter { $0.path == "/v1/winBackOffers" }.map(\.outcome)
        #expect(rateLimited.contains { $0.hasPrefix("fault rate-limit") }, "\(rateLimited)")
        try await proof.standIn.setFaults("{}")
        try await proof.checkEndState(plan: plan)
        let totals = try await proof.dryRunTotals()
        #expect(totals == (plan.count, 0, 0, 0), "\(totals)")
    }

    @Test(
        "After a lost answer, an offer of App Store Connect with the identifier but other terms is not taken for the campaign's: it stays unsettled (exit 5)",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func aLookalikeIsNotAdopted() async throws {
        let proof = try await ApplyProof(campaignText: ApplyProof.subscriptionOffersCampaign(name: "offers-lookalike"))
        defer { proof.stop() }
        try await #require(try proof.codes("generate").status == 0)
        let plan = try await proof.plan()
        // Made by hand in App Store Connect: the campaign's identifier, 2 periods instead of 3.
        let body = try #require(plan.first { $0["id"]?.string == "promotional-offer-1" }?["body"])
        let handMade = body.canonical.replacingOccurrences(of: #""numberOfPeriods":3"#, with: #""numberOfPeriods":2"#)
        try #require(handMade != body.canonical)
        let token = try ConnectAPITokenSigner(key: DemoKey.key, issuer: .team(issuerId: DemoKey.issuerId))
            .token(lifetime: 600).token
        let made = try await proof.standIn.request(
            "POST", "/v1/subscriptionPromotionalOffers", body: Data(handMade.utf8), bearer: token,
            headers: ["Content-Type": "application/json"])
        try #require(made.status == 201, "\(made.text)")
        // The campaign's POST is lost before App Store Connect reads it: the lookup finds the hand-made one.
        try await proof.standIn.setFaults(
            #"{"script": [{"method": "POST", "pathPrefix": "/v1/subscriptionPromotionalOffers", "times": 1, "fault": "drop-before"}]}"#
        )
        let run = try await proof.apply(["--timeout", "1"])
        #expect(run.status == 5, "\(run)")
        #expect(run.stderr.contains("whose terms differ from the campaign's"), "\(run)")
        let status = try await proof.status()
        let promotional = status["appStoreConnect"]?.array?.first { $0["request"]?.string == "promotional-offer-1" }
        #expect(promotional?["state"]?.string == "sent" && promotional?["id"] == .null, "\(status)")
    }

    @Test(
        "An identical offer already in App Store Connect (made by hand) is recorded when its create is refused with 409, not left failed",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func anIdenticalOfferIsAdopted() async throws {
        let proof = try await ApplyProof(campaignText: ApplyProof.subscriptionOffersCampaign(name: "offers-adopted"))
        defer { proof.stop() }
        try await #require(try proof.codes("generate").status == 0)
        let plan = try await proof.plan()
        let body = try #require(plan.first { $0["id"]?.string == "promotional-offer-1" }?["body"])
        let token = try ConnectAPITokenSigner(key: DemoKey.key, issuer: .team(issuerId: DemoKey.issuerId))
            .token(lifetime: 600).token
        let made = try await proof.standIn.request(
            "POST", "/v1/subscriptionPromotionalOffers", body: Data(body.canonical.utf8), bearer: token,
            headers: ["Content-Type": "application/json"])
        try #require(made.status == 201, "\(made.text)")
        let handMadeId = try #require(JSON.parse(made.text)?["data"]?["id"]?.string)
        let run = try await proof.apply()
        #expect(run.status == 0, "\(run)")
        #expect(run.json?["created"]?.int == 4 && run.json?["alreadyThere"]?.int == 1, "\(run)")
        #expect(run.json?["refused"]?.array?.isEmpty == true, "\(run)")
        let status = try await proof.status()
        let promotional = status["appStoreConnect"]?.array?.first { $0["request"]?.string == "promotional-offer-1" }
        #expect(promotional?["state"]?.string == "created" && promotional?["id"]?.string == handMadeId, "\(status)")
        #expect(try await proof.state().resources.count { $0.type == "subscriptionPromotionalOffers" } == 1)
    }

    // MARK: SIGKILL

    @Test(
        "Killed with SIGKILL at up to 8 points (at least 4) and run again, apply ends with each offer created once and recorded",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func killedAtRandomPoints() async throws {
        let proof = try await ApplyProof(
            campaignText: ApplyProof.subscriptionOffersCampaign(name: "offers-killed", extra: 4))
        defer { proof.stop() }
        try await #require(try proof.codes("generate").status == 0)
        let plan = try await proof.plan()
        #expect(plan.count == 13)
        try await proof.standIn.configure(#"{"slowSeconds": 0.15}"#)
        try await proof.standIn.setFaults(
            #"{"random": {"seed": 3, "probability": 1.0, "kinds": ["slow-before"], "retryAfter": 1}}"#)
        var random = SplitMix64(seed: 32)
        var kills = 0
        for round in 0..<8 {
            let existing = try await proof.state().connectResources.count
            guard existing < plan.count else { break }
            // One request at a time, each answered after 150 ms: a run takes about 2 s, and each kill lands in it.
            let run = try BackgroundRun(proof.applyCommand(["--verbose", "--parallel", "1"]), in: proof.files)
            let target = existing + 1
            _ = await run.poll(upTo: 100) { existing + ApplyProof.created(in: run.stderr) >= target }
            try await Task.sleep(for: .microseconds(Int.random(in: 0...150_000, using: &random)))
            let killed = await run.kill()
            guard killed else { continue }
            kills += 1
            // Right after the kill: whatever the stand-in holds is recorded created, or sent (looked up next).
            let state = try await proof.state()
            let status = try await proof.status()
            let (created, sent) = try proof.checkLedger(plan: plan, state: state, status: status)
            let totals = try await proof.dryRunTotals()
            #expect(totals.exist == created && totals.lookUp == sent && totals.retry == 0, "round \(round): \(totals)")
        }
        #expect(kills >= 4, "only \(kills) runs were killed before they finished")
        try await proof.standIn.setFaults("{}")
        let last = try await proof.apply()
        #expect(last.status == 0, "\(last)")
        try await proof.checkEndState(plan: plan)
        let totals = try await proof.dryRunTotals()
        #expect(totals == (plan.count, 0, 0, 0), "\(totals)")
    }

    // MARK: Refusals and changes

    @Test(
        "A refused offer is recorded failed with Apple's error at its campaign path (exit 4), the rest is created, and the next run sends only it",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func aRefusalNamesTheCampaignPath() async throws {
        let proof = try await ApplyProof(campaignText: ApplyProof.subscriptionOffersCampaign(name: "offers-refused"))
        defer { proof.stop() }
        try await #require(try proof.codes("generate").status == 0)
        // A week on in App Store Connect: the win-back offer's start (the campaign's today + 7 days) is past.
        try await proof.standIn.configure(#"{"today": "2027-01-25"}"#)
        let refused = try await proof.apply()
        #expect(refused.status == 4, "\(refused)")
        let summary = try #require(refused.json, "\(refused)")
        #expect(summary["created"]?.int == 4)
        let refusal = try #require(summary["refused"]?.array?.first, "\(refused)")
        #expect(refusal["resource"]?.string == "win-back-offer-1 (win-back offer \"winback_3m_for_1\")")
        #expect(
            refusal["errors"]?.array?.compactMap { $0["campaignPath"]?.string } == ["$.winBackOffers[0].startDate"],
            "\(refusal)")
        let status = try await proof.status()
        let winBack = status["appStoreConnect"]?.array?.first { $0["request"]?.string == "win-back-offer-1" }
        #expect(winBack?["state"]?.string == "failed" && winBack?["error"]?.string?.isEmpty == false, "\(status)")

        try await proof.standIn.configure(#"{"today": "2027-01-15"}"#)
        let before = try await proof.state().posts.count
        let again = try await proof.apply()
        #expect(again.status == 0, "\(again)")
        #expect(again.json?["created"]?.int == 1 && again.json?["alreadyThere"]?.int == 4, "\(again)")
        let state = try await proof.state()
        #expect(state.posts.count == before + 1)
        #expect(state.raw["repeatedCreates"]?.int == 0 && state.connectResources.count == 5)
        let totals = try await proof.dryRunTotals()
        #expect(totals == (5, 0, 0, 0), "\(totals)")
    }

    @Test(
        "Offers of a subscription named with another product's ID stop apply before anything is sent (exit 4)",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func anotherProductIdIsNotSent() async throws {
        let text = try ApplyProof.subscriptionOffersCampaign(name: "offers-product-id").replacingOccurrences(
            of: "com.example.offerkit.monthly", with: "com.example.offerkit.yearly")
        let proof = try await ApplyProof(campaignText: text)
        defer { proof.stop() }
        try await #require(try proof.codes("generate").status == 0)
        let run = try await proof.apply()
        Expect.failure(
            run, status: 4,
            mentioning: [
                "$.promotionalOffers[0].subscription.productId, $.introductoryOffers[0].subscription.productId, "
                    + "$.winBackOffers[0].subscription.productId are \"com.example.offerkit.yearly\", but App Store "
                    + "Connect's subscription \"6450000001\" has the product ID \"com.example.offerkit.monthly\"",
                "Nothing was created", "`offerkit codes lookup subscriptions` lists both",
            ])
        let state = try await proof.state()
        #expect(state.posts.isEmpty, "\(state.posts)")
        #expect(state.raw["requests"]?["GET /v1/subscriptions/{id}"]?.int == 1, "one read for the three offers")
    }

    @Test(
        "An applied promotional offer the campaign now plans differently stops apply before anything is sent (exit 4)",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func aChangedOfferIsNotSent() async throws {
        let proof = try await ApplyProof(campaignText: ApplyProof.subscriptionOffersCampaign(name: "offers-changed"))
        defer { proof.stop() }
        try await #require(try proof.codes("generate").status == 0)
        try await #require(try proof.apply().status == 0)
        let text = try String(contentsOfFile: proof.campaign, encoding: .utf8)
        let changed = text.replacingOccurrences(of: #""numberOfPeriods":3"#, with: #""numberOfPeriods":2"#)
        try #require(changed != text)
        try changed.write(toFile: proof.campaign, atomically: true, encoding: .utf8)
        let before = try await proof.state().posts.count
        let run = try await proof.apply()
        #expect(run.status == 4, "\(run)")
        #expect(
            run.stderr.contains("promotional-offer-1 (promotional offer \"comeback_half_3m\")")
                && run.stderr.contains("Nothing was sent"), "\(run)")
        #expect(try await proof.state().posts.count == before)
    }
}
