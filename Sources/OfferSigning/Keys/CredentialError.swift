import Foundation

/// An identifier that App Store Connect issued is missing or malformed.
///
/// A value that looks like a private key (pasted into the wrong argument) is replaced by a
/// placeholder such as `<key material, 241 characters>`, so the key never reaches a log.
public enum CredentialError: Error, Equatable, Sendable {
    /// `keyId` is not 10 upper-case letters or digits.
    case invalidKeyId(String)
    /// `issuerId` is not a UUID.
    case invalidIssuerId(String)
    /// `bundleId` is not a reverse-DNS identifier.
    case invalidBundleId(String)

    /// The name of the field at fault.
    public var field: String {
        switch self {
        case .invalidKeyId: "keyId"
        case .invalidIssuerId: "issuerId"
        case .invalidBundleId: "bundleId"
        }
    }
}

extension CredentialError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .invalidKeyId(let value):
            "keyId \(quoted(value)) is invalid: expected 10 upper-case letters or digits, as shown in App Store Connect (e.g. 2X9R4HXF34)."
        case .invalidIssuerId(let value):
            "issuerId \(quoted(value)) is invalid: expected a UUID such as 57246542-96fe-1a63-e053-0824d011072a (App Store Connect > Users and Access > Integrations)."
        case .invalidBundleId(let value):
            "bundleId \(quoted(value)) is invalid: expected \(CredentialValidation.bundleIdRule)."
        }
    }

    private func quoted(_ value: String) -> String {
        // Identifiers are not secret, but a long value may be a key pasted by mistake: echo none of it.
        value.count > 40 ? "(\(value.count) characters, not shown)" : "\"\(value)\""
    }
}
