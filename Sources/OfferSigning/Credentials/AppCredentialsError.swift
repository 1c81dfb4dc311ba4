import Foundation

/// An app entry of a configuration file that cannot be used. The message names the field
/// (`com.example.app.keyId`) and what was expected; it never shows a value that may be a key.
package enum AppCredentialsError: Error, Equatable, Sendable {
    /// The text is not JSON (or repeats a member name); the detail is the parser's message.
    case notJSON(detail: String)
    /// The document is not an object mapping bundle IDs to entries.
    case notAnObject(found: String)
    /// A member name is not a bundle ID.
    case invalidBundleId(String)
    /// An app's entry is not an object.
    case entryNotAnObject(bundleId: String, found: String)
    /// A member of an app's entry is unknown, not a string, or breaks its rule.
    case invalidMember(bundleId: String, member: String, expected: String, found: String)

    /// The field at fault: `(top level)`, the bundle ID, or `<bundle ID>.<member>`.
    package var field: String {
        switch self {
        case .notJSON, .notAnObject: "(top level)"
        case .invalidBundleId(let bundleId): bundleId
        case .entryNotAnObject(let bundleId, _): bundleId
        case .invalidMember(let bundleId, let member, _, _): "\(bundleId).\(member)"
        }
    }

    /// What the field must be.
    package var expected: String {
        switch self {
        case .notJSON: "JSON"
        case .notAnObject: "an object mapping bundle IDs to {\"keyFile\", \"keyId\", \"issuerId\"}"
        case .invalidBundleId: CredentialValidation.bundleIdRule
        case .entryNotAnObject: "an object with keyFile, keyId and issuerId (strings)"
        case .invalidMember(_, _, let expected, _): expected
        }
    }

    /// What the field is.
    package var found: String {
        switch self {
        case .notJSON(let detail): detail
        case .notAnObject(let found), .entryNotAnObject(_, let found), .invalidMember(_, _, _, let found): found
        case .invalidBundleId(let bundleId): Self.describe(bundleId)
        }
    }

    /// A value for a message: quoted when short, else only its length (it may be a key pasted
    /// into the wrong field).
    static func describe(_ value: String) -> String {
        value.count > 40 || KeyDecoder.looksLikeKeyMaterial(value)
            ? "a string of \(value.count) characters (not shown)" : "\"\(value)\""
    }
}

extension AppCredentialsError: LocalizedError {
    package var errorDescription: String? {
        switch self {
        case .notJSON(let detail): "not JSON: \(detail)"
        case .invalidBundleId(let bundleId): "\(Self.describe(bundleId)) is not a bundle ID: expected \(expected)"
        default: "\(field): expected \(expected), found \(found)"
        }
    }
}
