import Foundation
import Testing

@testable import LedgerTestSupport
@testable import OfferCodes
@testable import OfferLedger

/// Handing out codes: each test runs on SQLite and on PostgreSQL.
@Suite("Code assignment")
struct LedgerAssignmentTests {
    typealias F = LedgerFixtures

    static let today = CalendarDate("2027-02-01")!

    static func scope(
        _ campaign: String = "spring", offer: String = "Half", environment: CodeEnvironment = .production,
        today: CalendarDate = today
    ) -> AssignmentScope {
        AssignmentScope(campaign: campaign, offer: offer, environment: environment, today: today)
    }

    /// Runs `body` with a ledger with campaign "spring": offer "Half" with personal custom codes
    /// HALF0…HALF(n-1).
    static func withPersonalCodes(_ backend: LedgerBackend, count: Int = 3, _ body: (CodeLedger) async throws -> Void)
        async throws
    {
        try await backend.withNewLedger { ledger in
            let campaign = F.campaign("spring", offers: ["Half", "Gems"])
            try await F.record(
                ledger, F.batch("spring", "Half", codeCount: count), of: campaign, codes: F.numberedCodes("HALF", count)
            )
            try await body(ledger)
        }
    }

    /// Hands out codes to `recipients` (``CodeLedger/assign(recipients:scope:channel:)``) and reads
    /// them back, in order: `isNew` tells who held no code before the call.
    static func assign(
        _ ledger: CodeLedger, _ recipients: [String], scope: AssignmentScope = scope(),
        channel: AssignmentChannel = .export
    ) async throws -> [CodeAssignment] {
        let before = try await F.held(ledger, recipients, scope: scope)
        let counts = try await ledger.assign(recipients: recipients, scope: scope, channel: channel)
        var result = try await F.held(ledger, recipients, scope: scope).map { try #require($0) }
        for index in result.indices { result[index].isNew = before[index] == nil }
        let distinct = Set(recipients)
        #expect(counts.new == Set(recipients.indices.filter { before[$0] == nil }.map { recipients[$0] }).count)
        #expect(counts.new + counts.held == distinct.count)
        return result
    }

    @Test(arguments: LedgerBackend.allCases)
    func aClaimGivesTheNextCodeAndTheSameCodeAgainToTheSameRecipient(backend: LedgerBackend) async throws {
        try await Self.withPersonalCodes(backend) { ledger in
            let first = try await ledger.claim(recipient: "user-1", scope: Self.scope())
            #expect(first.code.code == "HALF0")
            #expect(first.isNew && first.channel == .claim && !first.isShared && first.recipient == "user-1")
            let second = try await ledger.claim(recipient: "user-2", scope: Self.scope())
            #expect(second.code.code == "HALF1")
            let again = try await ledger.claim(recipient: "user-1", scope: Self.scope())
            #expect(again.code == first.code && !again.isNew)
            // What the first claim answered is what a read shows, to the millisecond, as text.
            #expect(LedgerTimestamp.text(again.assignedAt) == LedgerTimestamp.text(first.assignedAt))
            #expect(again.assignedAt == first.assignedAt)
            #expect(try await ledger.claim(recipient: "user-3", scope: Self.scope()).code.code == "HALF2")
            await #expect(
                throws: LedgerError.noCodeLeft(
                    campaign: "spring", offer: "Half", environment: .production, assigned: 3, stored: 3)
            ) {
                try await ledger.claim(recipient: "user-4", scope: Self.scope())
            }
            // Those who have a code still get it back.
            #expect(try await ledger.claim(recipient: "user-2", scope: Self.scope()).code.code == "HALF1")
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func anExportAssignsAllOrNothingAndARetryGivesTheSameCodes(backend: LedgerBackend) async throws {
        try await Self.withPersonalCodes(backend, count: 4) { ledger in
            // The count names what the list would have taken (nothing of it is kept).
            await #expect(
                throws: LedgerError.noCodeLeft(
                    campaign: "spring", offer: "Half", environment: .production, assigned: 4, stored: 4)
            ) { try await Self.assign(ledger, ["a", "b", "c", "d", "e"]) }
            var none = 0
            try await ledger.lookUpAssignments(recipients: ["a", "b", "c", "d", "e"], scope: Self.scope()) { _, found in
                if found == nil { none += 1 }
            }
            #expect(none == 5)

            let first = try await Self.assign(ledger, ["a", "b"])
            #expect(first.map(\.code.code) == ["HALF0", "HALF1"])
            #expect(first.allSatisfy { $0.isNew })
            let second = try await Self.assign(ledger, ["b", "c", "a", "d"])
            #expect(second.map(\.code.code) == ["HALF1", "HALF2", "HALF0", "HALF3"])
            #expect(second.map(\.isNew) == [false, true, false, true])

            var all: [String] = []
            try await ledger.forEachAssignment(campaign: "spring", offer: nil) {
                all.append("\($0.recipient)=\($0.code.code)")
            }
            #expect(all == ["a=HALF0", "b=HALF1", "c=HALF2", "d=HALF3"])
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func aLongListIsHandedOutInChunksWithoutDuplicates(backend: LedgerBackend) async throws {
        let count = CodeAssignment.chunkSize * 2 + 17
        try await Self.withPersonalCodes(backend, count: count) { ledger in
            let recipients = (0..<(count - 5)).map { "r\($0)" }
            let result = try await Self.assign(ledger, recipients)
            #expect(Set(result.map(\.code.code)).count == recipients.count)
            #expect(result.map(\.code.code) == F.numberedCodes("HALF", recipients.count))
            let again = try await Self.assign(ledger, recipients.reversed() + ["late"])
            #expect(again.dropLast().map(\.code.code) == result.reversed().map(\.code.code))
            #expect(again.last?.code.code == "HALF\(count - 5)")
        }
    }

    /// `assign` and `lookUpAssignments` take any random-access collection of ids: a slice whose
    /// indices do not start at 0 (here, past the first chunk, with a repeat) is handed out and read
    /// back by position, as the array it was cut from would be.
    @Test(arguments: LedgerBackend.allCases)
    func aSliceOfAListIsHandedOutAndReadBackByPosition(backend: LedgerBackend) async throws {
        let count = CodeAssignment.chunkSize + 10
        try await Self.withPersonalCodes(backend, count: count) { ledger in
            let all = ["skipped"] + (0..<(count - 1)).map { "s\($0)" } + ["s0"]
            let slice = all[1...]
            #expect(slice.startIndex == 1)
            let counts = try await ledger.assign(recipients: slice, scope: Self.scope(), channel: .export)
            #expect(counts == AssignmentCounts(new: count - 1, held: 0))
            var read: [(String, String?)] = []
            try await ledger.lookUpAssignments(recipients: slice, scope: Self.scope()) { id, found in
                read.append((id, found?.code.code))
            }
            #expect(read.map(\.0) == Array(slice))
            #expect(read.map(\.1) == F.numberedCodes("HALF", count - 1) + ["HALF0"])
            #expect(try await F.held(ledger, ["skipped"], scope: Self.scope()) == [nil])
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func aLongListIsWrittenInGroupsThatOtherWritersGoBetween(backend: LedgerBackend) async throws {
        // Three groups of CodeLedger.assignmentsPerTransaction (20,000), and a few more.
        let count = 60_010
        try await backend.withSharedPlace { place in
            try await place.withLedger { ledger in
                let campaign = F.campaign("spring", offers: ["Half", "Gems"])
                try await F.record(
                    ledger, F.batch("spring", "Half", codeCount: count), of: campaign,
                    codes: F.numberedCodes("HALF", count))
                try await F.record(
                    ledger, F.batch("spring", "Gems", codeCount: 2_000), of: campaign,
                    codes: F.numberedCodes("GEM", 2_000))
            }
            // Two connections to the ledger, as two processes have: one hands out a long list,
            // the other claims codes of another offer meanwhile.
            try await place.withLedger { exporter in
                try await place.withLedger { claimer in
                    let recipients = (0..<count).map { "r\($0)" } + ["r7"]
                    let counts = try await withThrowingTaskGroup(of: AssignmentCounts?.self) { group in
                        let finished = LockedValue(false)
                        group.addTask {
                            defer { finished.withLock { $0 = true } }
                            return try await exporter.assign(
                                recipients: recipients, scope: Self.scope(), channel: .export)
                        }
                        group.addTask {
                            var claimed = 0
                            while !finished.withLock({ $0 }), claimed < 2_000 {
                                _ = try await claimer.claim(recipient: "c\(claimed)", scope: Self.scope(offer: "Gems"))
                                claimed += 1
                                try await Task.sleep(for: .milliseconds(1))
                            }
                            return nil
                        }
                        var counts: AssignmentCounts?
                        for try await result in group { counts = counts ?? result }
                        return counts
                    }
                    #expect(counts == AssignmentCounts(new: count, held: 0), "a recipient listed twice gets one code")
                }
            }
            try await place.withLedger { ledger in
                var channels: [AssignmentChannel] = []
                var codes = Set<String>()
                try await ledger.forEachAssignment(campaign: "spring", offer: nil) {
                    channels.append($0.channel)
                    codes.insert($0.code.code)
                }
                #expect(codes.count == channels.count, "no code was handed out twice")
                let first = try #require(channels.firstIndex(of: .export))
                let last = try #require(channels.lastIndex(of: .export))
                // Recorded in the order committed: a claim between two of the list's groups.
                let between = channels[first...last].filter { $0 == .claim }.count
                #expect(between > 0, "no claim committed while the list was written: it held the lock for all of it")
            }
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func sharedCodesAreTheCampaignsCodeUpToTheirRedemptionLimit(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let campaign = F.campaign("spring", offers: ["Gems"])
            try await F.record(
                ledger, F.batch("spring", "Gems", redemptionLimit: 2, codeCount: 2), of: campaign,
                codes: ["GEMSX", "GEMSY"])
            let scope = Self.scope(offer: "Gems")
            let result = try await Self.assign(ledger, ["a", "b", "c", "d"], scope: scope)
            #expect(result.map(\.code.code) == ["GEMSX", "GEMSX", "GEMSY", "GEMSY"])
            #expect(result.allSatisfy { $0.isShared })
            #expect(try await ledger.claim(recipient: "b", scope: scope).code.code == "GEMSX")
            await #expect(
                throws: LedgerError.noCodeLeft(
                    campaign: "spring", offer: "Gems", environment: .production, assigned: 4, stored: 4)
            ) {
                try await ledger.claim(recipient: "e", scope: scope)
            }
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func personalCodesAreNeverReplacedBySharedOnesAndExpiredOrOtherEnvironmentBatchesAreSkipped(
        backend: LedgerBackend
    ) async throws {
        try await backend.withNewLedger { ledger in
            let campaign = F.campaign("spring", offers: ["Half"])
            try await F.record(
                ledger, F.batch("spring", "Half", index: 0, codeCount: 1, expirationDate: "2027-01-31"), of: campaign,
                codes: ["OLD0"])
            try await F.record(
                ledger, F.batch("spring", "Half", index: 1, codeCount: 1, environment: .sandbox), of: campaign,
                codes: ["SANDBOX0"])
            try await F.record(
                ledger, F.batch("spring", "Half", index: 2, redemptionLimit: 50, codeCount: 1), of: campaign,
                codes: ["SHARED0"])
            try await F.record(ledger, F.batch("spring", "Half", index: 3, codeCount: 1), of: campaign, codes: ["NEW0"])
            #expect(try await ledger.claim(recipient: "a", scope: Self.scope()).code.code == "NEW0")
            await #expect(
                throws: LedgerError.noCodeLeft(
                    campaign: "spring", offer: "Half", environment: .production, assigned: 1, stored: 1)
            ) {
                try await ledger.claim(recipient: "b", scope: Self.scope())
            }
            #expect(
                try await ledger.claim(recipient: "b", scope: Self.scope(environment: .sandbox)).code.code == "SANDBOX0"
            )
            // Before the old batch expired, it came first.
            let earlier = Self.scope(today: CalendarDate("2027-01-15")!)
            #expect(try await ledger.claim(recipient: "c", scope: earlier).code.code == "OLD0")
            let late = Self.scope(today: CalendarDate("2027-06-01")!)
            await #expect(throws: LedgerError.self) { try await ledger.claim(recipient: "d", scope: late) }
            do {
                _ = try await ledger.claim(recipient: "d", scope: late)
            } catch let error as LedgerError {
                guard case .nothingToAssign(_, _, _, let reason) = error else {
                    Issue.record("expected nothingToAssign, got \(error)")
                    return
                }
                #expect(reason.contains("expired before 2027-06-01"))
            }
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func oneTimeUseCodesAreHandedOutOnceImported(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let campaign = F.campaign("spring", offers: ["Half"])
            try await F.record(
                ledger, F.batch("spring", "Half", kind: .oneTimeUse, codeCount: 2), of: campaign, codes: [])
            await #expect {
                try await ledger.claim(recipient: "a", scope: Self.scope())
            } throws: { error in
                guard case .nothingToAssign(_, _, _, let reason) = error as? LedgerError else { return false }
                return reason.contains("offerkit codes import")
            }
            try await ledger.attachCodes(
                toOneTimeUseBatch: 0, offer: "Half", campaign: "spring", codes: ["APPLE1", "APPLE2"])
            let claimed = try await ledger.claim(recipient: "a", scope: Self.scope())
            #expect(claimed.code.code == "APPLE1" && claimed.code.kind == .oneTimeUse)
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func refusesUnknownAndInactiveOffersAndBadRecipients(backend: LedgerBackend) async throws {
        try await Self.withPersonalCodes(backend) { ledger in
            await #expect(throws: LedgerError.unknownOffer(offer: "Nope", campaign: "spring")) {
                try await ledger.claim(recipient: "a", scope: Self.scope(offer: "Nope"))
            }
            await #expect(throws: LedgerError.unknownOffer(offer: "Half", campaign: "autumn")) {
                try await ledger.claim(recipient: "a", scope: Self.scope("autumn"))
            }
            let tooLong = String(repeating: "é", count: 129)
            for (recipients, position) in [([""], nil), (["ok", "a\nb"], 2), ([tooLong], nil), (["ok", "x\u{0}"], 2)]
                as [([String], Int?)]
            {
                await #expect {
                    try await Self.assign(ledger, recipients)
                } throws: { error in
                    guard case .invalidRecipient(let found, _) = error as? LedgerError else { return false }
                    return found == position
                }
            }
            #expect(try await ledger.claim(recipient: String(repeating: "é", count: 128), scope: Self.scope()).isNew)
            try await ledger.setOfferActive(false, offer: "Half", campaign: "spring")
            await #expect(throws: LedgerError.offerInactive(offer: "Half", campaign: "spring")) {
                try await ledger.claim(recipient: "a", scope: Self.scope())
            }
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func statusCountsWhatWasRecordedImportedAndHandedOut(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            await #expect(throws: LedgerError.unknownCampaign(campaign: "spring")) {
                try await ledger.status(campaign: "spring", today: Self.today)
            }
            let campaign = F.campaign("spring", offers: ["Half", "Gems"])
            try await F.record(
                ledger, F.batch("spring", "Half", codeCount: 3), of: campaign, codes: F.numberedCodes("HALF", 3))
            try await F.record(
                ledger, F.batch("spring", "Half", kind: .oneTimeUse, codeCount: 500), of: campaign, codes: [])
            try await F.record(
                ledger, F.batch("spring", "Gems", redemptionLimit: 10, codeCount: 1, expirationDate: "2027-01-10"),
                of: campaign, codes: ["GEMS"])
            _ = try await Self.assign(ledger, ["a", "b"])
            _ = try await Self.assign(
                ledger, ["a", "b", "c"], scope: Self.scope(offer: "Gems", today: CalendarDate("2027-01-05")!))

            let status = try await ledger.status(campaign: "spring", today: Self.today)
            #expect(status.campaign == "spring" && status.appAppleId == F.appAppleId)
            #expect(status.offers.map(\.name) == ["Half", "Gems"])
            #expect(status.offers.allSatisfy { $0.active })
            let half = status.offers[0].batches
            #expect(half.map(\.storedCodes) == [3, 0])
            #expect(half.map(\.batch.codeCount) == [3, 500])
            #expect(half.map(\.assigned) == [2, 0])
            #expect(half.map(\.left) == [1, 0])
            let gems = status.offers[1].batches
            #expect(gems.map(\.assigned) == [3] && gems.map(\.left) == [7] && gems.map(\.expired) == [true])
            #expect(status.usage.quarter == "2027-Q1")
            #expect(status.usage.productionCodes == 3 + 500 + 10)
            #expect(status.usage.activeOffers == 2 && status.usage.activeOfferLimit == 10)
            #expect(status.usage.productionLimit == 1_000_000)
        }
    }

    @Test func timesAreWrittenToTheNearestMillisecond() {
        let justBelow = Date(timeIntervalSince1970: 1_805_103_000.1249996)
        #expect(LedgerTimestamp.text(justBelow) == "2027-03-15T09:30:00.125Z")
        #expect(LedgerTimestamp.text(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(LedgerTimestamp.text(Date(timeIntervalSince1970: 951_825_599.9996)) == "2000-02-29T12:00:00.000Z")
        let rounded = LedgerTimestamp.milliseconds(justBelow)
        #expect(LedgerTimestamp.date(LedgerTimestamp.text(rounded)) == rounded)
    }
}
