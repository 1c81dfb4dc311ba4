import Foundation

/// The DER form of an ECDSA P-256 signature (`SEQUENCE { INTEGER r, INTEGER s }`, X9.62 and
/// RFC 3279), written from its raw `r ‖ s`: the legacy promotional offer signature is DER.
///
/// swift-crypto's `derRepresentation` goes through BoringSSL's big numbers on every signature;
/// the encoding itself is a few byte copies into one buffer.
enum ECDSADER {
    /// - Parameter raw: `r ‖ s`, 32 big-endian bytes each.
    static func encode<Raw: DataProtocol>(raw: Raw) -> [UInt8] {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &bytes) { buffer in
            precondition(raw.count == 64, "a P-256 signature is 64 raw bytes")
            buffer.copyBytes(from: raw)
            let r = integerLayout(buffer, 0)
            let s = integerLayout(buffer, 32)
            var out: [UInt8] = []
            out.reserveCapacity(2 + r.length + s.length)
            out.append(0x30)
            out.append(UInt8(r.length + s.length))  // at most 2 × 35 = 70: the short length form
            append(buffer, r, to: &out)
            append(buffer, s, to: &out)
            return out
        }
    }

    /// Where an INTEGER's digits start in `raw`, whether it needs a leading zero byte (DER
    /// integers are signed, and the high bit would make it negative), and its encoded length.
    private static func integerLayout(
        _ raw: UnsafeMutableRawBufferPointer, _ offset: Int
    ) -> (start: Int, padded: Bool, length: Int) {
        var start = offset
        while start < offset + 31, raw[start] == 0 { start += 1 }  // the last byte stays, even if 0
        let padded = raw[start] & 0x80 != 0
        let digits = offset + 32 - start
        return (start, padded, 2 + digits + (padded ? 1 : 0))
    }

    private static func append(
        _ raw: UnsafeMutableRawBufferPointer, _ layout: (start: Int, padded: Bool, length: Int),
        to out: inout [UInt8]
    ) {
        out.append(0x02)
        out.append(UInt8(layout.length - 2))
        if layout.padded { out.append(0) }
        let end = layout.start + layout.length - 2 - (layout.padded ? 1 : 0)
        out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[layout.start..<end]))
    }
}
