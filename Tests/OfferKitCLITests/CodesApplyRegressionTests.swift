import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// Bugs of `codes apply`, `codes fetch` and `codes deactivate --apply` found by ``CodesApplyTests``, each
/// pinned by the test that failed before its fix.
@Suite("offerkit codes apply: regressions")
struct CodesApplyRegressionTests {
    typealias Fixture = ApplyFixture

    /// Tokens were renewed three quarters of a lifetime after they were made, but a token's `iat` is rounded
    /// down to the second, so with `--token-lifetime 2` a token made at x.6 s expired at x+2 s and was still
    /// sent until x+2.1 s: App Store Connect refused it (401) and the run stopped with exit 3.
    @Test(
        "--token-lifetime 2 on a run of a few seconds: each token is renewed before it expires, none is refused",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func shortLivedTokensAreRenewedInTime() async throws {
        let fixture = try await Fixture(Fixture.customCodes(30))
        defer { fixture.close() }
        // 36,000 an hour, all used: the run goes at one request per 0.1 s, about 3 s for 31 requests.
        try await fixture.standIn.configure(#"{"rateLimit": {"limit": 36000, "used": 36000}}"#)
        try await fixture.waitForRateLimit(remaining: 2)
        let apply = try await fixture.connect("apply", ["--token-lifetime", "2"])
        #expect(apply.status == 0, "\(apply)")
        #expect(
            Fixture.line(apply, startingWith: "  created")
                == Fixture.counts(created: 31, alreadyThere: 0, refused: 0, skipped: 0, unfinished: 0), "\(apply)")
        let state = try await fixture.state()
        #expect(state["tokenFailures"] == .int(0), "\(String(describing: state["tokenFailureReasons"]))")
        #expect((state["tokensAccepted"]?.int ?? 0) >= 2, "the run renewed its token")
    }

    /// A token that expires on its way (here: the stand-in holds the request 3 s before it looks at
    /// a 2-second token) was answered `401` and the run stopped with exit 3, although the key was
    /// fine. A `401` to a token past its renewal time is now sent once more with a new token.
    @Test(
        "A token that expires in flight is renewed and the request sent again: the run finishes, nothing twice",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func aTokenThatExpiresInFlightIsRenewed() async throws {
        let fixture = try await Fixture(Fixture.customCodes(3))
        defer { fixture.close() }
        try await fixture.standIn.configure(#"{"slowSeconds": 3}"#)
        try await fixture.standIn.setFaults(#"{"script": [{"method": "POST", "fault": "slow-before", "times": 1}]}"#)
        let apply = try await fixture.connect("apply", ["--token-lifetime", "2"])
        #expect(apply.status == 0, "\(apply)")
        #expect(
            Fixture.line(apply, startingWith: "  created")
                == Fixture.counts(created: 4, alreadyThere: 0, refused: 0, skipped: 0, unfinished: 0), "\(apply)")
        let state = try await fixture.state()
        // At least the held request's token expired; a loaded machine may add another, never other reasons.
        let expired = state["tokenFailureReasons"]?["expired"]?.int ?? 0
        #expect(
            expired >= 1 && state["tokenFailures"]?.int == expired,
            "\(String(describing: state["tokenFailureReasons"]))")
        #expect(try await fixture.resources("inAppPurchaseOfferCodes").count == 1, "the offer was created once")
    }

    /// `deactivate --activate --apply` marks the offer active in the ledger before it asks App Store Connect
    /// (so the ledger's limit of active offers is checked first) and undid that when App Store Connect
    /// failed by marking it inactive, also when it had been active before: the ledger then said "inactive"
    /// of an offer that was on in App Store Connect.
    @Test(
        "--activate --apply of an active offer when App Store Connect fails: the ledger still says active",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func failedActivationOfAnActiveOfferKeepsTheLedger() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        await #expect(try fixture.connect("apply").status == 0)
        try await fixture.standIn.setFaults(
            #"{"script": [{"method": "PATCH", "fault": "rate-limit", "retryAfter": 1000, "times": 10}]}"#)
        let activate = try await fixture.connect("deactivate", ["--offer", "Press", "--activate", "--apply"])
        #expect(activate.status == 5, "\(activate)")
        #expect(activate.stderr.contains("App Store Connect could not be reached"), "\(activate)")
        await #expect(try fixture.ledgerActive("Press") == true, "the ledger is not changed")
        await #expect(
            try fixture.resources("inAppPurchaseOfferCodes").allSatisfy { $0["attributes"]?["active"]?.bool == true })

        // An inactive offer whose activation fails stays inactive.
        try await fixture.standIn.setFaults("{}")
        await #expect(try fixture.connect("deactivate", ["--offer", "Press", "--apply"]).status == 0)
        try await fixture.standIn.setFaults(
            #"{"script": [{"method": "PATCH", "fault": "rate-limit", "retryAfter": 1000, "times": 10}]}"#)
        await #expect(try fixture.connect("deactivate", ["--offer", "Press", "--activate", "--apply"]).status == 5)
        await #expect(try fixture.ledgerActive("Press") == false)
    }

    /// Error lines on stderr go through the key-material redaction, which took App Store Connect paths
    /// (`/v1/inAppPurchaseOfferCodes/6515548688`: 32+ letters and digits of both cases) for base64 and printed
    /// `App Store Connect refused PATCH <redacted: 38 characters>`.
    @Test(
        "An error names App Store Connect's path, not <redacted>; key material pasted into an option still is",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func errorsNameTheirPath() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        await #expect(try fixture.connect("apply").status == 0)
        let id = try await fixture.ledgerResources()["offer-1"]?["id"]?.string ?? "?"
        await #expect(try fixture.connect("deactivate", ["--offer", "Launch", "--apply"]).status == 0)
        let refused = try await fixture.connect("deactivate", ["--offer", "Launch", "--activate", "--apply"])
        #expect(refused.status == 4, "\(refused)")
        #expect(
            refused.stderr.hasPrefix(
                "offerkit: App Store Connect refused PATCH /v1/inAppPurchaseOfferCodes/\(id): 409 STATE_ERROR at "
                    + "/data/attributes/active: "), "\(refused)")
        #expect(!refused.stderr.contains("redacted"), "\(refused)")

        let keyLine = String(DemoKey.base64Body.dropFirst(48).prefix(64))
        let pasted = try await fixture.connect("apply", ["--parallel", keyLine])
        #expect(pasted.status == 2, "\(pasted)")
        #expect(pasted.stderr.contains("<redacted: 64 characters>"), "\(pasted)")
    }

    /// A run that stopped (here on a refused key) left the offers after the one it stopped at out of the
    /// summary: "7 planned … unfinished 5", two resources unaccounted for.
    @Test(
        "A stopped run counts every resource it did not finish: created + already there + refused + skipped + unfinished = planned",
        .enabled(Fixture.reason) { await Fixture.enabled })
    func stoppedRunCountsEveryResource() async throws {
        let fixture = try await Fixture()
        defer { fixture.close() }
        let wrongIssuer = ApplyFixture.wrongIssuerKey
        let text = try await fixture.connect("apply", credentials: wrongIssuer)
        #expect(text.status == 3, "\(text)")
        #expect(
            Fixture.line(text, startingWith: "  created")
                == Fixture.counts(created: 0, alreadyThere: 0, refused: 0, skipped: 0, unfinished: 7), "\(text)")
        let json = try await fixture.connect("apply", ["--format", "json"], credentials: wrongIssuer)
        #expect(json.status == 3, "\(json)")
        #expect(json.json?["planned"] == .int(7) && json.json?["unfinished"] == .int(7), "\(json)")
    }

    /// Without a ledger file (no `codes generate` yet), `apply` and `fetch` said "give --ledger", also when
    /// --ledger was given.
    @Test("apply and fetch with a ledger file that does not exist: exit 2, run codes generate (and apply) first")
    func missingLedgerSaysWhatToRunFirst() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = try files.write(Fixture.twoOffers, to: "campaign.json")
        for arguments in [Fixture.teamKey, ["--dry-run"]] {
            let apply = try await files.run("apply", campaign, arguments)
            Expect.failure(
                apply, status: 2,
                mentioning: [
                    "the ledger \(files.ledger) does not exist: run `offerkit codes generate` with the same ledger first"
                ])
            #expect(!apply.stderr.contains("give --ledger"), "\(apply)")
        }
        let fetch = try await files.run("fetch", campaign, Fixture.teamKey)
        Expect.failure(
            fetch, status: 2,
            mentioning: [
                "the ledger \(files.ledger) does not exist: codes fetch imports the codes of the batches "
                    + "`offerkit codes apply` created"
            ])
        #expect(!fetch.stderr.contains("give --ledger"), "\(fetch)")
        #expect(!FileManager.default.fileExists(atPath: files.ledger), "no ledger is created")
    }
}
