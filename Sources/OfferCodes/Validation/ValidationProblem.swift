import Foundation
import OfferJSON

/// One problem found in a campaign: where it is (a JSON path such as
/// `$.offers[1].prices[0].pricePoint`), what is wrong and what is allowed.
public struct ValidationProblem: Sendable, Equatable, CustomStringConvertible {
    /// The JSON path of the field, `$` for the whole document.
    public var path: String
    /// What is wrong, for a person, without the path.
    public var message: String
    /// What would be accepted, for example `one of FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT`.
    public var allowed: String?
    /// A stable identifier of the rule, for example `payment-mode-for-product-type` (tests and
    /// machine-readable output use it).
    public var rule: String

    public init(path: String, rule: String, message: String, allowed: String? = nil) {
        self.path = path
        self.rule = rule
        self.message = message
        self.allowed = allowed
    }

    /// `path: message (allowed: …)`.
    public var description: String {
        "\(path): \(message)" + (allowed.map { " (allowed: \($0))" } ?? "")
    }

    /// The problem as JSON, as `offerkit codes validate --format json` and the service write it:
    /// `{"path", "rule", "message", "allowed"?}` in that order, `allowed` only when there is one.
    package func jsonValue() -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("path", .string(path)), ("rule", .string(rule)), ("message", .string(message)),
        ]
        if let allowed { members.append(("allowed", .string(allowed))) }
        return .object(members)
    }
}

/// Thrown when a campaign has problems; carries every problem found, not just the first.
public struct CampaignProblems: Error, Sendable, Equatable {
    public var problems: [ValidationProblem]
    /// A line after the problems about all of them (which day "today" is, when it is not today).
    public var note: String?

    public init(_ problems: [ValidationProblem], note: String? = nil) {
        self.problems = problems
        self.note = note
    }
}

extension CampaignProblems: CustomStringConvertible, LocalizedError {
    public var errorDescription: String? { description }

    public var description: String {
        let count = problems.count
        let header = "the campaign has \(count) problem\(count == 1 ? "" : "s"):"
        return ([header] + problems.map { "  \($0)" } + (note.map { [$0] } ?? [])).joined(separator: "\n")
    }
}
