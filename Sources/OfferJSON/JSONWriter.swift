import Foundation

/// Writes compact JSON straight into bytes, members in the order they are written.
///
/// Every JSON document OfferKit signs goes through this writer, so the bytes are identical on
/// every run and platform. String escaping matches Python's
/// `json.dumps(value, ensure_ascii=False, separators=(",", ":"))`: `"` and `\` escaped, control
/// characters as `\n`, `\r`, `\t`, `\b`, `\f` or `\u00xx`, everything else (including non-ASCII)
/// as raw UTF-8.
package struct JSONWriter {
    package var bytes: [UInt8]
    private var needsComma = false

    package init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    package mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    package mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    package mutating func beginArray() {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    package mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes `"key":` and leaves the writer expecting a value.
    package mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes `"name":` for a name known only at run time.
    package mutating func dynamicKey(_ name: String) {
        separate()
        Self.appendQuoted(name, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    package mutating func string(_ value: String) {
        separate()
        Self.appendQuoted(value, to: &bytes)
        needsComma = true
    }

    // Integers are Int64 and Int, not any BinaryInteger: a generic called from another module
    // runs unspecialized, every digit through the protocol's witness table (5 % of a legacy
    // signature's time in `offerkit-profile legacy`).
    package mutating func integer(_ value: Int64) {
        separate()
        Self.appendDecimal(value, to: &bytes)
        needsComma = true
    }

    package mutating func integer(_ value: Int) { integer(Int64(value)) }

    package mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
        needsComma = true
    }

    /// Inserts bytes that are already a complete JSON value.
    package mutating func raw(_ value: [UInt8]) {
        separate()
        bytes.append(contentsOf: value)
        needsComma = true
    }

    package mutating func member(_ name: StaticString, _ value: String) {
        key(name)
        string(value)
    }

    package mutating func member(_ name: StaticString, _ value: String?) {
        if let value { member(name, value) }
    }

    package mutating func member(_ name: StaticString, _ value: Int64) {
        key(name)
        integer(value)
    }

    package mutating func member(_ name: StaticString, _ value: Int) { member(name, Int64(value)) }

    /// `"name":"<lower-case UUID>"`, formatted straight into the buffer.
    package mutating func member(_ name: StaticString, _ value: UUID) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        value.appendLowercase(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    package mutating func member(_ name: StaticString, _ value: UUID?) {
        if let value { member(name, value) }
    }

    /// `"name":"<standard base64 of bytes, padded>"`, encoded straight into the buffer.
    package mutating func member(_ name: StaticString, base64 value: [UInt8]) {
        key(name)
        bytes.append(UInt8(ascii: "\""))
        Base64.appendStandard(value, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    package mutating func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    package mutating func member(_ name: StaticString, _ value: Bool?) {
        if let value { member(name, value) }
    }

    /// Writes `"name":[…]` with `write` called for each element; nothing when `elements` is nil.
    package mutating func array<Element>(
        _ name: StaticString, _ elements: [Element]?, _ write: (Element, inout JSONWriter) -> Void
    ) {
        guard let elements else { return }
        key(name)
        beginArray()
        for element in elements { write(element, &self) }
        endArray()
    }

    /// Writes `"name":{…}` with `write`; nothing when `value` is nil.
    package mutating func object<Value>(
        _ name: StaticString, _ value: Value?, _ write: (Value, inout JSONWriter) -> Void
    ) {
        guard let value else { return }
        key(name)
        write(value, &self)
    }

    @inline(__always)
    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private static let trueBytes: [UInt8] = Array("true".utf8)
    private static let falseBytes: [UInt8] = Array("false".utf8)

    package static func appendQuoted(_ value: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0x08: out.append(UInt8(ascii: "b"))
                case 0x0C: out.append(UInt8(ascii: "f"))
                default:
                    out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    Hex.append(byte, to: &out)
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    package static func appendDecimal(_ value: Int64, to out: inout [UInt8]) {
        if value == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        var magnitude = value.magnitude
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 24 digits, plenty for 64-bit values
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            while magnitude > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) {
                out.append(buffer[index])
            }
        }
    }
}
