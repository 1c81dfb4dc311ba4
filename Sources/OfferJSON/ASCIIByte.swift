/// Byte classes of ASCII text, for the parsers and identifier rules of every module.
extension UInt8 {
    /// `0`–`9`.
    package var isASCIIDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }

    /// `A`–`Z` or `0`–`9`.
    package var isUpperAlphanumeric: Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || isASCIIDigit }

    /// `A`–`Z`, `a`–`z` or `0`–`9`.
    package var isASCIIAlphanumeric: Bool {
        isUpperAlphanumeric || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
    }

    /// `0`–`9`, `a`–`f` or `A`–`F`.
    package var isHexDigit: Bool { hexValue != nil }

    /// The value of a hexadecimal digit, either case; `nil` for any other byte.
    package var hexValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
