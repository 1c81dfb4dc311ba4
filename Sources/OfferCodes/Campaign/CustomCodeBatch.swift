/// A batch of custom codes: each code can be redeemed up to `redemptionLimit` times.
public struct CustomCodeBatch: Sendable, Equatable {
    /// Where the code strings come from.
    public enum Source: Sendable, Equatable {
        /// Strings chosen by marketing, for example `SPRING27`.
        case given([String])
        /// Strings OfferKit generates from a cryptographic random source.
        case generated(CodeGenerationSpec)
    }

    /// Where the code strings come from.
    public var source: Source
    /// How many times each code can be redeemed (App Store Connect's `numberOfCodes`).
    public var redemptionLimit: Int
    /// The last day the codes can be redeemed; `nil` = no expiry.
    public var expirationDate: CalendarDate?

    public init(source: Source, redemptionLimit: Int, expirationDate: CalendarDate? = nil) {
        self.source = source
        self.redemptionLimit = redemptionLimit
        self.expirationDate = expirationDate
    }

    /// How many code strings the batch holds.
    public var codeCount: Int {
        switch source {
        case .given(let codes): codes.count
        case .generated(let spec): spec.count
        }
    }
}

/// How to generate custom codes: `count` unique strings of `prefix` followed by `length`
/// characters drawn uniformly from `alphabet`.
public struct CodeGenerationSpec: Sendable, Equatable {
    /// The upper-case letters and digits without look-alikes (no 0/O, 1/I/L).
    public static let defaultAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
    /// The default number of random characters after the prefix.
    public static let defaultLength = 10
    /// The fewest random characters a campaign (and the CLI) accepts, so codes are not guessable.
    public static let minimumLength = 4

    public var count: Int
    public var prefix: String
    public var length: Int
    public var alphabet: String

    public init(count: Int, prefix: String = "", length: Int = defaultLength, alphabet: String = defaultAlphabet) {
        self.count = count
        self.prefix = prefix
        self.length = length
        self.alphabet = alphabet
    }
}
