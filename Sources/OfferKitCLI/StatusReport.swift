import Foundation
import OfferCodes
import OfferLedger

/// What `offerkit codes status` prints: a campaign's ``CampaignStatus`` with totals, as a table
/// (``text``) or as JSON (its `Encodable` shape, documented in the README).
struct StatusReport: Encodable {
    let campaign: String
    let appAppleId: String
    /// The day the status was taken (`--today`): batches that expired before it are marked.
    let today: String
    let offers: [Offer]
    /// Offers of the campaign file that the ledger does not hold (not generated yet).
    let unrecordedOffers: [String]
    let usage: Usage
    /// The campaign's App Store Connect resources, as `codes apply` recorded them (plan order).
    let appStoreConnect: [Resource]

    struct Resource: Encodable {
        /// The plan's request id, for example `offer-1-custom-code-3`.
        let request: String
        let offer: String
        /// `offer`, `oneTimeUse` or `customCode`.
        let kind: String
        /// The one-time-use batch's position (from 0), or the custom code upper-cased; empty for the offer.
        let key: String
        /// `planned`, `sent` (outcome unknown: looked up before it is sent again), `created` or `failed`.
        let state: String
        /// App Store Connect's id, once created.
        let id: String?
        /// Apple's errors (failed), or why the outcome is unknown.
        let error: String?
        let updatedAt: String
    }

    struct Offer: Encodable {
        let offer: String
        let active: Bool
        let batches: [Batch]
        /// One entry per environment the offer has batches in, production first.
        let totals: [Totals]
    }

    struct Batch: Encodable {
        /// `custom` or `oneTimeUse`.
        let kind: String
        /// Its position in the offer's `customCodes` or `oneTimeUseCodes` (1 = the first).
        let batch: Int
        /// `PRODUCTION` or `SANDBOX`.
        let environment: String
        let quarter: String
        let expirationDate: String?
        let expired: Bool
        let redemptionLimit: Int
        let shared: Bool
        /// The codes recorded for the batch (one-time-use: the number asked of Apple).
        let codeCount: Int
        /// The codes the ledger holds: generated, or imported from Apple.
        let storedCodes: Int
        /// A one-time-use batch whose codes are not imported yet.
        let awaitingImport: Bool
        /// Codes handed out (shared codes: recipients).
        let assigned: Int
        /// Codes not handed out (shared codes: redemptions not handed out).
        let left: Int
    }

    struct Totals: Encodable {
        let environment: String
        let codeCount: Int
        let storedCodes: Int
        let assigned: Int
        /// What claims and exports can still hand out: left in the batches that have not expired,
        /// of the personal batches when the environment has any, else of the shared ones.
        let left: Int
    }

    struct Usage: Encodable {
        let quarter: String
        let productionCodes: Int
        let productionLimit: Int
        let sandboxCodes: Int
        let sandboxLimit: Int
        let activeOffers: Int
        let activeOfferLimit: Int
    }

    init(
        _ status: CampaignStatus, today: CalendarDate, unrecordedOffers: [String], resources: [ConnectResource] = []
    ) {
        appStoreConnect = resources.map { resource in
            Resource(
                request: resource.requestId, offer: resource.offer, kind: resource.kind.rawValue, key: resource.key,
                state: resource.state.rawValue, id: resource.id, error: resource.error,
                updatedAt: LedgerTimestamp.text(resource.updatedAt))
        }
        campaign = status.campaign
        appAppleId = status.appAppleId
        self.today = today.description
        self.unrecordedOffers = unrecordedOffers
        offers = status.offers.map { offer in
            let batches = offer.batches.map { entry in
                Batch(
                    kind: entry.batch.kind.rawValue, batch: entry.batch.index + 1,
                    environment: entry.batch.environment.rawValue, quarter: entry.batch.quarter,
                    expirationDate: entry.batch.expirationDate?.description, expired: entry.expired,
                    redemptionLimit: entry.batch.redemptionLimit, shared: entry.isShared,
                    codeCount: entry.batch.codeCount, storedCodes: entry.storedCodes,
                    awaitingImport: entry.batch.kind == .oneTimeUse && entry.storedCodes == 0,
                    assigned: entry.assigned, left: entry.left)
            }
            let environments = [CodeEnvironment.production, .sandbox].map(\.rawValue).filter { environment in
                batches.contains { $0.environment == environment }
            }
            return Offer(
                offer: offer.name, active: offer.active, batches: batches,
                totals: environments.map { environment in
                    let ours = batches.filter { $0.environment == environment }
                    return Totals(
                        environment: environment, codeCount: Self.sum(ours.map(\.codeCount)),
                        storedCodes: Self.sum(ours.map(\.storedCodes)), assigned: Self.sum(ours.map(\.assigned)),
                        left: Self.sum(Self.handedOut(ours).filter { !$0.expired }.map(\.left)))
                })
        }
        let limits = status.usage
        usage = Usage(
            quarter: limits.quarter, productionCodes: limits.productionCodes, productionLimit: limits.productionLimit,
            sandboxCodes: limits.sandboxCodes, sandboxLimit: limits.sandboxLimit, activeOffers: limits.activeOffers,
            activeOfferLimit: limits.activeOfferLimit)
    }

    /// The batches of one environment that claims and exports hand codes out of: the personal
    /// ones when there are any (an offer with personal codes never hands out its shared ones),
    /// else the shared ones.
    static func handedOut(_ batches: [Batch]) -> [Batch] {
        let personal = batches.contains { !$0.shared }
        return batches.filter { $0.shared != personal }
    }

    /// The sum, `Int.max` when it does not fit.
    static func sum(_ values: [Int]) -> Int {
        values.reduce(0) { total, value in
            let (sum, overflow) = total.addingReportingOverflow(value)
            return overflow ? .max : sum
        }
    }

    // MARK: Text

    /// The report as a table per offer, then the quarter's usage.
    var text: String {
        var lines = ["Campaign \(campaign) (app \(appAppleId)), as of \(today)"]
        for offer in offers {
            lines.append("")
            lines.append("Offer \"\(offer.offer)\": \(offer.active ? "active" : "inactive")")
            var rows = [
                [
                    "batch", "environment", "quarter", "expires", "limit", "recorded", "in ledger", "assigned", "left",
                    "",
                ]
            ]
            for batch in offer.batches {
                var notes: [String] = []
                if batch.expired { notes.append("expired: no longer handed out") }
                if batch.awaitingImport { notes.append("not imported yet (offerkit codes fetch, or codes import)") }
                if batch.shared {
                    let personal = offer.batches.contains { !$0.shared && $0.environment == batch.environment }
                    notes.append(
                        personal
                            ? "shared: not handed out (the offer has personal codes)"
                            : "shared: assigned counts recipients, left redemptions")
                }
                rows.append([
                    (batch.kind == "custom" ? "custom " : "one-time-use ") + String(batch.batch),
                    batch.environment.lowercased(), batch.quarter, batch.expirationDate ?? "never",
                    Self.number(batch.redemptionLimit), Self.number(batch.codeCount), Self.number(batch.storedCodes),
                    Self.number(batch.assigned), Self.number(batch.left), notes.joined(separator: "; "),
                ])
            }
            for total in offer.totals {
                rows.append([
                    "total", total.environment.lowercased(), "", "", "", Self.number(total.codeCount),
                    Self.number(total.storedCodes), Self.number(total.assigned), Self.number(total.left),
                    "left: what claims and exports can still hand out",
                ])
            }
            lines += Self.table(rows, rightAligned: 4...8).map { "  " + $0 }
            lines += connectLines(offer: offer.offer)
        }
        for name in unrecordedOffers {
            lines.append("")
            lines.append("Offer \"\(name)\": not in the ledger yet (offerkit codes generate records it)")
        }
        lines.append("")
        lines.append(
            "App \(appAppleId) in \(usage.quarter): \(Self.number(usage.productionCodes)) of "
                + "\(Self.number(usage.productionLimit)) production codes, \(Self.number(usage.sandboxCodes)) of "
                + "\(Self.number(usage.sandboxLimit)) sandbox codes, \(usage.activeOffers) of "
                + "\(usage.activeOfferLimit) active offers")
        return lines.joined(separator: "\n")
    }

    /// What `codes apply` did with the offer's App Store Connect resources: the offer and each
    /// one-time-use batch on a line, custom codes counted by state, and every resource that is not
    /// created listed with its error.
    private func connectLines(offer: String) -> [String] {
        let own = appStoreConnect.filter { $0.offer == offer }
        guard !own.isEmpty else { return ["  App Store Connect: not applied yet (offerkit codes apply)"] }
        func describe(_ resource: Resource) -> String {
            var text = resource.state
            if let id = resource.id { text += " (id \(id))" }
            if resource.state == "sent" { text += ": outcome unknown, looked up before it is sent again" }
            if resource.state != "created", let error = resource.error { text += ": \(error)" }
            return text
        }
        var lines = ["  App Store Connect:"]
        for resource in own where resource.kind != "customCode" {
            let name = resource.kind == "offer" ? "offer" : "one-time-use \((Int(resource.key) ?? 0) + 1)"
            lines.append("    \(name) (\(resource.request)): \(describe(resource))")
        }
        let codes = own.filter { $0.kind == "customCode" }
        if !codes.isEmpty {
            let counts = Dictionary(grouping: codes, by: \.state).mapValues(\.count)
            let parts = ["created", "planned", "sent", "failed"].compactMap { state in
                counts[state].map { "\(Self.number($0)) \(state)" }
            }
            lines.append("    custom codes: " + parts.joined(separator: ", "))
            for resource in codes where resource.state == "failed" || resource.state == "sent" {
                lines.append("      \(resource.request) (\(resource.key)): \(describe(resource))")
            }
        }
        return lines
    }

    static func number(_ value: Int) -> String { value == .max ? "more than 9e18" : ProblemText.grouped(value) }

    /// The rows as aligned columns (two spaces apart), trailing blanks dropped.
    static func table(_ rows: [[String]], rightAligned: ClosedRange<Int>) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in
            rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
        }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        }
    }
}
