import Foundation
import OfferCodes
import OfferLedger

/// `codes claim --format json`: one object with every field.
struct ClaimedCode: Encodable {
    let code: String
    let url: String
    let campaign: String
    let offer: String
    let recipient: String
    /// `custom` or `oneTimeUse`.
    let kind: String
    /// The batch's position in the offer's `customCodes` or `oneTimeUseCodes` (1 = the first).
    let batch: Int
    let redemptionLimit: Int
    let shared: Bool
    let expirationDate: String?
    /// `PRODUCTION` or `SANDBOX`.
    let environment: String
    /// `export` or `claim`: how the code was first handed out.
    let channel: String
    let assignedAt: String
    /// Whether the code was handed out by this claim (`false`: the recipient already held it).
    let new: Bool

    init(_ assignment: CodeAssignment, url: String) {
        code = assignment.code.code
        self.url = url
        campaign = assignment.campaign
        offer = assignment.code.offer
        recipient = assignment.recipient
        kind = assignment.code.kind.rawValue
        batch = assignment.code.batchIndex + 1
        redemptionLimit = assignment.code.redemptionLimit
        shared = assignment.isShared
        expirationDate = assignment.code.expirationDate?.description
        environment = assignment.code.environment.rawValue
        channel = assignment.channel.rawValue
        assignedAt = Self.timestamp(assignment.assignedAt)
        new = assignment.isNew
    }

    /// ISO 8601 in UTC with milliseconds, as the ledger and exports write it.
    static func timestamp(_ date: Date) -> String { LedgerTimestamp.text(date) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(url, forKey: .url)
        try container.encode(campaign, forKey: .campaign)
        try container.encode(offer, forKey: .offer)
        try container.encode(recipient, forKey: .recipient)
        try container.encode(kind, forKey: .kind)
        try container.encode(batch, forKey: .batch)
        try container.encode(redemptionLimit, forKey: .redemptionLimit)
        try container.encode(shared, forKey: .shared)
        try container.encode(expirationDate, forKey: .expirationDate)  // null when the code does not expire
        try container.encode(environment, forKey: .environment)
        try container.encode(channel, forKey: .channel)
        try container.encode(assignedAt, forKey: .assignedAt)
        try container.encode(new, forKey: .new)
    }

    private enum CodingKeys: String, CodingKey {
        case code, url, campaign, offer, recipient, kind, batch, redemptionLimit, shared, expirationDate
        case environment, channel, assignedAt, new
    }
}
