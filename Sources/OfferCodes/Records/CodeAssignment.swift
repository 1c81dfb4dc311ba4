import Foundation

/// One code handed out to one recipient, as the ledger records it.
///
/// A recipient holds at most one code per campaign, offer and environment. A personal code
/// (redemption limit 1: Apple's one-time-use codes, and custom codes redeemable once) is handed
/// out to one recipient only. A shared custom code (redemption limit above 1) is the campaign's
/// code: it is handed out to as many recipients as its redemption limit, and never becomes
/// anyone's own.
public struct CodeAssignment: Sendable, Equatable {
    /// Who received it: the opaque id the caller chose (see ``RecipientId``).
    public var recipient: String
    /// The campaign's name.
    public var campaign: String
    /// The code, with its offer and batch.
    public var code: IssuedCode
    /// How it was handed out the first time.
    public var channel: AssignmentChannel
    /// When it was handed out the first time.
    public var assignedAt: Date
    /// `false` when the recipient already had this code (a retried export or claim).
    public var isNew: Bool

    public init(
        recipient: String, campaign: String, code: IssuedCode, channel: AssignmentChannel, assignedAt: Date,
        isNew: Bool
    ) {
        self.recipient = recipient
        self.campaign = campaign
        self.code = code
        self.channel = channel
        self.assignedAt = assignedAt
        self.isNew = isNew
    }

    /// How many recipients an assignment or a lookup reads from the ledger at once.
    package static let chunkSize = 2_000

    /// Whether the code is shared (its redemption limit is above 1): the campaign's code, not the
    /// recipient's own.
    public var isShared: Bool { code.redemptionLimit > 1 }
}

/// How a code was handed out.
public enum AssignmentChannel: String, Sendable, CaseIterable, Codable {
    /// In a file written by `offerkit codes export --recipients`.
    case export
    /// One at a time, by `offerkit codes claim` or `POST /v1/codes/claim`.
    case claim
}
