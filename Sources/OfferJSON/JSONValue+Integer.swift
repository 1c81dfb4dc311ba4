extension JSONValue {
    /// The value of this number when it is exactly a whole number that fits in 64 bits, whatever
    /// its spelling (`6`, `6.0`, `6e0`, `600e-2`, `-0`), else `nil` (`0.5`, `1e-400`, `1e19`, a
    /// string). The literal's digits are read exactly: no `Double` is on the way, so
    /// `9007199254740993.0` is 9007199254740993 and `1e-400` is not 0.
    package var exactInteger: Int64? {
        guard case .number(let text) = self else { return nil }
        return Self.exactInteger(text)
    }

    /// ``exactInteger`` of a JSON number literal. Linear in the literal's length.
    package static func exactInteger(_ literal: String) -> Int64? {
        if case .integer(let value) = reading(literal) { return value }
        return nil
    }

    /// What a number literal holds, read exactly.
    package enum NumberReading: Equatable, Sendable {
        /// A whole number in the 64-bit range.
        case integer(Int64)
        /// A whole number outside the 64-bit range (`1e19`, `-9223372036854775809`).
        case outOfRange
        /// A number with a fractional part (`0.5`, `1e-400`).
        case fractional
        /// Not a JSON number literal.
        case notANumber
    }

    /// The number as found, for messages: `an integer 6`, `a whole number 1e19 outside the 64-bit
    /// range`, `a fractional number 1e-400`; other values as ``shortDescription``.
    package var numberDescription: String {
        guard case .number(let text) = self else { return shortDescription }
        let shown = text.count > 24 ? String(text.prefix(24)) + "…" : text
        switch Self.reading(text) {
        case .integer: return "an integer \(shown)"
        case .outOfRange: return "a whole number \(shown) outside the 64-bit range"
        case .fractional, .notANumber: return "a fractional number \(shown)"
        }
    }

    /// Reads a JSON number literal exactly. Linear in the literal's length.
    package static func reading(_ literal: String) -> NumberReading {
        if let plain = Int64(literal) { return .integer(plain) }
        var bytes = Substring(literal).utf8[...]
        var negative = false
        if bytes.first == UInt8(ascii: "-") {
            negative = true
            bytes = bytes.dropFirst()
        }
        var digits: [UInt8] = []
        var fractionDigits = 0
        var exponent = 0
        var inFraction = false
        var sawDigit = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                guard !inFraction else { return .notANumber }
                inFraction = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                sawDigit = true
                // Leading zeros carry no value; skipping them keeps `digits` short.
                if !(digits.isEmpty && byte == UInt8(ascii: "0")) { digits.append(byte - UInt8(ascii: "0")) }
                if inFraction { fractionDigits += 1 }
            } else {
                return .notANumber
            }
        }
        if !bytes.isEmpty {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            guard !bytes.isEmpty else { return .notANumber }
            for byte in bytes {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return .notANumber }
                // Saturates: any exponent past this is out of range whatever the digits.
                exponent = min(exponent * 10 + Int(byte - UInt8(ascii: "0")), 100_000_000)
            }
            if exponentNegative { exponent = -exponent }
        }
        guard sawDigit else { return .notANumber }
        // All zeros: the value is 0.
        guard let lastNonZero = digits.lastIndex(where: { $0 != 0 }) else { return .integer(0) }
        // Trailing zeros move into the scale; a fraction left over is not a whole number.
        let trailingZeros = digits.count - 1 - lastNonZero
        let scale = exponent - fractionDigits + trailingZeros
        guard scale >= 0 else { return .fractional }
        let significant = lastNonZero + 1
        guard significant + scale <= 19 else { return .outOfRange }
        var magnitude: UInt64 = 0
        for digit in digits[..<significant] { magnitude = magnitude * 10 + UInt64(digit) }
        for _ in 0..<scale {
            let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            guard !overflow else { return .outOfRange }
            magnitude = product
        }
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return .outOfRange }
            return .integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
        }
        guard magnitude <= UInt64(Int64.max) else { return .outOfRange }
        return .integer(Int64(magnitude))
    }
}
