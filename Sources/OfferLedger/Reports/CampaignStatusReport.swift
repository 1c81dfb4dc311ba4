import OfferCodes
import OfferJSON

/// A campaign's status as JSON: what `offerkit codes status --format json` prints and
/// `GET /v1/campaigns/{name}/status` answers, from this one encoder, so both have the same members.
///
/// ```json
/// {"campaign": "spring-2027", "appAppleId": "1234567890", "today": "2027-03-15",
///  "offers": [{"offer": "Spring half price, 3 months", "active": true,
///              "batches": [{"kind": "custom", "batch": 2, "environment": "PRODUCTION", "quarter": "2027-Q1",
///                           "expirationDate": null, "expired": false, "redemptionLimit": 1, "shared": false,
///                           "codeCount": 200, "storedCodes": 200, "awaitingImport": false, "assigned": 57,
///                           "left": 143}],
///              "totals": [{"environment": "PRODUCTION", "codeCount": 200, "storedCodes": 200, "assigned": 57,
///                          "left": 143}]}],
///  "usage": {"quarter": "2027-Q1", "productionCodes": 12000, "productionLimit": 1000000, …},
///  "appStoreConnect": [{"request": "offer-1", "offerKind": "offerCode", "offer": "…", "kind": "offer",
///                       "key": "", "state": "created", "id": "6450000101", "error": null,
///                       "updatedAt": "2027-03-15T09:30:00.125Z"}]}
/// ```
///
/// Every member is always present (`null` when it has no value). It reads the ledger's values
/// (``CampaignStatus``, `ConnectResource`) and adds what follows from them: per batch whether it
/// is shared or awaits its import, per offer and environment the totals.
public struct CampaignStatusReport: Sendable, Equatable {
    /// The ledger's status of the campaign.
    public var status: CampaignStatus
    /// The day the status was taken (UTC): batches that expired before it are marked.
    public var today: CalendarDate
    /// The campaign's App Store Connect resources, as `codes apply` recorded them (plan order).
    public var resources: [ConnectResource]

    public init(_ status: CampaignStatus, today: CalendarDate, resources: [ConnectResource]) {
        self.status = status
        self.today = today
        self.resources = resources
    }

    /// What one offer holds in one environment, over its batches.
    public struct Totals: Sendable, Equatable {
        public var environment: CodeEnvironment
        /// The codes recorded (one-time-use: the number asked of Apple).
        public var codeCount: Int
        /// The codes the ledger holds.
        public var storedCodes: Int
        /// Codes handed out (shared codes: recipients).
        public var assigned: Int
        /// What claims and exports can still hand out: left in the batches that have not expired,
        /// of the personal batches when the environment has any, else of the shared ones.
        public var left: Int
    }

    /// One entry per environment `offer` has batches in, production first. A sum that does not
    /// fit is `Int.max`.
    public static func totals(of offer: CampaignStatus.Offer) -> [Totals] {
        CodeEnvironment.allCases.compactMap { environment in
            let batches = offer.batches.filter { $0.batch.environment == environment }
            guard !batches.isEmpty else { return nil }
            return Totals(
                environment: environment, codeCount: sum(batches.map(\.batch.codeCount)),
                storedCodes: sum(batches.map(\.storedCodes)), assigned: sum(batches.map(\.assigned)),
                left: sum(handedOut(batches).filter { !$0.expired }.map(\.left)))
        }
    }

    /// Whether `batch` is a one-time-use batch whose codes are not imported yet.
    public static func isAwaitingImport(_ batch: CampaignStatus.Batch) -> Bool {
        batch.batch.kind == .oneTimeUse && batch.storedCodes == 0
    }

    /// The batches of one environment that claims and exports hand codes out of: the personal
    /// ones when there are any (an offer with personal codes never hands out its shared ones),
    /// else the shared ones.
    public static func handedOut(_ batches: [CampaignStatus.Batch]) -> [CampaignStatus.Batch] {
        let personal = batches.contains { !$0.isShared }
        return batches.filter { $0.isShared != personal }
    }

    /// The sum, `Int.max` when it does not fit.
    static func sum(_ values: [Int]) -> Int {
        values.reduce(0) { total, value in
            let (sum, overflow) = total.addingReportingOverflow(value)
            return overflow ? .max : sum
        }
    }

    // MARK: JSON

    /// The report as JSON text, compact (as the service answers and the CLI prints it) or
    /// `pretty`: the members in the documented order.
    public func jsonText(pretty: Bool = false) -> String { json.text(pretty: pretty) }

    /// The report as JSON, members in the documented order.
    package var json: JSONValue {
        .object([
            ("campaign", .string(status.campaign)), ("appAppleId", .string(status.appAppleId)),
            ("today", .string(today.description)),
            ("offers", .array(status.offers.map(Self.json(offer:)))),
            ("usage", Self.json(usage: status.usage)),
            ("appStoreConnect", .array(resources.map(Self.json(resource:)))),
        ])
    }

    private static func json(offer: CampaignStatus.Offer) -> JSONValue {
        .object([
            ("offer", .string(offer.name)), ("active", .bool(offer.active)),
            ("batches", .array(offer.batches.map(json(batch:)))),
            ("totals", .array(totals(of: offer).map(json(totals:)))),
        ])
    }

    private static func json(batch entry: CampaignStatus.Batch) -> JSONValue {
        let batch = entry.batch
        return .object([
            ("kind", .string(batch.kind.rawValue)), ("batch", .integer(batch.index + 1)),
            ("environment", .string(batch.environment.rawValue)), ("quarter", .string(batch.quarter)),
            ("expirationDate", batch.expirationDate.map { .string($0.description) } ?? .null),
            ("expired", .bool(entry.expired)), ("redemptionLimit", .integer(batch.redemptionLimit)),
            ("shared", .bool(entry.isShared)), ("codeCount", .integer(batch.codeCount)),
            ("storedCodes", .integer(entry.storedCodes)), ("awaitingImport", .bool(isAwaitingImport(entry))),
            ("assigned", .integer(entry.assigned)), ("left", .integer(entry.left)),
        ])
    }

    private static func json(totals: Totals) -> JSONValue {
        .object([
            ("environment", .string(totals.environment.rawValue)), ("codeCount", .integer(totals.codeCount)),
            ("storedCodes", .integer(totals.storedCodes)), ("assigned", .integer(totals.assigned)),
            ("left", .integer(totals.left)),
        ])
    }

    private static func json(usage: CampaignStatus.LimitUsage) -> JSONValue {
        .object([
            ("quarter", .string(usage.quarter)), ("productionCodes", .integer(usage.productionCodes)),
            ("productionLimit", .integer(usage.productionLimit)), ("sandboxCodes", .integer(usage.sandboxCodes)),
            ("sandboxLimit", .integer(usage.sandboxLimit)), ("activeOffers", .integer(usage.activeOffers)),
            ("activeOfferLimit", .integer(usage.activeOfferLimit)),
        ])
    }

    private static func json(resource: ConnectResource) -> JSONValue {
        .object([
            ("request", .string(resource.requestId)), ("offerKind", .string(resource.offerKind.rawValue)),
            ("offer", .string(resource.offer)),
            ("kind", .string(resource.kind.rawValue)), ("key", .string(resource.key)),
            ("state", .string(resource.state.rawValue)), ("id", resource.id.map(JSONValue.string) ?? .null),
            ("error", resource.error.map(JSONValue.string) ?? .null),
            ("updatedAt", .string(LedgerTimestamp.text(resource.updatedAt))),
        ])
    }
}
