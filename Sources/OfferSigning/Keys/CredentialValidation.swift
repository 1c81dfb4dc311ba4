/// Format checks for the identifiers App Store Connect issues.
package enum CredentialValidation {
    static func validateKeyID(_ value: String) throws(CredentialError) {
        let utf8 = value.utf8
        guard utf8.count == 10, utf8.allSatisfy({ $0.isUpperAlphanumeric }) else {
            throw .invalidKeyID(KeyDecoder.redacted(value))
        }
    }

    static func validateIssuerID(_ value: String) throws(CredentialError) {
        guard isUUID(value) else { throw .invalidIssuerID(KeyDecoder.redacted(value)) }
    }

    package static func validateBundleID(_ value: String) throws(CredentialError) {
        let utf8 = Array(value.utf8)
        guard !utf8.isEmpty, utf8.count <= 255,
            utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }),
            value.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty })
        else { throw .invalidBundleID(KeyDecoder.redacted(value)) }
    }

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

extension UInt8 {
    package var isUpperAlphanumeric: Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }

    package var isASCIIAlphanumeric: Bool {
        isUpperAlphanumeric || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
    }

    package var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
