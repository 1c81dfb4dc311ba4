import OfferConnectAPI

/// What a `codes apply` run did, for its closing lines and its exit status.
public struct ApplySummary: Sendable, Equatable {
    /// One resource App Store Connect refused, with its errors.
    public struct Refusal: Sendable, Equatable {
        /// ``ConnectResource/label``.
        public var resource: String
        public var errors: [AppleErrorDetail]
    }

    /// Resources the plan holds.
    public var planned = 0
    /// Created by this run.
    public var created = 0
    /// Created before (recorded in the ledger), or found in App Store Connect after an unknown outcome.
    public var alreadyThere = 0
    /// Refused by App Store Connect in this run.
    public var refused: [Refusal] = []
    /// Not sent because the offer they belong to was not created.
    public var skipped = 0
    /// Not finished: the run stopped before them, or their outcome is still unknown (recorded as
    /// `sent`; the next run looks them up first).
    public var unfinished = 0
    /// Requests sent (every attempt, lookups and `values` included).
    public var requests = 0
    /// One-time-use batches whose codes this run imported, with the number of codes.
    public var imported: [(resource: String, codes: Int)] = []
    /// One-time-use batches whose codes App Store Connect had not produced in time: fetch them
    /// later with `offerkit codes fetch`.
    public var codesPending: [String] = []
    /// Problems with Apple's codes (a count other than asked for, codes the ledger holds already).
    public var importProblems: [String] = []
    /// The last rate-limit status App Store Connect reported.
    public var rateLimit: RateLimitStatus?
    /// Why the run stopped early, when it did.
    public var stoppedBy: ConnectError?
    /// How long the run took.
    public var duration: Duration = .zero

    public static func == (lhs: ApplySummary, rhs: ApplySummary) -> Bool {
        lhs.planned == rhs.planned && lhs.created == rhs.created && lhs.alreadyThere == rhs.alreadyThere
            && lhs.refused == rhs.refused && lhs.skipped == rhs.skipped && lhs.unfinished == rhs.unfinished
            && lhs.imported.map(\.resource) == rhs.imported.map(\.resource)
            && lhs.imported.map(\.codes) == rhs.imported.map(\.codes) && lhs.codesPending == rhs.codesPending
            && lhs.importProblems == rhs.importProblems && lhs.stoppedBy == rhs.stoppedBy
    }
}
