/// The one bundle-ID rule, for every module that reads a bundle ID (credentials, the service's
/// configuration and bodies, campaign files).
package enum BundleIdText {
    /// The longest bundle ID, in bytes.
    package static let maximumBytes = 255

    /// 1 to ``maximumBytes`` bytes of ASCII letters, digits, `-` and `.`, with no empty component
    /// (`com..app`, `.app` and `app.` are not bundle IDs).
    package static func isBundleId(_ value: String) -> Bool {
        let utf8 = value.utf8
        guard !utf8.isEmpty, utf8.count <= maximumBytes else { return false }
        var previous = UInt8(ascii: ".")
        for byte in utf8 {
            guard byte.isASCIIAlphanumeric || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else {
                return false
            }
            if byte == UInt8(ascii: "."), previous == UInt8(ascii: ".") { return false }
            previous = byte
        }
        return previous != UInt8(ascii: ".")
    }

    /// A bundle ID (``isBundleId(_:)``) in reverse-DNS form, with at least two components, as
    /// App Store Connect lists an app's bundle ID (`com.example.app`, not `demo`).
    package static func isReverseDNS(_ value: String) -> Bool {
        isBundleId(value) && value.utf8.contains(UInt8(ascii: "."))
    }
}
