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
}
