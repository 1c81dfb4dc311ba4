/// A member of a campaign file that the format lets leave out, as the shape reader found it.
///
/// The rules tell "left out" (which some rules check, such as a subscription offer without a
/// duration) from "there, but not readable" (a shape problem, already reported): a rule that
/// needs an unreadable part is skipped, so that it does not report a second, misleading problem.
enum DraftPart<Value> {
    /// Not in the file, or `null`.
    case absent
    /// In the file with a shape problem, which is reported.
    case unreadable
    /// Read.
    case present(Value)

    /// The part as read: `value` when it is there, ``absent`` when `isThere` is false, and
    /// ``unreadable`` when it is there but could not be read.
    init(_ value: Value?, isThere: Bool) {
        if let value {
            self = .present(value)
        } else {
            self = isThere ? .unreadable : .absent
        }
    }

    /// The value, or `nil` when the part is absent or unreadable.
    var value: Value? {
        if case .present(let value) = self { return value }
        return nil
    }

    /// Whether the rules can rely on the part: it is absent, or it was read.
    var isKnown: Bool {
        if case .unreadable = self { return false }
        return true
    }

    /// The value for the complete model: `.some(nil)` when absent, `nil` when unreadable.
    var modelValue: Value?? {
        switch self {
        case .absent: .some(nil)
        case .unreadable: nil
        case .present(let value): .some(value)
        }
    }
}

extension DraftPart: Sendable where Value: Sendable {}
