import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit codes export --recipients` hands out codes through the ledger, `--reprint` shows
/// them again, and `status` adds them up; on SQLite and on PostgreSQL.
@Suite("offerkit codes export --recipients, --reprint and status")
struct CodesHandOutTests {
    static let csvHeader = ["code", "url", "offer", "expirationDate", "recipient", "assignedAt"]

    @Test(arguments: HandOut.backends)
    func twoListsNeverShareAOneTimeUseCodeAndTheSameListGetsTheSameCodes(backend: String) async throws {
        guard let handOut = try await HandOut.make(backend) else { return }
        defer { handOut.remove() }
        let first = try await handOut.export(HandOut.gems, "ann\nben,ja\ncid\n")
        #expect(first.status == 0, "\(first)")
        #expect(CampaignFiles.csvRecords(first.stdout).first == Self.csvHeader)
        let firstRows = HandOut.rows(first)
        #expect(firstRows.map { $0[4] } == ["ann", "ben", "cid"])
        #expect(firstRows.map { $0[0] } == Array(HandOut.gemCodes.prefix(3)))
        #expect(firstRows.allSatisfy { $0[1] == CampaignFiles.link($0[0]) && $0[2] == HandOut.gems })
        #expect(first.stderr.contains("3 recipients got a code now"), "\(first)")

        let second = try await handOut.export(HandOut.gems, "recipient,name\ndan,Dan\neve,Eve\n")
        #expect(second.status == 0, "\(second)")
        let secondRows = HandOut.rows(second)
        #expect(secondRows.map { $0[4] } == ["dan", "eve"])
        #expect(secondRows.map { $0[0] } == ["GEMD4444", "GEME5555"])
        #expect(Set(secondRows.map { $0[0] }).isDisjoint(with: firstRows.map { $0[0] }))

        let again = try await handOut.export(HandOut.gems, "ann\nben,ja\ncid\n")
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == first.stdout, "a retry prints the same codes, handed out at the same time")
        #expect(again.stderr.contains("0 recipients got a code now, 3 already held theirs"), "\(again)")

        let mixed = try await handOut.export(HandOut.gems, "recipient\neve\nfay\n", ["--format", "json"])
        let rows = try #require(JSON.parse(mixed.stdout)?.array, "\(mixed)")
        #expect(rows.map { $0["recipient"]?.string } == ["eve", "fay"])
        #expect(rows.map { $0["code"]?.string } == ["GEME5555", "GEMF6666"])

        // Every gem code is handed out: another list gets nothing, and nothing is recorded.
        let full = try await handOut.export(HandOut.gems, "gus\nhal\n")
        Expect.failure(full, status: 4, mentioning: ["0 unassigned production codes left", "2 of the 2 recipients"])
        let everything = try await handOut.run("export", ["--reprint", "--offer", HandOut.gems, "--format", "json"])
        let all = try #require(JSON.parse(everything.stdout)?.array, "\(everything)")
        #expect(all.compactMap { $0["recipient"]?.string } == ["ann", "ben", "cid", "dan", "eve", "fay"])
        #expect(all.compactMap { $0["code"]?.string } == HandOut.gemCodes, "each code once, to one recipient")
    }

    @Test(arguments: HandOut.backends)
    func reprintShowsWhatWasHandedOutWithoutHandingOutMore(backend: String) async throws {
        guard let handOut = try await HandOut.make(backend) else { return }
        defer { handOut.remove() }
        await #expect(try handOut.export(HandOut.gems, "ann\nben\n").status == 0)
        await #expect(try handOut.claim(HandOut.gems, "cid").status == 0)
        let some = try await handOut.export(HandOut.gems, "ben\nzed\nann\n", ["--reprint"])
        #expect(some.status == 0, "\(some)")
        #expect(HandOut.rows(some).map { [$0[4], $0[0]] } == [["ben", "GEMB2222"], ["ann", "GEMA1111"]])
        #expect(some.stderr.contains("recipient \"zed\" holds no code of offer \"Gems\" (production)"), "\(some)")
        #expect(some.stderr.contains("printed 2 codes; 1 recipient without one"), "\(some)")
        await Expect.failure(
            try handOut.export(HandOut.gems, "zed\nyan\n", ["--reprint"]), status: 4,
            mentioning: ["none of the 2 recipients", "--reprint"])
        await #expect(
            try handOut.status(of: HandOut.gems)["totals"]?[0]?["assigned"] == .int(3), "reprinting hands out none")

        let all = try await handOut.run("export", ["--reprint", "--format", "messages", "--language", "ko"])
        #expect(all.status == 0, "\(all)")
        let records = CampaignFiles.csvRecords(all.stdout)
        #expect(records.first == ["name", "code", "language", "message", "recipient", "assignedAt"])
        let rows = Array(records.dropFirst())
        #expect(rows.map { $0[4] } == ["ann", "ben", "cid"] && rows.map { $0[1] } == Array(HandOut.gemCodes.prefix(3)))
        #expect(rows.allSatisfy { $0[0].isEmpty && $0[2] == "ko" && $0[3].contains($0[1]) }, "\(rows)")
        #expect(rows.allSatisfy { HandOut.date($0[5]) != nil }, "\(rows)")
        await Expect.failure(
            try handOut.run("export", ["--reprint", "--offer", HandOut.personal]), status: 4,
            mentioning: ["\"Personal\"", "handed out yet", "--recipients", "claim"])
    }

    @Test(arguments: HandOut.backends)
    func duplicateRecipientIdsAreRefusedNamingBothLines(backend: String) async throws {
        guard let handOut = try await HandOut.make(backend) else { return }
        defer { handOut.remove() }
        await Expect.failure(
            try handOut.export(HandOut.gems, "ann\nben\nann,ja\n"), status: 4,
            mentioning: ["line 3", "\"ann\"", "line 1"])
        await Expect.failure(
            try handOut.export(HandOut.gems, "recipient,name\nu1,Ann\nu2,Ann\n\nu1,Ben\n"), status: 4,
            mentioning: ["line 5", "\"u1\"", "line 2"])
        await #expect(try handOut.status(of: HandOut.gems)["totals"]?[0]?["assigned"] == .int(0))
    }

    @Test(arguments: HandOut.backends)
    func tooFewCodesRecordNothingAndWriteNothing(backend: String) async throws {
        guard let handOut = try await HandOut.make(backend) else { return }
        defer { handOut.remove() }
        let out = handOut.files.file("messages.csv")
        let refused = try await handOut.export(HandOut.personal, "a\nb\nc\n", ["--format", "messages", "--out", out])
        Expect.failure(refused, status: 4, mentioning: ["2 unassigned production codes left", "3 of the 3 recipients"])
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(!handOut.files.listing().contains { $0.hasSuffix(".tmp") }, "\(handOut.files.listing())")
        await Expect.failure(
            try handOut.export(HandOut.personal, "a\nb\nc\n"), status: 4, mentioning: ["nothing written"])
        await #expect(try handOut.status(of: HandOut.personal)["totals"]?[0]?["assigned"] == .int(0))

        let written = try await handOut.export(HandOut.personal, "a\nb\n", ["--format", "messages", "--out", out])
        #expect(written.status == 0 && written.stdout.isEmpty, "\(written)")
        let rows = Array(CampaignFiles.csvRecords(handOut.files.text(of: out) ?? "").dropFirst())
        #expect(rows.map { [$0[0], $0[1], $0[4]] } == [["a", "PERS1", "a"], ["b", "PERS2", "b"]])
    }

    @Test func recipientsNeedOneOfferOfOneEnvironment() async throws {
        guard let handOut = try await HandOut.make("sqlite") else { return }
        defer { handOut.remove() }
        let people = try handOut.files.write("ann\n", to: "people.txt")
        await Expect.failure(
            try handOut.run("export", ["--recipients", people]), status: 2,
            mentioning: ["--recipients needs one offer", "--offer", "\"Personal\"", "\"Gems\""])
        await Expect.failure(
            try handOut.export(HandOut.gems, "ann\n", ["--environment", "all"]), status: 2,
            mentioning: ["--environment all", "--recipients"])
        await Expect.failure(
            try handOut.export(HandOut.gems, "ann\n", ["--environment", "sandbox"]), status: 4,
            mentioning: ["no sandbox codes"])
        await Expect.failure(
            try handOut.export(HandOut.gems, "\n\n"), status: 4, mentioning: ["recipient list is empty"])

        // A campaign of one offer needs no --offer.
        let solo = try handOut.files.write(
            CampaignFiles.campaign(
                name: "solo", offers: [CampaignFiles.offer("Solo", custom: [CampaignFiles.given(["SOLO1", "SOLO2"])])]),
            to: "solo.json")
        await #expect(try handOut.files.run("generate", solo, ledger: handOut.ledger).status == 0)
        let result = try await handOut.files.run("export", solo, ["--recipients", people], ledger: handOut.ledger)
        #expect(HandOut.rows(result).map { [$0[0], $0[4]] } == [["SOLO1", "ann"]], "\(result)")
    }

    @Test(arguments: HandOut.backends)
    func statusAddsUpAfterExportsAndClaims(backend: String) async throws {
        guard let handOut = try await HandOut.make(backend) else { return }
        defer { handOut.remove() }
        await #expect(try handOut.export(HandOut.gems, "a\nb\nc\n").status == 0)
        for (offer, recipient) in [
            (HandOut.gems, "d"), (HandOut.personal, "a"), (HandOut.shared, "a"), (HandOut.shared, "b"),
        ] {
            let claim = try await handOut.claim(offer, recipient)
            #expect(claim.status == 0, "\(claim)")
        }
        let status = try await handOut.status()
        #expect(status["campaign"] == .string("handout") && status["appAppleId"] == .string(CampaignFiles.appAppleId))
        // Offers of the file that the ledger lacks are a note on stderr, not a member: the JSON is the ledger's.
        #expect(status["today"] == .string(CampaignFiles.today) && status["unrecordedOffers"] == nil)
        let offers = try #require(status["offers"]?.array)
        #expect(offers.map { $0["offer"]?.string } == [HandOut.personal, HandOut.shared, HandOut.gems, HandOut.later])
        #expect(
            offers.allSatisfy { $0["active"] == .bool(true) && $0.keys == ["offer", "active", "batches", "totals"] })
        let gems = try #require(offers[2]["batches"]?[0])
        #expect(
            gems
                == .object([
                    "kind": .string("oneTimeUse"), "batch": .int(1), "environment": .string("PRODUCTION"),
                    "quarter": .string("2027-Q1"), "expirationDate": .string("2027-02-14"), "expired": .bool(false),
                    "redemptionLimit": .int(1), "shared": .bool(false), "codeCount": .int(6), "storedCodes": .int(6),
                    "awaitingImport": .bool(false), "assigned": .int(4), "left": .int(2),
                ]), "\(gems)")
        #expect(
            offers[2]["totals"]
                == .array([
                    .object([
                        "environment": .string("PRODUCTION"), "codeCount": .int(6), "storedCodes": .int(6),
                        "assigned": .int(4), "left": .int(2),
                    ])
                ]))
        let shared = try #require(offers[1]["batches"]?[0])
        #expect(shared["shared"] == .bool(true) && shared["assigned"] == .int(2) && shared["left"] == .int(1))
        let later = try #require(offers[3]["batches"]?[0])
        #expect(
            later["awaitingImport"] == .bool(true) && later["storedCodes"] == .int(0) && later["codeCount"] == .int(5))
        #expect(later["left"] == .int(0) && later["assigned"] == .int(0))
        // Every batch adds up: the codes it holds (times their redemption limit) are handed out or left.
        for batch in offers.flatMap({ $0["batches"]?.array ?? [] }) {
            let stored = (batch["storedCodes"]?.int ?? -1) * (batch["redemptionLimit"]?.int ?? -1)
            #expect(stored == (batch["assigned"]?.int ?? 0) + (batch["left"]?.int ?? 0), "\(batch)")
        }
        // And what status counts is what the ledger says was handed out.
        let handedOut = try await #require(
            JSON.parse(try handOut.run("export", ["--reprint", "--format", "json"]).stdout)?.array)
        for offer in offers {
            let assigned = offer["totals"]?.array?.reduce(Int64(0)) { $0 + ($1["assigned"]?.int ?? 0) }
            #expect(Int64(handedOut.filter { $0["offer"] == offer["offer"] }.count) == assigned, "\(offer)")
        }
        let expectedUsage: [String: JSON] = [
            "quarter": .string("2027-Q1"), "productionCodes": .int(2 + 3 + 6 + 5),
            "productionLimit": .int(1_000_000), "sandboxCodes": .int(0), "sandboxLimit": .int(10_000),
            "activeOffers": .int(4), "activeOfferLimit": .int(10),
        ]
        #expect(status["usage"] == JSON.object(expectedUsage), "\(String(describing: status["usage"]))")

        let text = try await handOut.run("status")
        #expect(text.status == 0, "\(text)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Campaign handout (app \(CampaignFiles.appAppleId)), as of \(CampaignFiles.today)")
        #expect(lines.contains("Offer \"Gems\": active"))
        #expect(
            lines.contains {
                $0.split(separator: " ", omittingEmptySubsequences: true)
                    == ["one-time-use", "1", "PRODUCTION", "2027-Q1", "2027-02-14", "1", "6", "6", "4", "2"]
            }, "\(text)")
        #expect(lines.contains { $0.contains("one-time-use 1") && $0.contains("not imported yet") }, "\(text)")
        #expect(
            lines.last == "App \(CampaignFiles.appAppleId) in 2027-Q1: 16 of 1,000,000 production codes, 0 of 10,000 "
                + "sandbox codes, 4 of 10 active offers", "\(text)")

        // Later, the gem codes have expired: marked, and no longer counted as left to hand out.
        let march = try await CLI.run(
            ["codes", "status", handOut.campaign, "--today", "2027-03-01", "--format", "json"]
                + Self.ledgerArguments(handOut), cwd: handOut.files.folder.url)
        let expired = try #require(JSON.parse(march.stdout), "\(march)")
        let gemsInMarch = expired["offers"]?[2]
        #expect(
            gemsInMarch?["batches"]?[0]?["expired"] == .bool(true) && gemsInMarch?["totals"]?[0]?["left"] == .int(0))
    }

    @Test(arguments: HandOut.backends)
    func statusOfACampaignTheLedgerDoesNotHoldExits4(backend: String) async throws {
        guard let handOut = try await HandOut.make(backend) else { return }
        defer { handOut.remove() }
        let other = try handOut.files.write(
            CampaignFiles.campaign(
                name: "other", offers: [CampaignFiles.offer("Other", custom: [CampaignFiles.given(["OTHER1"])])]),
            to: "other.json")
        await Expect.failure(
            try handOut.files.run("status", other, ledger: handOut.ledger), status: 4,
            mentioning: ["no campaign \"other\""])
        await Expect.failure(
            try handOut.files.run("claim", other, ["--offer", "Other", "--recipient", "a"], ledger: handOut.ledger),
            status: 4)
    }

    /// `--ledger …` for a run outside ``CampaignFiles/run(_:_:_:ledger:stdin:)``.
    static func ledgerArguments(_ handOut: HandOut) -> [String] {
        switch handOut.ledger {
        case .folder: ["--ledger", handOut.files.ledger]
        case .at(let location): ["--ledger", location]
        case .none: []
        }
    }
}
