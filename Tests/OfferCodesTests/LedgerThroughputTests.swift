import Foundation
import OfferCodes
import Testing

@testable import LedgerTestSupport
@testable import OfferLedger

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
    func recordsAMillionCodes(backend: LedgerBackend) async throws {
        try await backend.withSharedPlace { place in
            try await place.withLedger { ledger in
                let count = 1_000_000
                let campaign = F.campaign("million", offers: ["M"])
                // A first batch of 100,000 codes, so that the generated ones are checked against codes issued.
                let seed = (0..<100_000).map { "S\(String($0, radix: 36, uppercase: true))X" }
                try await F.record(
                    ledger, F.batch("million", "M", index: 0, codeCount: seed.count), of: campaign, codes: seed)
                let start = ContinuousClock.now
                let spec = CodeGenerationSpec(count: count - seed.count, prefix: "M", length: 8)
                let recorded = try await ledger.recordBatch(
                    F.batch("million", "M", index: 1, codeCount: spec.count), campaign: campaign,
                    codes: .generated(spec, random: .system))
                let seconds = (ContinuousClock.now - start) / .seconds(1)
                let readStart = ContinuousClock.now
                var read = 0
                try await ledger.forEachCode(campaign: "million", offer: nil) { _ in read += 1 }
                let readSeconds = (ContinuousClock.now - readStart) / .seconds(1)
                print(
                    "ledger throughput [\(backend.rawValue)]: recorded \(spec.count) generated codes in \(seconds) s = "
                        + "\(Int(Double(spec.count) / seconds)) codes/s; read \(read) in \(readSeconds) s")
                #expect(recorded == .recorded)
                #expect(read == count)
            }
        }
    }
}
