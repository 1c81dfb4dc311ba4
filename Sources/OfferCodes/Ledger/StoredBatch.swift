import Foundation
import GRDB

/// A `batches` row as the ledger reads it: every value has the type and range OfferKit writes,
/// and the row matches its checksum (see ``BatchDigest``). Anything else is
/// ``LedgerError/corrupt(path:reason:)``, never a trap or a silently different batch.
package struct StoredBatch {
    /// The row's id (`codes.batch_id`).
    let id: Int64
    let batch: LedgerBatch
    /// How many codes the batch has in `codes`.
    let storedCodes: Int
    /// The SHA-256 of those codes, in order.
    let codesDigest: [UInt8]

    /// The columns ``init(_:path:verifyingChecksum:)`` reads, in its order.
    static let columns = """
        id, campaign, offer, kind, idx, quarter, redemption_limit, code_count, expiration_date, environment, \
        stored_codes, codes_digest, checksum
        """

    /// The largest batch index and redemption limit a row may hold (no campaign has more batches,
    /// and Apple's quarterly limit is far below it).
    package static let largestNumber = Int(Int32.max)

    /// Every batch of the ledger, checked, in the order they were recorded.
    ///
    /// Reading them all (rather than selecting by campaign) checks every row on every read, so that
    /// a damaged campaign name or quarter cannot make a batch silently drop out of a selection.
    static func fetchAll(_ db: Database, path: String) throws -> [StoredBatch] {
        let rows = try Row.fetchCursor(db, sql: "SELECT \(columns) FROM batches ORDER BY id")
        var batches: [StoredBatch] = []
        while let row = try rows.next() { batches.append(try StoredBatch(row, path: path, verifyingChecksum: true)) }
        return batches
    }

    /// Decodes and checks a row of ``columns``.
    init(_ row: Row, path: String, verifyingChecksum: Bool) throws {
        let fields = Fields(row: row, path: path)
        id = try fields.integer64(0, "id")
        let label = "batches row \(id)"
        let kindText = try fields.text(3, "kind", label)
        guard let kind = LedgerBatch.Kind(rawValue: kindText) else { throw fields.corrupt(label, "kind", "a kind") }
        let environmentText = try fields.text(9, "environment", label)
        guard let environment = CodeEnvironment(rawValue: environmentText) else {
            throw fields.corrupt(label, "environment", "PRODUCTION or SANDBOX")
        }
        var expirationDate: CalendarDate?
        if !(row[8] as DatabaseValue).isNull {
            guard let date = CalendarDate(try fields.text(8, "expiration_date", label)) else {
                throw fields.corrupt(label, "expiration_date", "a date written YYYY-MM-DD")
            }
            expirationDate = date
        }
        let quarter = try fields.text(5, "quarter", label)
        guard Self.isQuarter(quarter) else { throw fields.corrupt(label, "quarter", "a quarter such as 2027-Q1") }
        let index = try fields.integer(4, "idx", label, 0...Self.largestNumber)
        let redemptionLimit = try fields.integer(6, "redemption_limit", label, 1...Self.largestNumber)
        let codeCount = try fields.integer(7, "code_count", label, 0...Int.max)
        guard !codeCount.multipliedReportingOverflow(by: redemptionLimit).overflow else {
            throw fields.corrupt(label, "code_count", "a count whose redemptions fit in 64 bits")
        }
        batch = LedgerBatch(
            campaign: try fields.text(1, "campaign", label), offer: try fields.text(2, "offer", label), kind: kind,
            index: index, quarter: quarter, redemptionLimit: redemptionLimit, codeCount: codeCount,
            expirationDate: expirationDate, environment: environment)
        storedCodes = try fields.integer(10, "stored_codes", label, 0...Int.max)
        guard verifyingChecksum else {
            codesDigest = []
            return
        }
        codesDigest = try fields.digest(11, "codes_digest", label)
        let checksum = try fields.digest(12, "checksum", label)
        guard checksum == BatchDigest.checksum(of: batch, storedCodes: storedCodes, codesDigest: codesDigest) else {
            throw LedgerError.corrupt(
                path: path,
                reason: "\(label) (\(Self.describe(batch))) does not match its checksum: it changed after "
                    + "OfferKit wrote it")
        }
    }

    /// Calls `body` with each code of the batch in the order issued (`statement` is
    /// ``codesStatement(_:)``), then checks them against the batch's count and digest.
    ///
    /// `body` has seen the codes before a mismatch is found: callers that hand codes out
    /// (exports) must discard their output when this throws.
    func forEachCode(_ statement: Statement, path: String, _ body: (String) throws -> Void) throws {
        var digest = BatchDigest()
        let codes = try String.fetchCursor(statement, arguments: [id])
        while let code = try codes.next() {
            guard digest.count < storedCodes else { throw countMismatch(path: path, found: "more than") }
            digest.add(code)
            try body(code)
        }
        guard digest.count == storedCodes else {
            throw countMismatch(path: path, found: ProblemText.grouped(digest.count))
        }
        guard digest.finalized() == codesDigest else {
            throw LedgerError.corrupt(
                path: path,
                reason: "the codes of \(Self.describe(batch)) differ from the ones recorded (their checksum does not "
                    + "match)")
        }
    }

    private func countMismatch(path: String, found: String) -> LedgerError {
        .corrupt(
            path: path,
            reason: "\(Self.describe(batch)) has \(found) codes in the ledger, but \(ProblemText.grouped(storedCodes)) "
                + "were recorded")
    }

    /// Reads a batch's codes in the order issued; bind the batch's id.
    static func codesStatement(_ db: Database) throws -> Statement {
        try db.makeStatement(sql: "SELECT COALESCE(code, code_key) FROM codes WHERE batch_id = ? ORDER BY seq")
    }

    /// Stores a batch's code count and digests, after its codes were inserted.
    static func seal(_ db: Database, id: Int64, batch: LedgerBatch, storedCodes: Int, codesDigest: [UInt8]) throws {
        let checksum = BatchDigest.checksum(of: batch, storedCodes: storedCodes, codesDigest: codesDigest)
        try db.execute(
            sql: "UPDATE batches SET stored_codes = ?, codes_digest = ?, checksum = ? WHERE id = ?",
            arguments: [storedCodes, Data(codesDigest), Data(checksum), id])
    }

    /// Seals every batch as it is now (the migration that added the digests).
    static func sealAll(_ db: Database, path: String) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT \(columns) FROM batches ORDER BY id")
        let statement = try codesStatement(db)
        for row in rows {
            let stored = try StoredBatch(row, path: path, verifyingChecksum: false)
            var digest = BatchDigest()
            let codes = try String.fetchCursor(statement, arguments: [stored.id])
            while let code = try codes.next() { digest.add(code) }
            try seal(db, id: stored.id, batch: stored.batch, storedCodes: digest.count, codesDigest: digest.finalized())
        }
    }

    /// `customCodes[0] of offer "Gems" in campaign "spring-2027"`.
    package static func describe(_ batch: LedgerBatch) -> String {
        "\(batch.kind == .custom ? "customCodes" : "oneTimeUseCodes")[\(batch.index)] of offer "
            + "\(ProblemText.quoted(batch.offer)) in campaign \(ProblemText.quoted(batch.campaign))"
    }

    /// Whether `text` is a calendar quarter as ``CalendarDate/quarter`` writes it (`2027-Q1`).
    package static func isQuarter(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 4, bytes.count <= 7, bytes[bytes.count - 3] == UInt8(ascii: "-"),
            bytes[bytes.count - 2] == UInt8(ascii: "Q"),
            (UInt8(ascii: "1")...UInt8(ascii: "4")).contains(bytes[bytes.count - 1])
        else { return false }
        let year = bytes.dropLast(3)
        return year.first != UInt8(ascii: "0")
            && year.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Typed access to a row's columns; a value of another type or out of range is corruption.
    private struct Fields {
        let row: Row
        let path: String

        func value(_ index: Int) -> DatabaseValue { row[index] }

        func integer64(_ index: Int, _ column: String) throws -> Int64 {
            guard case .int64(let number) = value(index).storage, number > 0 else {
                throw corrupt("a batches row", column, "a positive row id")
            }
            return number
        }

        func integer(_ index: Int, _ column: String, _ label: String, _ range: ClosedRange<Int>) throws -> Int {
            guard case .int64(let number) = value(index).storage, let int = Int(exactly: number), range.contains(int)
            else {
                throw corrupt(
                    label, column,
                    "a whole number from \(range.lowerBound)"
                        + (range.upperBound == .max ? "" : " to \(range.upperBound)"))
            }
            return int
        }

        func text(_ index: Int, _ column: String, _ label: String) throws -> String {
            guard case .string(let text) = value(index).storage else { throw corrupt(label, column, "text") }
            return text
        }

        func digest(_ index: Int, _ column: String, _ label: String) throws -> [UInt8] {
            guard case .blob(let data) = value(index).storage, data.count == 32 else {
                throw corrupt(label, column, "a 32-byte SHA-256 digest")
            }
            return Array(data)
        }

        /// The value is not shown: it may be garbage, or part of a code.
        func corrupt(_ label: String, _ column: String, _ expected: String) -> LedgerError {
            .corrupt(path: path, reason: "\(label): the column \(column) does not hold \(expected)")
        }
    }
}
