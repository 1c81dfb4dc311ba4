import OfferJSON

/// The App Store link that opens the redemption sheet with a code filled in.
///
/// The format is `https://apps.apple.com/redeem?ctx=offercodes&id=<APP_APPLE_ID>&code=<CODE>`
/// (widely used, not confirmed by Apple's documentation).
public enum RedemptionLink {
    /// The redemption link for one code.
    ///
    /// Both values are percent-encoded strictly: every UTF-8 byte other than an RFC 3986 unreserved
    /// character (`A-Z`, `a-z`, `0-9`, `-`, `.`, `_`, `~`) becomes `%XX` (upper-case hex), so a code
    /// holding `+`, `&`, `=`, `%`, a space or non-ASCII letters still arrives intact.
    public static func url(appAppleId: String, code: String) -> String {
        "https://apps.apple.com/redeem?ctx=offercodes&id=\(percentEncoded(appAppleId))&code=\(percentEncoded(code))"
    }

    /// `value` with everything but RFC 3986 unreserved characters percent-encoded.
    public static func percentEncoded(_ value: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                Hex.append(byte, to: &bytes, uppercase: true)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
