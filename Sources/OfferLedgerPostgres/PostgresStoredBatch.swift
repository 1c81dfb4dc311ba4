import Foundation
import NIOCore
import OfferCodes
import PostgresNIO

/// A `batches` row as the PostgreSQL ledger reads it: values in the ranges OfferKit writes, and
/// the row matching its checksum (see the SQLite ledger's digests); anything else is
/// ``LedgerError/corrupt(path:reason:)``.
struct PostgresStoredBatch: Sendable {
    let id: Int64
    let batch: LedgerBatch
    let storedCodes: Int
    let codesDigest: [UInt8]

    static let columns = """
        id, campaign, offer, kind, idx, quarter, redemption_limit, code_count, expiration_date, environment, \
        stored_codes, codes_digest, checksum
        """

    /// Every batch of the ledger, checked, in the order they were recorded: reading them all
    /// checks every row on every read, as the SQLite ledger does.
    /// `schema` names the table's schema, for a session outside a transaction (whose
    /// `search_path` is not the ledger's).
    static func fetchAll(_ session: PostgresSession, label: String, schema: String? = nil) throws
        -> [PostgresStoredBatch]
    {
        let table = schema.map { "\($0).batches" } ?? "batches"
        return try session.query(PostgresQuery(unsafeSQL: "SELECT \(columns) FROM \(table) ORDER BY id")).map {
            try PostgresStoredBatch($0, label: label, verifyingChecksum: true)
        }
    }

    init(_ row: PostgresRow, label path: String, verifyingChecksum: Bool) throws {
        let (
            id, campaign, offer, kindText, idx, quarter, redemptionLimit, codeCount, expiration, environmentText,
            stored, digestBytes, checksumBytes
        ) = try row.decode(
            (
                Int64, String, String, String, Int64, String, Int64, Int64, String?, String, Int64, ByteBuffer?,
                ByteBuffer?
            ).self)
        self.id = id
        let label = "batches row \(id)"
        func corrupt(_ column: String, _ expected: String) -> LedgerError {
            .corrupt(path: path, reason: "\(label): the column \(column) does not hold \(expected)")
        }
        guard let kind = LedgerBatch.Kind(rawValue: kindText) else { throw corrupt("kind", "a kind") }
        guard let environment = CodeEnvironment(rawValue: environmentText) else {
            throw corrupt("environment", "PRODUCTION or SANDBOX")
        }
        var expirationDate: CalendarDate?
        if let expiration {
            guard let date = CalendarDate(expiration) else { throw corrupt("expiration_date", "a date") }
            expirationDate = date
        }
        guard StoredBatch.isQuarter(quarter) else { throw corrupt("quarter", "a quarter such as 2027-Q1") }
        let largest = Int64(StoredBatch.largestNumber)
        guard (0...largest).contains(idx) else { throw corrupt("idx", "a whole number from 0 to \(largest)") }
        guard (1...largest).contains(redemptionLimit) else {
            throw corrupt("redemption_limit", "a whole number from 1 to \(largest)")
        }
        guard codeCount >= 0, !Int(codeCount).multipliedReportingOverflow(by: Int(redemptionLimit)).overflow else {
            throw corrupt("code_count", "a count whose redemptions fit in 64 bits")
        }
        guard stored >= 0 else { throw corrupt("stored_codes", "a whole number from 0") }
        batch = LedgerBatch(
            campaign: campaign, offer: offer, kind: kind, index: Int(idx), quarter: quarter,
            redemptionLimit: Int(redemptionLimit), codeCount: Int(codeCount), expirationDate: expirationDate,
            environment: environment)
        storedCodes = Int(stored)
        guard verifyingChecksum else {
            codesDigest = []
            return
        }
        guard let digestBytes, digestBytes.readableBytes == 32 else {
            throw corrupt("codes_digest", "a 32-byte SHA-256 digest")
        }
        guard let checksumBytes, checksumBytes.readableBytes == 32 else {
            throw corrupt("checksum", "a 32-byte SHA-256 digest")
        }
        codesDigest = Array(digestBytes.readableBytesView)
        guard
            Array(checksumBytes.readableBytesView)
                == BatchDigest.checksum(of: batch, storedCodes: storedCodes, codesDigest: codesDigest)
        else {
            throw LedgerError.corrupt(
                path: path,
                reason: "\(label) (\(StoredBatch.describe(batch))) does not match its checksum: it changed after "
                    + "OfferKit wrote it")
        }
    }

    /// Codes read per round trip.
    static let readChunk = 50_000

    /// Calls `body` with each code of the batch in the order issued, a chunk at a time (inside
    /// the caller's read transaction, so the chunks come from one snapshot), then checks them
    /// against the batch's count and digest. `body` has seen the codes before a mismatch is found.
    func forEachCode(_ session: PostgresSession, label: String, _ body: (String) throws -> Void) throws {
        var digest = BatchDigest()
        // A batch's codes are numbered 0, 1, … (`seq`): windows of seq numbers, each fetched as
        // one array (one value per round trip rather than one row per code).
        var start: Int64 = 0
        while start < Int64(storedCodes) {
            let end = start + Int64(Self.readChunk)
            let rows = try session.query(
                """
                SELECT array_agg(COALESCE(code, code_key) ORDER BY seq) FROM codes
                WHERE batch_id = \(id) AND seq >= \(start) AND seq < \(end)
                """)
            let codes = try rows.first?.decode([String]?.self) ?? nil
            guard let codes, !codes.isEmpty else { break }
            for code in codes {
                digest.add(code)
                try body(code)
            }
            start = end
        }
        guard digest.count == storedCodes else {
            throw countMismatch(label, found: ProblemText.grouped(digest.count))
        }
        let outside = try session.query(
            "SELECT count(*) FROM codes WHERE batch_id = \(id) AND (seq < 0 OR seq >= \(Int64(storedCodes)))")
        guard try outside.first?.decode(Int64.self) == 0 else { throw countMismatch(label, found: "more than") }
        guard digest.finalized() == codesDigest else {
            throw LedgerError.corrupt(
                path: label,
                reason: "the codes of \(StoredBatch.describe(batch)) differ from the ones recorded (their checksum "
                    + "does not match)")
        }
    }

    private func countMismatch(_ label: String, found: String) -> LedgerError {
        .corrupt(
            path: label,
            reason: "\(StoredBatch.describe(batch)) has \(found) codes in the ledger, but "
                + "\(ProblemText.grouped(storedCodes)) were recorded")
    }

    /// Stores a batch's code count and digests, after its codes were inserted.
    static func seal(
        _ session: PostgresSession, id: Int64, batch: LedgerBatch, storedCodes: Int, codesDigest: [UInt8]
    ) throws {
        let checksum = BatchDigest.checksum(of: batch, storedCodes: storedCodes, codesDigest: codesDigest)
        try session.query(
            """
            UPDATE batches SET stored_codes = \(Int64(storedCodes)), codes_digest = \(ByteBuffer(bytes: codesDigest)),
                checksum = \(ByteBuffer(bytes: checksum))
            WHERE id = \(id)
            """)
    }
}
