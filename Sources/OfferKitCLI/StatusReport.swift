import Foundation
import OfferCodes
import OfferLedger

/// What `offerkit codes status` prints: a table per offer (``text``), or the library's
/// ``CampaignStatusReport`` as JSON (the members `GET /v1/campaigns/{name}/status` answers with).
struct StatusReport {
    /// The status, as the library encodes it.
    let report: CampaignStatusReport
    /// Offers of the campaign file that the ledger does not hold (not generated yet): the table
    /// lists them, and with `--format json` a note on stderr names them (the JSON is the ledger's).
    let unrecordedOffers: [String]
    /// Whether the campaign file declares promotional, introductory or win-back offers.
    let declaresSubscriptionOffers: Bool

    init(
        _ status: CampaignStatus, today: CalendarDate, unrecordedOffers: [String], resources: [ConnectResource] = [],
        declaresSubscriptionOffers: Bool = false
    ) {
        report = CampaignStatusReport(status, today: today, resources: resources)
        self.unrecordedOffers = unrecordedOffers
        self.declaresSubscriptionOffers = declaresSubscriptionOffers
    }

    /// The notes printed on stderr with `--format json`: one per offer the ledger does not hold.
    var notes: [String] {
        unrecordedOffers.map { "note: offer \"\($0)\" is not in the ledger yet (offerkit codes generate records it)" }
    }

    // MARK: Text

    /// The report as a table per offer, then the quarter's usage.
    var text: String {
        let status = report.status
        let usage = status.usage
        var lines = ["Campaign \(status.campaign) (app \(status.appAppleId)), as of \(report.today)"]
        for offer in status.offers {
            lines.append("")
            lines.append("Offer \"\(offer.name)\": \(offer.active ? "active" : "inactive")")
            var rows = [
                [
                    "batch", "environment", "quarter", "expires", "limit", "recorded", "in ledger", "assigned", "left",
                    "",
                ]
            ]
            for entry in offer.batches {
                let batch = entry.batch
                var notes: [String] = []
                if entry.expired { notes.append("expired: no longer handed out") }
                if CampaignStatusReport.isAwaitingImport(entry) {
                    notes.append("not imported yet (offerkit codes fetch, or codes import)")
                }
                if entry.isShared {
                    let personal = offer.batches.contains { !$0.isShared && $0.batch.environment == batch.environment }
                    notes.append(
                        personal
                            ? "shared: not handed out (the offer has personal codes)"
                            : "shared: assigned counts recipients, left redemptions")
                }
                rows.append([
                    (batch.kind == .custom ? "custom " : "one-time-use ") + String(batch.index + 1),
                    batch.environment.rawValue, batch.quarter, batch.expirationDate?.description ?? "never",
                    Self.number(batch.redemptionLimit), Self.number(batch.codeCount), Self.number(entry.storedCodes),
                    Self.number(entry.assigned), Self.number(entry.left), notes.joined(separator: "; "),
                ])
            }
            for total in CampaignStatusReport.totals(of: offer) {
                rows.append([
                    "total", total.environment.rawValue, "", "", "", Self.number(total.codeCount),
                    Self.number(total.storedCodes), Self.number(total.assigned), Self.number(total.left),
                    "left: what claims and exports can still hand out",
                ])
            }
            lines += Self.table(rows, rightAligned: 4...8).map { "  " + $0 }
            lines += connectLines(offer: offer.name)
        }
        for name in unrecordedOffers {
            lines.append("")
            lines.append("Offer \"\(name)\": not in the ledger yet (offerkit codes generate records it)")
        }
        lines += subscriptionOfferLines()
        lines.append("")
        lines.append(
            "App \(status.appAppleId) in \(usage.quarter): \(Self.number(usage.productionCodes)) of "
                + "\(Self.number(usage.productionLimit)) production codes, \(Self.number(usage.sandboxCodes)) of "
                + "\(Self.number(usage.sandboxLimit)) sandbox codes, \(usage.activeOffers) of "
                + "\(usage.activeOfferLimit) active offers")
        return lines.joined(separator: "\n")
    }

    /// A resource's state for people: `created (id 6450000101)`, `failed: <Apple's errors>`, …
    private static func describe(_ resource: ConnectResource) -> String {
        var text = resource.state.rawValue
        if let id = resource.id { text += " (id \(id))" }
        if resource.state == .sent { text += ": outcome unknown, looked up before it is sent again" }
        if resource.state != .created, let error = resource.error { text += ": \(error)" }
        return text
    }

    /// What `codes apply` did with the campaign's promotional, introductory and win-back offers:
    /// one line each, or that they are not applied yet.
    private func subscriptionOfferLines() -> [String] {
        let own = report.resources.filter { $0.offerKind != .offerCode }
        guard declaresSubscriptionOffers || !own.isEmpty else { return [] }
        var lines = ["", "Promotional, introductory and win-back offers in App Store Connect:"]
        if own.isEmpty { lines.append("  not applied yet (offerkit codes apply)") }
        for resource in own { lines.append("  \(resource.label): \(Self.describe(resource))") }
        return lines
    }

    /// What `codes apply` did with the offer's App Store Connect resources: the offer and each
    /// one-time-use batch on a line, custom codes counted by state, and every resource that is not
    /// created listed with its error.
    private func connectLines(offer: String) -> [String] {
        let own = report.resources.filter { $0.offerKind == .offerCode && $0.offer == offer }
        guard !own.isEmpty else { return ["  App Store Connect: not applied yet (offerkit codes apply)"] }
        let describe = Self.describe
        var lines = ["  App Store Connect:"]
        for resource in own where resource.kind != .customCode {
            let name = resource.kind == .offer ? "offer" : "one-time-use \((Int(resource.key) ?? 0) + 1)"
            lines.append("    \(name) (\(resource.requestId)): \(describe(resource))")
        }
        let codes = own.filter { $0.kind == .customCode }
        if !codes.isEmpty {
            let counts = Dictionary(grouping: codes, by: \.state).mapValues(\.count)
            let parts = [ConnectResource.State.created, .planned, .sent, .failed].compactMap { state in
                counts[state].map { "\(Self.number($0)) \(state.rawValue)" }
            }
            lines.append("    custom codes: " + parts.joined(separator: ", "))
            for resource in codes where resource.state == .failed || resource.state == .sent {
                lines.append("      \(resource.requestId) (\(resource.key)): \(describe(resource))")
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
