import Foundation
import GRDB
import InteropSupport
import OfferCodes
import OfferLedger
import Testing

/// A ledger file with a few hundred codes, everything the ledger answers about it, and byte flips.
enum DamagedLedgerFixtures {
    typealias F = LedgerFixtures

    static let spring = F.campaign("spring", offers: ["Launch", "Gems", "Sandbox"])
    static let autumn = F.campaign("autumn", offers: ["Bulk"])
    static let launchCodes = F.numberedCodes("LAUNCH", 300, from: 1000)
    /// Apple's codes for `Gems`, two with lower-case letters (stored as issued, compared upper-cased).
    static let appleCodes = F.numberedCodes("APPLE", 38, from: 100) + ["apple9x1", "Apple9x2"]
    static let bulkCodes = F.numberedCodes("BULK", 20, from: 10)

    /// Writes the sample ledger at `path`, closed when this returns (`withSQLite`): a ledger
    /// merely let go closes its connections a moment later, and until then a new connection in
    /// this process may not see damage done to the file (SQLite shares a file's state among a
    /// process's connections).
    static func writeSample(at path: String) async throws {
        try await CodeLedger.withSQLite(path: path) { ledger in
            try await F.record(
                ledger, F.batch("spring", "Launch", codeCount: launchCodes.count), of: spring, codes: launchCodes)
            try await F.record(
                ledger, F.batch("spring", "Gems", kind: .oneTimeUse, codeCount: appleCodes.count), of: spring,
                codes: [])
            try await ledger.attachCodes(toOneTimeUseBatch: 0, offer: "Gems", campaign: "spring", codes: appleCodes)
            try await F.record(
                ledger, F.batch("spring", "Sandbox", kind: .oneTimeUse, codeCount: 5, environment: .sandbox),
                of: spring, codes: [])
            try await F.record(
                ledger, F.batch("autumn", "Bulk", redemptionLimit: 5, codeCount: bulkCodes.count, expirationDate: nil),
                of: autumn, codes: bulkCodes)
            try await ledger.setOfferActive(false, offer: "Sandbox", campaign: "spring")
        }
    }

    /// Everything the ledger answers about the sample.
    struct Snapshot: Equatable {
        var batches: [[LedgerBatch]] = []
        var codes: [[IssuedCode]] = []
        var customCodes: [String] = []
        var summary = LedgerSummary()
        var issued: Set<String> = []
    }

    static func snapshot(_ ledger: CodeLedger) async throws -> Snapshot {
        var snapshot = Snapshot()
        snapshot.batches = [try await ledger.batches(campaign: "spring"), try await ledger.batches(campaign: "autumn")]
        snapshot.codes = [
            try await F.codes(ledger, campaign: "spring"), try await F.codes(ledger, campaign: "autumn"),
            try await F.codes(ledger, campaign: "spring", offer: "Gems"),
        ]
        snapshot.customCodes = try await ledger.customCodes(campaign: "spring", offer: "Launch", batchIndex: 0)
        snapshot.summary = try await ledger.summary(
            appAppleId: F.appAppleId, quarter: F.quarter, excludingCampaign: "")
        snapshot.issued = try await ledger.issuedCodes(
            appAppleId: F.appAppleId,
            among: launchCodes + appleCodes + bulkCodes + ["NEVER1", "NEVER2"], excludingCampaign: "")
        return snapshot
    }

    /// XORs the byte at `offset` of the file with `mask`.
    static func flip(_ path: String, at offset: UInt64, mask: UInt8) throws {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: offset)
        guard let byte = try handle.read(upToCount: 1)?.first else { return }
        try handle.seek(toOffset: offset)
        try handle.write(contentsOf: [byte ^ mask])
    }

    /// Where `text` first (or last) occurs in the file.
    static func offset(of text: String, in path: String, last: Bool = false) throws -> UInt64? {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let range = data.range(of: Data(text.utf8), options: last ? .backwards : [])
        return range.map { UInt64($0.lowerBound) }
    }
}
