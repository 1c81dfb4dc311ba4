/// Base64 in both alphabets, written straight into byte buffers.
///
/// Foundation's `base64EncodedString()` plus `replacingOccurrences` costs about 20 µs per JWS;
/// this encoder appends into an existing `[UInt8]` with no intermediate strings.
package enum Base64 {
    private static let standardAlphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let urlAlphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Number of characters that `count` bytes encode to.
    package static func encodedLength(_ count: Int, padded: Bool) -> Int {
        padded ? ((count + 2) / 3) * 4 : (count * 4 + 2) / 3
    }

    /// Appends base64url without padding (RFC 7515 §2).
    package static func appendURL<Bytes: Collection<UInt8>>(_ bytes: Bytes, to out: inout [UInt8]) {
        append(bytes, to: &out, alphabet: urlAlphabet, padded: false)
    }

    /// Appends standard base64 with `=` padding (RFC 4648 §4).
    package static func appendStandard<Bytes: Collection<UInt8>>(_ bytes: Bytes, to out: inout [UInt8]) {
        append(bytes, to: &out, alphabet: standardAlphabet, padded: true)
    }

    package static func standardString<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(encodedLength(bytes.count, padded: true))
        appendStandard(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    package static func urlString<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(encodedLength(bytes.count, padded: false))
        appendURL(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always)
    private static func append<Bytes: Collection<UInt8>>(
        _ bytes: Bytes, to out: inout [UInt8], alphabet: [UInt8], padded: Bool
    ) {
        let appended: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            appendContiguous(buffer, to: &out, alphabet: alphabet, padded: padded)
        }
        if appended == nil {
            Array(bytes).withUnsafeBufferPointer { appendContiguous($0, to: &out, alphabet: alphabet, padded: padded) }
        }
    }

    /// Grows `out` once by the encoded length and writes through a pointer: appending byte by
    /// byte checked capacity and uniqueness four times per three input bytes (half the time of a
    /// 10 KB Advanced Commerce JWS went there).
    private static func appendContiguous(
        _ input: UnsafeBufferPointer<UInt8>, to out: inout [UInt8], alphabet: [UInt8], padded: Bool
    ) {
        let count = input.count
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: encodedLength(count, padded: padded)))
        alphabet.withUnsafeBufferPointer { table in
            out.withUnsafeMutableBufferPointer { buffer in
                var target = start
                @inline(__always) func put(_ byte: UInt8) {
                    buffer[target] = byte
                    target += 1
                }
                var index = 0
                while index + 3 <= count {
                    let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                    put(table[Int(chunk >> 18)])
                    put(table[Int((chunk >> 12) & 0x3F)])
                    put(table[Int((chunk >> 6) & 0x3F)])
                    put(table[Int(chunk & 0x3F)])
                    index += 3
                }
                let remaining = count - index
                if remaining == 1 {
                    let chunk = UInt32(input[index]) << 16
                    put(table[Int(chunk >> 18)])
                    put(table[Int((chunk >> 12) & 0x3F)])
                    if padded {
                        put(UInt8(ascii: "="))
                        put(UInt8(ascii: "="))
                    }
                } else if remaining == 2 {
                    let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
                    put(table[Int(chunk >> 18)])
                    put(table[Int((chunk >> 12) & 0x3F)])
                    put(table[Int((chunk >> 6) & 0x3F)])
                    if padded { put(UInt8(ascii: "=")) }
                }
                precondition(target == buffer.count, "base64: encoded length mismatch")
            }
        }
    }

    /// Decodes either alphabet, with or without padding. Whitespace is not accepted here:
    /// callers strip it first where the format allows it (PEM bodies).
    /// - Returns: `nil` when a character is outside the alphabet or the length is impossible.
    package static func decode<Bytes: Collection<UInt8>>(_ text: Bytes, urlSafe: Bool) -> [UInt8]? {
        // Over contiguous bytes (arrays, slices, native strings' UTF-8) the work is not generic:
        // unspecialized generic iteration cost more than the decoding itself (the Get Retention
        // Message endpoint decodes two certificates of every request).
        if let decoded = text.withContiguousStorageIfAvailable({ decode(buffer: $0, urlSafe: urlSafe) }) {
            return decoded
        }
        return Array(text).withUnsafeBufferPointer { decode(buffer: $0, urlSafe: urlSafe) }
    }

    private static func decode(buffer text: UnsafeBufferPointer<UInt8>, urlSafe: Bool) -> [UInt8]? {
        var values: [UInt8] = []
        values.reserveCapacity(text.count)
        var padding = 0
        for byte in text {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = sextet(byte, urlSafe: urlSafe) else { return nil }
            values.append(value)
        }
        if padding > 2 || (padding > 0 && (values.count + padding) % 4 != 0) { return nil }
        if values.count % 4 == 1 { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count * 3 / 4)
        var index = 0
        while index + 4 <= values.count {
            let chunk =
                UInt32(values[index]) << 18 | UInt32(values[index + 1]) << 12 | UInt32(values[index + 2]) << 6
                | UInt32(values[index + 3])
            out.append(UInt8(truncatingIfNeeded: chunk >> 16))
            out.append(UInt8(truncatingIfNeeded: chunk >> 8))
            out.append(UInt8(truncatingIfNeeded: chunk))
            index += 4
        }
        let remaining = values.count - index
        if remaining == 2 {
            let chunk = UInt32(values[index]) << 18 | UInt32(values[index + 1]) << 12
            guard chunk & 0xFFFF == 0 else { return nil }
            out.append(UInt8(truncatingIfNeeded: chunk >> 16))
        } else if remaining == 3 {
            let chunk = UInt32(values[index]) << 18 | UInt32(values[index + 1]) << 12 | UInt32(values[index + 2]) << 6
            guard chunk & 0xFF == 0 else { return nil }
            out.append(UInt8(truncatingIfNeeded: chunk >> 16))
            out.append(UInt8(truncatingIfNeeded: chunk >> 8))
        }
        return out
    }

    @inline(__always)
    private static func sextet(_ byte: UInt8, urlSafe: Bool) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+") where !urlSafe: return 62
        case UInt8(ascii: "/") where !urlSafe: return 63
        case UInt8(ascii: "-") where urlSafe: return 62
        case UInt8(ascii: "_") where urlSafe: return 63
        default: return nil
        }
    }
}
