import OfferCodes

/// A `batches` row as the ledger reads it: every value has the type and range OfferKit writes,
/// and the row matches its checksum (see ``BatchDigest``). Anything else is
/// ``LedgerError/corrupt(path:reason:)``, never a trap or a silently different batch. The same
/// decoding for every backend: stores return the row's values (``LedgerTransaction/batchRows(_:)``).
package struct StoredBatch: Sendable {
    /// The row's id (`codes.batch_id`).
    package let id: Int64
    package let batch: LedgerBatch
    /// How many codes the batch has in `codes`.
    package let storedCodes: Int
    /// The SHA-256 of those codes, in order.
    package let codesDigest: [UInt8]

    /// The columns ``init(_:path:)`` reads, in its order: what ``LedgerTransaction/batchRows(_:)``
    /// returns.
    package static let columns = """
        id, campaign, offer, kind, idx, quarter, redemption_limit, code_count, expiration_date, environment, \
        stored_codes, codes_digest, checksum
        """

    /// The largest batch index and redemption limit a row may hold (no campaign has more batches,
    /// and Apple's quarterly limit is far below it).
    package static let largestNumber = Int(Int32.max)

    package init(id: Int64, batch: LedgerBatch, storedCodes: Int, codesDigest: [UInt8]) {
        self.id = id
        self.batch = batch
        self.storedCodes = storedCodes
        self.codesDigest = codesDigest
    }

    /// Decodes and checks a row of ``columns``; without `verifyingChecksum` (the migration that
    /// adds the digests), the digests are neither read nor checked.
    package init(_ values: [LedgerValue], path: String, verifyingChecksum: Bool = true) throws {
        let row = StoredRow(values, table: "a batches row", path: path)
        id = try row.id(0, "id")
        let fields = StoredRow(values, table: "batches row \(id)", path: path)
        guard let kind = LedgerBatch.Kind(rawValue: try fields.text(3, "kind")) else {
            throw fields.corrupt("kind", "a kind")
        }
        guard let environment = CodeEnvironment(rawValue: try fields.text(9, "environment")) else {
            throw fields.corrupt("environment", "PRODUCTION or SANDBOX")
        }
        var expirationDate: CalendarDate?
        if let text = try fields.optionalText(8, "expiration_date") {
            guard let date = CalendarDate(text) else {
                throw fields.corrupt("expiration_date", "a date written YYYY-MM-DD")
            }
            expirationDate = date
        }
        let quarter = try fields.text(5, "quarter")
        guard Self.isQuarter(quarter) else { throw fields.corrupt("quarter", "a quarter such as 2027-Q1") }
        let index = try fields.integer(4, "idx", 0...Self.largestNumber)
        let redemptionLimit = try fields.integer(6, "redemption_limit", 1...Self.largestNumber)
        let codeCount = try fields.integer(7, "code_count", 0...Int.max)
        guard !codeCount.multipliedReportingOverflow(by: redemptionLimit).overflow else {
            throw fields.corrupt("code_count", "a count whose redemptions fit in 64 bits")
        }
        batch = LedgerBatch(
            campaign: try fields.text(1, "campaign"), offer: try fields.text(2, "offer"), kind: kind,
            index: index, quarter: quarter, redemptionLimit: redemptionLimit, codeCount: codeCount,
            expirationDate: expirationDate, environment: environment)
        storedCodes = try fields.integer(10, "stored_codes", 0...Int.max)
        guard verifyingChecksum else {
            codesDigest = []
            return
        }
        codesDigest = try fields.blob(11, "codes_digest", count: 32)
        let checksum = try fields.blob(12, "checksum", count: 32)
        guard checksum == BatchDigest.checksum(of: batch, storedCodes: storedCodes, codesDigest: codesDigest) else {
            throw LedgerError.corrupt(
                path: path,
                reason: "batches row \(id) (\(Self.describe(batch))) does not match its checksum: it changed after "
                    + "OfferKit wrote it")
        }
    }

    /// A personal batch: each code is redeemable once, so it goes to one recipient.
    package var isPersonal: Bool { batch.redemptionLimit == 1 }

    /// Whether the batch expired before `day` (its codes are no longer handed out).
    package func isExpired(on day: CalendarDate) -> Bool {
        guard let expiration = batch.expirationDate else { return false }
        return expiration < day
    }

    /// Checks the codes of the batch as they are read: each row against its own digest
    /// (``CodeDigest``), and, once all are read, their count and order against the batch's
    /// digest. ``add(_:)`` each code row, then ``finish(extraRows:path:)``.
    package struct CodeCheck {
        let batch: StoredBatch
        let path: String
        private var digest = BatchDigest()
        /// Rows read past the batch's recorded count.
        private var extra = 0

        package init(_ batch: StoredBatch, path: String) {
            self.batch = batch
            self.path = path
        }

        /// Checks the next code row (`seq, code, digest`, in `seq` order) and returns its code.
        package mutating func add(_ values: [LedgerValue]) throws -> String {
            let code = try CodeDigest.verified(values, batch: batch, path: path)
            guard code.seq == Int64(digest.count + extra) else {
                throw LedgerError.corrupt(
                    path: path,
                    reason: "the codes of \(StoredBatch.describe(batch.batch)) are not numbered 0, 1, 2, … (position "
                        + "\(digest.count + extra) holds number \(code.seq))")
            }
            if digest.count < batch.storedCodes {
                digest.add(code.code)
            } else {
                extra += 1
            }
            return code.code
        }

        /// The number of code rows checked so far.
        package var count: Int { digest.count + extra }

        /// Checks the count and digest of the codes read; `extraRows` is how many rows of the
        /// batch lie outside the positions read.
        package func finish(extraRows: Int64) throws {
            let rows = Int64(count) + max(extraRows, 0)
            guard rows == Int64(batch.storedCodes) else {
                throw countMismatch(found: ProblemText.grouped(Int(clamping: rows)))
            }
            guard digest.finalized() == batch.codesDigest else {
                throw LedgerError.corrupt(
                    path: path,
                    reason: "the codes of \(StoredBatch.describe(batch.batch)) differ from the ones recorded (their "
                        + "checksum does not match)")
            }
        }

        private func countMismatch(found: String) -> LedgerError {
            .corrupt(
                path: path,
                reason: "\(StoredBatch.describe(batch.batch)) has \(found) codes in the ledger, but "
                    + "\(ProblemText.grouped(batch.storedCodes)) were recorded")
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
}
