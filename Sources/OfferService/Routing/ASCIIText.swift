/// Header values compared on their bytes: the per-request checks avoid Foundation's string
/// splitting, trimming and case mapping.
enum ASCIIText {
    /// Whether `bytes` spell `expected` in any ASCII case; `expected` is lower-case.
    static func equalIgnoringCase(_ bytes: ArraySlice<UInt8>, _ expected: StaticString) -> Bool {
        guard bytes.count == expected.utf8CodeUnitCount else { return false }
        return expected.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { byte, lower in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == lower : byte == lower
            }
        }
    }

    /// `bytes` without the spaces and tabs at either end (HTTP's optional whitespace).
    static func trimmingBlanks(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return [] }
        return bytes[first...last]
    }
}
