import Foundation
import Testing

@testable import LedgerTestSupport
@testable import OfferCodes
@testable import OfferLedger

/// `recordBatch` and `setOfferActive` enforce Apple's limits against what the ledger holds, in
/// their own transaction.
@Suite("SQLite code ledger: limits")
struct LedgerLimitsTests {
    typealias F = LedgerFixtures

    @Test(arguments: LedgerBackend.allCases)
    func refusesABatchThatTakesTheAppOverTheProductionLimit(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let spring = F.campaign("spring", offers: ["A", "B"])
            try await F.record(
                ledger, F.batch("spring", "A", kind: .oneTimeUse, codeCount: 999_990), of: spring, codes: [])
            // 5 codes with 3 redemptions each: 15, 5 over.
            let over = F.batch("spring", "B", redemptionLimit: 3, codeCount: 5)
            let error = await #expect(throws: LedgerError.self) {
                try await F.record(ledger, over, of: spring, codes: F.numberedCodes("O", 5))
            }
            #expect(
                error
                    == .quarterLimitExceeded(batch: over, appAppleId: F.appAppleId, limit: 1_000_000, recorded: 999_990)
            )
            let message = error?.localizedDescription ?? ""
            for words in ["2027-Q1", "1,000,000", "999,990", "1,000,005", "customCodes[0] of offer \"B\"", "Nothing"] {
                #expect(message.contains(words), "\(message)")
            }
            #expect(try await ledger.batches(campaign: "spring").count == 1)

            // Up to the limit is fine, and other quarters and apps count apart.
            #expect(
                try await F.record(
                    ledger, F.batch("spring", "B", redemptionLimit: 2, codeCount: 5), of: spring,
                    codes: F.numberedCodes("B", 5)
                ) == .recorded)
            #expect(
                try await F.record(
                    ledger, F.batch("spring", "B", index: 1, quarter: "2027-Q2", codeCount: 1), of: spring,
                    codes: ["Q2"]
                )
                    == .recorded)
            let other = F.campaign("other", appAppleId: F.otherAppAppleId, offers: ["O"])
            #expect(
                try await F.record(
                    ledger, F.batch("other", "O", kind: .oneTimeUse, codeCount: 1_000_000), of: other, codes: [])
                    == .recorded)
            #expect(
                try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                    .productionCodes
                    == 1_000_000)
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func refusesASandboxBatchOverItsOwnLimit(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let spring = F.campaign("spring", offers: ["A"])
            try await F.record(
                ledger, F.batch("spring", "A", kind: .oneTimeUse, codeCount: 6_000, environment: .sandbox), of: spring,
                codes: [])
            let over = F.batch("spring", "A", kind: .oneTimeUse, index: 1, codeCount: 4_001, environment: .sandbox)
            await #expect(
                throws: LedgerError.quarterLimitExceeded(
                    batch: over, appAppleId: F.appAppleId, limit: 10_000, recorded: 6_000)
            ) {
                try await F.record(ledger, over, of: spring, codes: [])
            }
            // Production codes do not count against the sandbox limit.
            #expect(
                try await F.record(
                    ledger, F.batch("spring", "A", kind: .oneTimeUse, index: 2, codeCount: 50_000), of: spring,
                    codes: []
                ) == .recorded)
            #expect(
                try await F.record(
                    ledger,
                    F.batch("spring", "A", kind: .oneTimeUse, index: 3, codeCount: 4_000, environment: .sandbox),
                    of: spring, codes: []
                ) == .recorded)
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func refusesNewOffersOverTheActiveLimitAndSwitchingOneOnOverIt(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger in
            let first = F.campaign("first", offers: (1...8).map { "F\($0)" })
            try await F.record(ledger, F.batch("first", "F1", codeCount: 1), of: first, codes: ["F1CODE"])
            let second = F.campaign("second", offers: ["S1", "S2", "S3"])
            await #expect(
                throws: LedgerError.activeOfferLimitExceeded(
                    campaign: "second", appAppleId: F.appAppleId, active: 11, limit: 10)
            ) {
                try await F.record(ledger, F.batch("second", "S1", codeCount: 1), of: second, codes: ["S1CODE"])
            }
            #expect(try await ledger.batches(campaign: "second").isEmpty)
            #expect(
                try await ledger.summary(appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
                    .activeOfferNames
                    .count == 8)

            try await ledger.setOfferActive(false, offer: "F1", campaign: "first")
            #expect(
                try await F.record(ledger, F.batch("second", "S1", codeCount: 1), of: second, codes: ["S1CODE"])
                    == .recorded)
            let error = await #expect(throws: LedgerError.self) {
                try await ledger.setOfferActive(true, offer: "F1", campaign: "first")
            }
            #expect(
                error == .activeOfferLimitExceeded(campaign: "first", appAppleId: F.appAppleId, active: 11, limit: 10))
            #expect(error?.localizedDescription.contains("11 offers of app 1234567890 would be active") == true)
            // Switching an active offer on again, or one off, is always fine.
            try await ledger.setOfferActive(true, offer: "S1", campaign: "second")
            try await ledger.setOfferActive(false, offer: "S1", campaign: "second")
            try await ledger.setOfferActive(true, offer: "F1", campaign: "first")
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func refusesABatchItCouldNotReadBack(backend: LedgerBackend) async throws {
        try await backend.withNewLedger { ledger throws in
            let spring = F.campaign("spring", offers: ["A"])
            let cases: [(LedgerBatch, String)] = [
                (F.batch("spring", "A", quarter: "Q1-2027", codeCount: 1), "quarter"),
                (F.batch("spring", "A", quarter: "2027-Q0", codeCount: 1), "quarter"),
                (F.batch("spring", "A", index: -1, codeCount: 1), "index is -1"),
                (F.batch("spring", "A", redemptionLimit: 0, codeCount: 1), "redemption limit is 0"),
                (F.batch("spring", "A", codeCount: -1), "code count is -1"),
            ]
            for (batch, words) in cases {
                let error = await #expect(throws: LedgerError.self) {
                    try await F.record(ledger, batch, of: spring, codes: ["A1"])
                }
                guard case .invalidBatch(let campaign, let offer, let problem)? = error else {
                    Issue.record("expected invalidBatch, got \(String(describing: error))")
                    continue
                }
                #expect(campaign == "spring" && offer == "A")
                #expect(problem.contains(words), "\(problem)")
            }
            #expect(try await ledger.batches(campaign: "spring").isEmpty)
            #expect(F.batch("spring", "A", redemptionLimit: .max, codeCount: 2).redemptions == .max)
        }
    }
}
