import OfferJSON

/// A claimed code as JSON: what `offerkit codes claim --format json` prints and
/// `POST /v1/codes/claim` answers, from this one encoder, so both have the same members.
///
/// ```json
/// {"code": "VIPK7M2QX9R", "url": "https://apps.apple.com/redeem?ctx=offercodes&id=1234567890&code=VIPK7M2QX9R",
///  "campaign": "spring-2027", "offer": "Spring half price, 3 months", "recipient": "user-8412", "kind": "custom",
///  "batch": 2, "redemptionLimit": 1, "shared": false, "expirationDate": null, "environment": "PRODUCTION",
///  "channel": "claim", "assignedAt": "2027-03-15T09:30:00.125Z", "new": true}
/// ```
///
/// Every member is always present (`expirationDate` is `null` for a code that does not expire).
public struct CodeClaimReport: Sendable, Equatable {
    /// The code handed out, as the ledger recorded it.
    public var assignment: CodeAssignment
    /// The App Apple ID of the campaign's app, for the redemption link.
    public var appAppleId: String

    public init(_ assignment: CodeAssignment, appAppleId: String) {
        self.assignment = assignment
        self.appAppleId = appAppleId
    }

    /// The App Store link that opens the redemption sheet with the code filled in.
    public var url: String { RedemptionLink.url(appAppleId: appAppleId, code: assignment.code.code) }

    /// The report as JSON text, compact (as the service answers and the CLI prints it) or
    /// `pretty`: the members in the documented order.
    public func jsonText(pretty: Bool = false) -> String { json.text(pretty: pretty) }

    /// The report as JSON, members in the documented order.
    package var json: JSONValue {
        let code = assignment.code
        return .object([
            ("code", .string(code.code)), ("url", .string(url)),
            ("campaign", .string(assignment.campaign)), ("offer", .string(code.offer)),
            ("recipient", .string(assignment.recipient)), ("kind", .string(code.kind.rawValue)),
            ("batch", .integer(code.batchIndex + 1)), ("redemptionLimit", .integer(code.redemptionLimit)),
            ("shared", .bool(assignment.isShared)),
            ("expirationDate", code.expirationDate.map { .string($0.description) } ?? .null),
            ("environment", .string(code.environment.rawValue)), ("channel", .string(assignment.channel.rawValue)),
            ("assignedAt", .string(LedgerTimestamp.text(assignment.assignedAt))), ("new", .bool(assignment.isNew)),
        ])
    }
}
