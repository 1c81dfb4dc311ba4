import Foundation
import OfferCodes
import Testing

/// How fast each backend records a batch of 1,000,000 generated codes (the size of Apple's quarterly
/// limit). A measurement, not a timed test: it runs only with `OFFERKIT_LEDGER_MEASURE=1` and prints
/// codes per second; the README quotes its numbers.
@Suite("Code ledger: throughput")
struct LedgerThroughputTests {
    typealias F = LedgerFixtures

    @Test(
        .enabled(
            if: ProcessInfo.processInfo.environment["OFFERKIT_LEDGER_MEASURE"] == "1", "set OFFERKIT_LEDGER_MEASURE=1"),
        arguments: LedgerBackend.allCases)
    func recordsAMillionCodes(backend: LedgerBackend) throws {
        try backend.withSharedStore { store in
            let ledger = try store.open()
            let count = 1_000_000
            let campaign = F.campaign("million", offers: ["M"])
            // A first batch, so that the second is checked against 100,000 codes already issued.
            try F.record(ledger, F.batch("million", "M", index: 0, codeCount: 1), of: campaign, codes: ["SEED"])
            let start = ContinuousClock.now
            var refused = 0
            try ledger.recordBatch(F.batch("million", "M", index: 1, codeCount: count - 1), campaign: campaign) {
                insert in
                var inserted = 0
                var n = 0
                while inserted < count - 1 {
                    // Every 100,000th code repeats the seed: refused, and another is drawn.
                    let code = n % 100_000 == 99_999 ? "SEED" : "M\(String(n, radix: 36, uppercase: true))X"
                    n += 1
                    if try insert(code) { inserted += 1 } else { refused += 1 }
                }
            }
            let seconds = (ContinuousClock.now - start) / .seconds(1)
            let readStart = ContinuousClock.now
            var read = 0
            try ledger.forEachCode(campaign: "million", offer: nil) { _ in read += 1 }
            let readSeconds = (ContinuousClock.now - readStart) / .seconds(1)
            print(
                "ledger throughput [\(backend.rawValue)]: recorded \(count - 1) codes in \(seconds) s = "
                    + "\(Int(Double(count - 1) / seconds)) codes/s (\(refused) refused); read \(read) in \(readSeconds) s"
            )
            #expect(read == count)
            #expect(refused == 10)
        }
    }
}
