import Foundation
import OfferCodes
import Testing

@testable import LedgerTestSupport
@testable import OfferLedger

/// The times of assignments read back exactly as they were printed when the codes were handed out:
/// a retried export prints the same `assignedAt` as the first one.
@Suite("Ledger timestamps")
struct LedgerTimestampTests {
    @Test func everyMillisecondReadsBackAsWritten() {
        var failures: [String] = []
        let start: Int64 = 1_800_000_000_000
        for millisecond in stride(from: start, to: start + 200_000, by: 7) {
            let date = Date(timeIntervalSince1970: Double(millisecond) / 1000)
            let text = LedgerTimestamp.text(date)
            let fraction = String(format: "%03lld", millisecond % 1000)
            guard text.hasSuffix(".\(fraction)Z"), let back = LedgerTimestamp.date(text),
                LedgerTimestamp.text(back) == text
            else {
                failures.append(
                    "\(millisecond): \(text) → \(LedgerTimestamp.date(text).map(LedgerTimestamp.text) ?? "?")")
                continue
            }
        }
        #expect(failures.count == 0, "times that do not read back as written, such as \(failures.prefix(3))")
        #expect(LedgerTimestamp.text(Date(timeIntervalSince1970: 1_800_000_000.125)) == "2027-01-15T08:00:00.125Z")
        #expect(LedgerTimestamp.text(Date(timeIntervalSince1970: 1_800_000_000.9996)) == "2027-01-15T08:00:01.000Z")
    }

    /// The forms the ledgers write, SQLite's 3 digits of the second and PostgreSQL's 6, read as
    /// Foundation's ISO 8601 parser reads them (to the nearest millisecond); anything else is
    /// refused, such as a time in another zone or without its fraction.
    @Test func timesReadAsTheLedgersWriteThemAndNothingElse() throws {
        let foundation = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        for text in [
            "2027-01-15T08:00:00.125Z", "2027-01-15T08:00:00.125499Z", "2027-01-15T08:00:00.1255Z",
            "2027-01-15T23:59:59.9996Z", "1970-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z",
            "2028-02-29T12:34:56.7Z", "2027-06-30T00:00:00.000000001Z",
        ] {
            let expected = LedgerTimestamp.milliseconds(try foundation.parse(text))
            #expect(LedgerTimestamp.date(text) == expected, "\(text)")
        }
        #expect(
            LedgerTimestamp.date("2027-01-15T08:00:00.125456Z").map(LedgerTimestamp.text) == "2027-01-15T08:00:00.125Z")
        for text in [
            "", "2027-01-15", "2027-01-15T08:00:00Z", "2027-01-15T08:00:00.Z", "2027-01-15T08:00:00.125",
            "2027-01-15T08:00:00.125+00:00", "2027-01-15 08:00:00.125Z", "2027-01-15T24:00:00.000Z",
            "2027-01-15T08:60:00.000Z", "2027-01-15T08:00:60.000Z", "2027-02-29T08:00:00.000Z",
            "2027-13-01T08:00:00.000Z", "2027-01-15T08:00:00.1234567890Z", "2027-01-15T08:00:00.12aZ",
            "+027-01-15T08:00:00.125Z", "2027-01-15T08:00:00.125z", "２027-01-15T08:00:00.125Z",
        ] {
            #expect(LedgerTimestamp.date(text) == nil, "\(text)")
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func anAssignmentReadsBackWithTheTimeItWasHandedOutWith(backend: LedgerBackend) async throws {
        try await LedgerAssignmentTests.withPersonalCodes(backend, count: 40) { ledger in
            let scope = LedgerAssignmentTests.scope()
            var handedOut: [String: String] = [:]
            for index in 0..<40 {
                let claim = try await ledger.claim(recipient: "user-\(index)", scope: scope)
                handedOut[claim.recipient] = LedgerTimestamp.text(claim.assignedAt)
            }
            var readBack: [String: String] = [:]
            try await ledger.lookUpAssignments(recipients: Array(handedOut.keys), scope: scope) { recipient, found in
                readBack[recipient] = found.map { LedgerTimestamp.text($0.assignedAt) }
            }
            #expect(readBack == handedOut)
        }
    }
}
