import Foundation
import OfferCodes
import OfferConnect
import OfferConnectAPI
import OfferJSON
import OfferKitSigningCLI
import OfferLedger

/// `codes apply --dry-run`: for each resource of the plan, what the ledger says about it and what
/// a run would do, without sending anything.
struct DryRunReport {
    let campaign: Campaign
    let requests: [PlannedRequest]
    let recorded: [ConnectResource]

    /// What a run would do with one resource.
    enum Action: String {
        case create = "would be created"
        case exists = "exists"
        case lookUp = "outcome unknown: looked up in App Store Connect first, created only if missing"
        case retry = "refused before: sent again"
        case changed =
            "created from other values than the campaign now has: apply refuses to run (App Store Connect cannot edit it)"
    }

    private func entries() -> [(request: PlannedRequest, resource: ConnectResource?, action: Action)] {
        let byIdentity = Dictionary(recorded.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
        let now = Date()
        return requests.map { request in
            let resource = byIdentity[ConnectResource(planned: request, campaign: campaign, now: now).identity]
            let action: Action =
                switch resource?.state {
                case .created where resource?.bodyDigest != request.bodyDigest: .changed
                case .created: .exists
                case .sent: .lookUp
                case .failed: .retry
                case .planned, nil: .create
                }
            return (request, resource, action)
        }
    }

    func print(format: OutputFormat) throws {
        let entries = entries()
        switch format {
        case .json:
            let items: [JSONValue] = entries.map { entry in
                var members: [(key: String, value: JSONValue)] = [
                    ("request", .string(entry.request.id)),
                    ("offerKind", .string(entry.request.subject.offerKind.rawValue)),
                    ("offer", .string(offer(entry.request))),
                    ("kind", .string(entry.request.subject.kind.rawValue)),
                    ("state", .string(entry.resource?.state.rawValue ?? "planned")),
                    ("action", .string(Self.actionName(entry.action))),
                ]
                if let id = entry.resource?.id { members.append(("id", .string(id))) }
                if let error = entry.resource?.error { members.append(("error", .string(error))) }
                return .object(members)
            }
            Output.line(
                String(
                    decoding: JSONValue.object([("campaign", .string(campaign.name)), ("resources", .array(items))])
                        .serialized(pretty: true), as: UTF8.self))
        case .text:
            var lines = ["campaign \(campaign.name): nothing is sent (--dry-run)"]
            for (offerIndex, offer) in campaign.offers.enumerated() {
                let own = entries.filter {
                    $0.request.subject.offerKind == .offerCode && $0.request.subject.offerIndex == offerIndex
                }
                for entry in own where entry.request.subject.kind != .customCode {
                    lines.append(
                        "  \(entry.request.id) (\(entry.request.subject.kind == .offer ? "offer \(ProblemText.quoted(offer.referenceName))" : "one-time-use batch")): \(describe(entry))"
                    )
                }
                let codes = own.filter { $0.request.subject.kind == .customCode }
                if !codes.isEmpty {
                    let counts = Dictionary(grouping: codes, by: \.action).mapValues(\.count)
                    let parts = [Action.exists, .create, .lookUp, .retry, .changed].compactMap { action in
                        counts[action].map {
                            "\(ProgressReporter.grouped($0)) \(action == .exists && $0 != 1 ? "exist" : action.rawValue)"
                        }
                    }
                    lines.append(
                        "  \(codes.count) custom code\(codes.count == 1 ? "" : "s") of offer \(ProblemText.quoted(offer.referenceName)): "
                            + parts.joined(separator: ", "))
                    for entry in codes where entry.action != .exists && entry.action != .create {
                        lines.append("    \(entry.request.id): \(describe(entry))")
                    }
                }
            }
            for entry in entries where entry.request.subject.offerKind != .offerCode {
                let resource = ConnectResource(planned: entry.request, campaign: campaign, now: Date())
                lines.append("  \(resource.label): \(describe(entry))")
            }
            let counts = Dictionary(grouping: entries, by: \.action).mapValues(\.count)
            lines.append(
                "  total: \(counts[.exists] ?? 0) exist, \(counts[.create] ?? 0) would be created, "
                    + "\(counts[.lookUp] ?? 0) looked up first, \(counts[.retry] ?? 0) sent again after a refusal"
                    + ((counts[.changed] ?? 0) > 0 ? ", \(counts[.changed] ?? 0) changed: apply refuses to run" : ""))
            Output.line(lines.joined(separator: "\n"))
        }
    }

    /// What identifies the request's offer: an offer code's reference name, a promotional or
    /// win-back offer's identifier, an introductory offer's subscription id.
    private func offer(_ request: PlannedRequest) -> String {
        request.subject.name ?? campaign.offers[request.subject.offerIndex].referenceName
    }

    private func describe(_ entry: (request: PlannedRequest, resource: ConnectResource?, action: Action)) -> String {
        switch entry.action {
        case .exists: "exists (id \(entry.resource?.id ?? "?"))"
        case .retry: "\(entry.action.rawValue) (\(entry.resource?.error ?? ""))"
        default: entry.action.rawValue
        }
    }

    private static func actionName(_ action: Action) -> String {
        switch action {
        case .create: "create"
        case .exists: "none"
        case .lookUp: "look-up"
        case .retry: "create-again"
        case .changed: "refuse"
        }
    }
}
