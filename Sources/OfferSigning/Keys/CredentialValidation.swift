import OfferJSON

/// Format checks for the identifiers App Store Connect issues.
package enum CredentialValidation {
    /// The longest bundle ID, in bytes.
    package static let maximumBundleIdBytes = BundleIdText.maximumBytes

    /// What a bundle ID must be, for messages.
    package static let bundleIdRule =
        "a reverse-DNS identifier of letters, digits, '-' and '.' (at most \(maximumBundleIdBytes) bytes, no empty "
        + "component), such as com.example.app"

    static func validateKeyId(_ value: String) throws(CredentialError) {
        guard isKeyId(value) else { throw .invalidKeyId(KeyDecoder.redacted(value)) }
    }

    static func validateIssuerId(_ value: String) throws(CredentialError) {
        guard isUUID(value) else { throw .invalidIssuerId(KeyDecoder.redacted(value)) }
    }

    package static func validateBundleId(_ value: String) throws(CredentialError) {
        guard isBundleId(value) else { throw .invalidBundleId(KeyDecoder.redacted(value)) }
    }

    /// 10 upper-case letters or digits, as App Store Connect shows a key ID.
    package static func isKeyId(_ value: String) -> Bool {
        value.utf8.count == 10 && value.utf8.allSatisfy(\.isUpperAlphanumeric)
    }

    /// The one bundle-ID rule (``BundleIdText/isBundleId(_:)``): 1 to ``maximumBundleIdBytes``
    /// bytes of ASCII letters, digits, `-` and `.`, with no empty component.
    package static func isBundleId(_ value: String) -> Bool { BundleIdText.isBundleId(value) }

    /// 8-4-4-4-12 hexadecimal digits, either case.
    package static func isUUID(_ value: String) -> Bool {
        let utf8 = Array(value.utf8)
        guard utf8.count == 36 else { return false }
        for (index, byte) in utf8.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard byte.isHexDigit else { return false }
            }
        }
        return true
    }
}
