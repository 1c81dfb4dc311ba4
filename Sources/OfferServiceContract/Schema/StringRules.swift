import Foundation
import OfferCodes
import OfferJSON
import OfferSigning

/// What a string must look like. Each ``Format`` is both written to the document (as `format` or
/// `pattern`) and checked by ``SchemaValidator`` with the same rule, natively.
public struct StringRules: Sendable {
    /// A named string shape with its own check.
    public enum Format: String, Sendable, CaseIterable {
        /// Text without control characters (U+0000–U+001F, U+007F–U+009F) or U+2063, the rule
        /// the signing library applies to identifiers.
        case plainText
        /// A UUID, 8-4-4-4-12 hexadecimal digits, either case.
        case uuid
        /// A random UUID (version 4, RFC 9562 variant), as JWS nonces must be.
        case uuidV4
        /// Three upper-case letters A–Z: an ISO 4217 currency or ISO 3166-1 alpha-3 code.
        case alpha3
        /// A bundle ID: letters, digits, `-` and `.`, no empty component, at most 255 bytes.
        case bundleId
        /// A calendar date `YYYY-MM-DD` that exists (no month 13, no February 30), as the offer-code
        /// library parses it.
        case date
        /// A recipient id, by the offer-code library's rule (`RecipientId`): not empty, at most
        /// 256 UTF-8 bytes, no control characters (U+0000–U+001F, U+007F–U+009F). The pattern
        /// checks the characters; the byte bound is checked natively (JSON Schema counts characters).
        case recipientId
        /// A campaign name, by the offer-code library's rule (`CampaignLimits.nameProblem(_:)`): 1-64
        /// letters A-Z a-z, digits, `-`, `_` and `.`.
        case campaignName

        /// The JSON Schema `pattern` for this format.
        public var pattern: String {
            switch self {
            case .plainText: #"^[^\u0000-\u001F\u007F-\u009F\u2063]*$"#
            case .uuid: "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
            case .uuidV4: "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$"
            case .alpha3: "^[A-Z]{3}$"
            case .bundleId: #"^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$"#
            case .date: "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
            case .recipientId: #"^[^\u0000-\u001F\u007F-\u009F]+$"#
            case .campaignName: "^[A-Za-z0-9._-]{1,\(CampaignLimits.maximumNameLength)}$"
            }
        }

        /// The JSON Schema `format` for this format, when there is a standard one.
        public var standardFormat: String? {
            switch self {
            case .uuid, .uuidV4: "uuid"
            case .date: "date"
            case .plainText, .bundleId, .alpha3, .recipientId, .campaignName: nil
            }
        }

        /// What is expected, for error messages.
        public var expected: String {
            switch self {
            case .plainText: "text without control characters or U+2063"
            case .uuid: "a UUID (8-4-4-4-12 hexadecimal digits)"
            case .uuidV4: "a random UUID (version 4)"
            case .alpha3: "three upper-case letters A–Z"
            case .bundleId: "a bundle ID (letters, digits, '-' and '.', at most 255 bytes, e.g. com.example.app)"
            case .date: "a calendar date YYYY-MM-DD"
            case .recipientId:
                "a recipient id: 1-\(RecipientId.maximumBytes) UTF-8 bytes without control characters (line breaks, "
                    + "tabs, NUL)"
            case .campaignName:
                "a campaign name: 1-\(CampaignLimits.maximumNameLength) characters, letters A-Z a-z, digits 0-9, '-', "
                    + "'_' and '.'"
            }
        }

        /// Whether `value` has this format.
        public func matches(_ value: String) -> Bool {
            let utf8 = value.utf8
            switch self {
            case .plainText:
                // The signing library's own rule for identifiers.
                return Check.isPlainText(utf8)
            case .uuid:
                // The signing library's own UUID check (issuer IDs, nonces).
                return CredentialValidation.isUUID(value)
            case .uuidV4:
                // The signing library's own rule for nonces (version 4, RFC 9562 variant).
                return Format.uuid.matches(value) && UUID(uuidString: value)?.isVersion4 == true
            case .alpha3:
                return utf8.count == 3 && utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
            case .bundleId:
                // The signing library's own rule (at most 255 bytes), as the signer applies it.
                return CredentialValidation.isBundleId(value)
            case .date:
                // The offer-code library's own parser: a real day of the proleptic Gregorian calendar.
                return CalendarDate(value) != nil
            case .recipientId:
                // The offer-code library's own rule, as the ledger applies it.
                return RecipientId.problem(value) == nil
            case .campaignName:
                // The offer-code library's own rule, as campaign validation applies it.
                return CampaignLimits.nameProblem(value) == nil
            }
        }
    }

    public var format: Format?
    /// Inclusive bounds on the length in Unicode scalars (as JSON Schema counts).
    public var minLength: Int?
    public var maxLength: Int?
    /// When set, the string must be one of these values.
    public var allowed: [String]?

    public init(format: Format? = nil, minLength: Int? = nil, maxLength: Int? = nil, allowed: [String]? = nil) {
        self.format = format
        self.minLength = minLength
        self.maxLength = maxLength
        self.allowed = allowed
    }

    /// Non-empty plain text of at most `maxLength` characters (the signing library's identifier rule).
    public static func identifier(maxLength: Int? = nil) -> StringRules {
        StringRules(format: .plainText, minLength: 1, maxLength: maxLength)
    }
}
