/// Hexadecimal text: the one place OfferKit turns numbers and bytes into hex digits, zero-padded.
package enum Hex {
    /// `value` in hexadecimal, zero-padded to at least `digits` digits (`padded(0x1F, digits: 4)`
    /// is `001F`).
    package static func padded(_ value: some BinaryInteger, digits: Int, uppercase: Bool = true) -> String {
        let text = String(value, radix: 16, uppercase: uppercase)
        return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
    }

    /// `U+000A`: a Unicode scalar as the standard names it.
    package static func scalarName(_ scalar: Unicode.Scalar) -> String { "U+" + padded(scalar.value, digits: 4) }

    /// Two digits per byte, lower case (`0a1b…`), as digests are shown.
    package static func string(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes { append(byte, to: &out, uppercase: uppercase) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the two digits of `byte` (`0a`), straight into a byte buffer.
    @inline(__always)
    package static func append(_ byte: UInt8, to out: inout [UInt8], uppercase: Bool = false) {
        out.append(digit(byte >> 4, uppercase: uppercase))
        out.append(digit(byte & 0x0F, uppercase: uppercase))
    }

    /// The ASCII digit of a value 0–15.
    @inline(__always)
    package static func digit(_ value: UInt8, uppercase: Bool = false) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : (uppercase ? UInt8(ascii: "A") : UInt8(ascii: "a")) + value - 10
    }

    /// The bytes that `text` spells, two digits each, either case; `nil` for an odd length or a
    /// character that is not a hexadecimal digit.
    package static func bytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = digits[index].hexValue, let low = digits[index + 1].hexValue else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }
}
