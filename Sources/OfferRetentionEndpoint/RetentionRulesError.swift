import Foundation

/// Rules that cannot be used. Each case names the JSON path of the field at fault, such as
/// `retention.apps["com.example.offerkit.demo"][2].promotionalOffer.signature`, what was expected
/// and what was found.
public enum RetentionRulesError: Error, Equatable, Sendable {
    /// A field is missing, unknown, of the wrong type or not allowed.
    case invalid(path: String, expected: String, found: String)
    /// An app has more rules than ``RetentionRules/maximumCount``.
    case tooManyRules(path: String, count: Int, limit: Int)
    /// An `advancedCommerceInfo.request` that the signing library refuses; `detail` is its reason.
    case invalidRequest(path: String, detail: String)

    /// The path of the field at fault.
    public var path: String {
        switch self {
        case .invalid(let path, _, _), .tooManyRules(let path, _, _), .invalidRequest(let path, _): path
        }
    }
}

extension RetentionRulesError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .invalid(let path, let expected, let found): "\(path): expected \(expected), found \(found)"
        case .tooManyRules(let path, let count, let limit):
            "\(path): expected at most \(limit) rules, found \(count)"
        case .invalidRequest(let path, let detail): "\(path): \(detail)"
        }
    }
}
