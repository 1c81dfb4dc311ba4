import Crypto
import OfferCodes

/// The SHA-256 digests that let the ledger notice a damaged or hand-edited batch.
///
/// A batch row stores two: the digest of its codes (each code's UTF-8 length as 8 bytes,
/// little-endian, then its bytes, in the order the codes were issued), accumulated by this type
/// while the codes are inserted or read; and the checksum of the row (``checksum(of:storedCodes:codesDigest:)``),
/// which covers every field that reading the batch returns, its code count and its codes digest.
/// They detect damage, not tampering: whoever can write the file can recompute them.
package struct BatchDigest {
    /// The number of codes added.
    package private(set) var count = 0
    private var hasher = SHA256()
    private var buffer: [UInt8] = []

    /// Bytes gathered before they are hashed.
    private static let flushSize = 1 << 16

    package init() {
        buffer.reserveCapacity(Self.flushSize + 8 + 256)
    }

    /// Adds the next code of the batch.
    package mutating func add(_ code: String) {
        var code = code
        code.withUTF8 { bytes in
            Self.append(UInt64(bytes.count), to: &buffer)
            buffer.append(contentsOf: bytes)
        }
        count += 1
        if buffer.count >= Self.flushSize {
            hasher.update(data: buffer)
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// The digest of the codes added so far (32 bytes).
    package func finalized() -> [UInt8] {
        var hasher = hasher
        hasher.update(data: buffer)
        return Array(hasher.finalize())
    }

    /// The checksum of a batch row (32 bytes).
    package static func checksum(of batch: LedgerBatch, storedCodes: Int, codesDigest: [UInt8]) -> [UInt8] {
        var bytes = Array("offerkit-ledger-batch-1".utf8)
        for text in [batch.campaign, batch.offer, batch.kind.rawValue, batch.quarter] {
            append(UInt64(text.utf8.count), to: &bytes)
            bytes.append(contentsOf: text.utf8)
        }
        for number in [batch.index, batch.redemptionLimit, batch.codeCount, storedCodes] {
            append(UInt64(bitPattern: Int64(number)), to: &bytes)
        }
        for text in [batch.expirationDate?.description ?? "", batch.environment.rawValue] {
            append(UInt64(text.utf8.count), to: &bytes)
            bytes.append(contentsOf: text.utf8)
        }
        append(UInt64(codesDigest.count), to: &bytes)
        bytes.append(contentsOf: codesDigest)
        return Array(SHA256.hash(data: bytes))
    }

    private static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }
}
