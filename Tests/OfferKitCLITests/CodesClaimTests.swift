import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit codes claim`: one code for one recipient, recorded, the same again on a retry; on
/// SQLite and on PostgreSQL.
@Suite("offerkit codes claim")
struct CodesClaimTests {
    @Test(arguments: HandOut.backends)
    func aClaimIsIdempotentAndExits4WithCountsWhenNoneIsLeft(backend: String) async throws {
        guard let handOut = try await HandOut.make(backend) else { return }
        defer { handOut.remove() }
        let first = try await handOut.claim(HandOut.personal, "alice")
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first)")
        #expect(
            first.stdout.split(separator: "\n").map { String($0) } == [
                "Code for alice, offer \"Personal\" (production, does not expire): PERS1",
                "Redeem: " + CampaignFiles.link("PERS1"), "Handed out to alice now.",
            ], "\(first)")
        let again = try await handOut.claim(HandOut.personal, "alice")
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.hasPrefix("Code for alice, offer \"Personal\" (production, does not expire): PERS1\n"))
        #expect(again.stdout.contains("Already handed out to alice ("), "\(again)")
        #expect(again.stdout.contains(", by claim): the same code as before"), "\(again)")
        let bob = try await handOut.claim(HandOut.personal, "bob")
        #expect(bob.stdout.contains(": PERS2\n"), "\(bob)")

        let carol = try await handOut.claim(HandOut.personal, "carol")
        Expect.failure(carol, status: 4, mentioning: ["No unassigned production code", "\"Personal\"", "2 of 2"])
        await #expect(try handOut.claim(HandOut.personal, "bob").stdout.contains(": PERS2\n"), "bob keeps his code")

        await Expect.failure(
            try handOut.claim(HandOut.personal, "alice", ["--environment", "sandbox"]), status: 4,
            mentioning: ["no sandbox codes", "no sandbox batch"])
        await Expect.failure(try handOut.claim(HandOut.later, "alice"), status: 4, mentioning: ["not imported yet"])
        await Expect.failure(
            try handOut.claim("Nope", "alice"), status: 2, mentioning: ["--offer", "\"Nope\"", "Gems"])
        await Expect.failure(try handOut.claim(HandOut.personal, ""), status: 2, mentioning: ["--recipient", "empty"])
        await Expect.failure(
            try handOut.claim(HandOut.personal, String(repeating: "x", count: 257)), status: 2,
            mentioning: ["--recipient", "257 bytes"])

        let deactivated = try await handOut.run("deactivate", ["--offer", HandOut.personal])
        #expect(deactivated.status == 0, "\(deactivated)")
        await Expect.failure(
            try handOut.claim(HandOut.personal, "dave"), status: 4, mentioning: ["inactive", "Personal"])
    }

    @Test(arguments: HandOut.backends)
    func jsonHasEveryField(backend: String) async throws {
        guard let handOut = try await HandOut.make(backend) else { return }
        defer { handOut.remove() }
        let before = Date()
        let result = try await handOut.claim(HandOut.gems, "user-1", ["--format", "json"])
        #expect(result.status == 0, "\(result)")
        let claim = try #require(JSON.parse(result.stdout), "\(result)")
        #expect(
            claim.keys == [
                "code", "url", "campaign", "offer", "recipient", "kind", "batch", "redemptionLimit", "shared",
                "expirationDate", "environment", "channel", "assignedAt", "new",
            ], "\(claim)")
        #expect(claim["code"] == .string("GEMA1111"))
        #expect(claim["url"] == .string(CampaignFiles.link("GEMA1111")))
        #expect(claim["campaign"] == .string("handout") && claim["offer"] == .string(HandOut.gems))
        #expect(claim["recipient"] == .string("user-1") && claim["kind"] == .string("oneTimeUse"))
        #expect(claim["batch"] == .int(1) && claim["redemptionLimit"] == .int(1) && claim["shared"] == .bool(false))
        #expect(claim["expirationDate"] == .string("2027-02-14") && claim["environment"] == .string("PRODUCTION"))
        #expect(claim["channel"] == .string("claim") && claim["new"] == .bool(true))
        let assignedAt = try #require(HandOut.date(claim["assignedAt"]?.string), "\(claim)")
        #expect(assignedAt > before.addingTimeInterval(-1) && assignedAt < Date().addingTimeInterval(1))
        #expect(claim["assignedAt"]?.string?.hasSuffix("Z") == true)

        let again = try await #require(
            JSON.parse(try handOut.claim(HandOut.gems, "user-1", ["--format", "json"]).stdout))
        #expect(again["new"] == .bool(false) && again["code"] == claim["code"])
        let againAt = try #require(HandOut.date(again["assignedAt"]?.string))
        #expect(abs(againAt.timeIntervalSince(assignedAt)) < 0.002)

        // Whoever got a code in an export gets it again from a claim.
        let export = try await handOut.export(HandOut.gems, "user-2\n")
        #expect(export.status == 0, "\(export)")
        let exported = try await #require(
            JSON.parse(try handOut.claim(HandOut.gems, "user-2", ["--format", "json"]).stdout))
        #expect(exported["code"] == .string("GEMB2222") && exported["channel"] == .string("export"))
        #expect(exported["new"] == .bool(false))

        let custom = try await #require(
            JSON.parse(try handOut.claim(HandOut.personal, "user-1", ["--format", "json"]).stdout))
        #expect(custom["kind"] == .string("custom") && custom["expirationDate"] == .null, "\(custom)")
    }

    @Test(arguments: HandOut.backends)
    func aSharedCodeIsTheCampaignsCodeUpToItsRedemptionLimit(backend: String) async throws {
        guard let handOut = try await HandOut.make(backend) else { return }
        defer { handOut.remove() }
        for recipient in ["a", "b"] {
            let result = try await handOut.claim(HandOut.shared, recipient)
            #expect(result.status == 0, "\(result)")
            #expect(
                result.stdout.hasPrefix(
                    "The campaign's code for offer \"Shared, 3 times\" (production, expires 2027-03-16), shared by "
                        + "everyone who gets it (up to 3 redemptions): SHARE27\n"), "\(result)")
            #expect(!result.stdout.contains("Code for") && !result.stdout.lowercased().contains("your code"))
        }
        let json = try await #require(JSON.parse(try handOut.claim(HandOut.shared, "a", ["--format", "json"]).stdout))
        #expect(json["shared"] == .bool(true) && json["new"] == .bool(false) && json["redemptionLimit"] == .int(3))
        let export = try await handOut.export(HandOut.shared, "c\na\n")
        #expect(HandOut.rows(export).map { [$0[0], $0[4]] } == [["SHARE27", "c"], ["SHARE27", "a"]], "\(export)")
        await Expect.failure(
            try handOut.claim(HandOut.shared, "d"), status: 4, mentioning: ["No unassigned production code", "3 of 3"])
    }
}
