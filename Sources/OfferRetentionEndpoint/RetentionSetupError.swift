import Foundation

/// A ``RetentionResponder`` that cannot be made from its apps and settings.
public enum RetentionSetupError: Error, Equatable, Sendable {
    /// Two apps have the same App Apple ID, so a request could not tell them apart.
    case duplicateAppAppleId(Int64, bundleIds: [String])
    /// An App Apple ID outside 1…2^53.
    case invalidAppAppleId(Int64, bundleId: String)
    /// No environment is accepted.
    case noEnvironments
    /// No root certificate is trusted.
    case noTrustedRoots
    /// A setting is out of its range.
    case outOfRange(setting: String, expected: String)
}

extension RetentionSetupError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .duplicateAppAppleId(let id, let bundleIds):
            "apps \(bundleIds.joined(separator: " and ")) have the same App Apple ID \(id): each app needs its own"
        case .invalidAppAppleId(let id, let bundleId):
            "app \(bundleId): App Apple ID \(id) is not a positive integer up to 2^53"
        case .noEnvironments: "no environment is accepted: name Sandbox, Production or both"
        case .noTrustedRoots: "no root certificate is trusted"
        case .outOfRange(let setting, let expected): "\(setting): expected \(expected)"
        }
    }
}
