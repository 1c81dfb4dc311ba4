/// A value from a closed list of names, such as an App Store environment (`PRODUCTION`), a payment
/// mode (`FREE_TRIAL`) or an output format (`json`): read in any case, written in one spelling.
///
/// The one spelling is `rawValue`: Apple's where Apple names the value (App Store Connect's
/// `PRODUCTION`, the App Store Server API's `Production`), OfferKit's otherwise. Every reader of
/// input (campaign files, command-line flags, HTTP bodies, configuration files) goes through
/// ``init(anyCase:)`` or ``read(_:field:)``, so `production`, `Production` and `PRODUCTION` are one
/// value everywhere, and every writer writes `rawValue`.
///
/// Case is folded for ASCII letters only: `ſandbox` (with U+017F, whose upper case is `S`) or a
/// Turkish dotless `ı` is no spelling of anything.
public protocol EnumeratedValue: RawRepresentable<String>, CaseIterable, Sendable {}

extension EnumeratedValue {
    /// The value spelled `text` in any case (ASCII letters compared without case), or `nil`.
    public init?(anyCase text: String) {
        guard let index = Self.spellings.firstIndex(where: { EnumeratedSpelling.equalIgnoringCase($0, text) }) else {
            return nil
        }
        self = Self.allCases[Self.allCases.index(Self.allCases.startIndex, offsetBy: index)]
    }

    /// Every value's spelling, in declaration order: what output writes and errors list.
    public static var spellings: [String] { allCases.map(\.rawValue) }

    /// The value spelled `text` in any case.
    /// - Parameter field: where `text` was read, for the error: `environment`, `--format`,
    ///   `$.offers[0].paymentMode`, `retention.environments[1]`.
    /// - Throws: ``EnumeratedValueError`` naming `field`, the value given (bounded, control
    ///   characters escaped) and the accepted spellings.
    public static func read(_ text: String, field: String) throws(EnumeratedValueError) -> Self {
        guard let value = Self(anyCase: text) else {
            throw EnumeratedValueError(field: field, given: text, accepted: spellings)
        }
        return value
    }
}
