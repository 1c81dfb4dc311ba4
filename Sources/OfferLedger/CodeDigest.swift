import Crypto
import OfferCodes

/// The digest each `codes` row carries: the first 16 bytes of the SHA-256 of
/// `offerkit-code-1`, the batch's row id and the code's position (`seq`), each as 8 bytes
/// big-endian, then the code as issued in UTF-8.
///
/// A claim checks it on the one row it hands out, in its own transaction (the batch's digest
/// covers all of a batch's codes, which a claim does not read): a code changed after OfferKit
/// recorded it, in its row and the unique index alike, is refused rather than handed out. Bulk
/// reads check it on every row too. Like ``BatchDigest`` it detects damage, not tampering.
///
/// PostgreSQL computes the same bytes in SQL (``sql(batchId:seq:code:)``), so that its claim
/// statement checks the row before it commits.
package enum CodeDigest {
    /// The digest's length in bytes.
    package static let length = 16
    private static let label = Array("offerkit-code-1".utf8)

    /// The digest of `code` at `seq` in batch `batchId`.
    ///
    /// Hashed from one buffer in one call: it runs for every code row a bulk read checks, and three
    /// generic `update(data:)` calls over temporary arrays cost more than the hash itself.
    package static func of(batchId: Int64, seq: Int64, code: String) -> [UInt8] {
        var input: [UInt8] = []
        input.reserveCapacity(label.count + 16 + code.utf8.count)
        input += label
        appendBigEndian(batchId, to: &input)
        appendBigEndian(seq, to: &input)
        input += code.utf8
        let digest = SHA256.hash(data: input)
        return digest.withUnsafeBytes { Array($0.prefix(length)) }
    }

    /// The same digest as an SQL expression of PostgreSQL over the named columns.
    package static func sql(batchId: String, seq: String, code: String) -> String {
        "substring(sha256(convert_to('offerkit-code-1', 'UTF8') || int8send(\(batchId)) || int8send(\(seq)) || "
            + "convert_to(\(code), 'UTF8')) from 1 for \(length))"
    }

    /// A code row (`seq, code, digest`) of `batch`, checked against its digest: its position and
    /// its code as issued.
    package static func verified(_ values: [LedgerValue], batch: StoredBatch, path: String) throws
        -> (seq: Int64, code: String)
    {
        let row = StoredRow(values, table: "a codes row of \(StoredBatch.describe(batch.batch))", path: path)
        let seq = try row.integer(0, "seq")
        let code = try row.text(1, "code")
        try check(row.blob(2, "digest"), batchId: batch.id, seq: seq, code: code, batch: batch.batch, path: path)
        return (seq, code)
    }

    /// Throws ``LedgerError/corrupt(path:reason:)`` when `digest` is not the digest of `code` at
    /// `seq` in the batch (the code is not named: it may be garbage, or a real code).
    package static func check(
        _ digest: [UInt8], batchId: Int64, seq: Int64, code: String, batch: LedgerBatch, path: String
    ) throws {
        guard digest == of(batchId: batchId, seq: seq, code: code) else {
            throw LedgerError.corrupt(
                path: path,
                reason: "code number \(seq + 1) of \(StoredBatch.describe(batch)) does not match its digest: it "
                    + "changed after OfferKit recorded it")
        }
    }

    private static func appendBigEndian(_ value: Int64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }
}
