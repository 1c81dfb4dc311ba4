import Foundation
import GRDB

extension SQLiteLedger {
    /// The App Store Connect resources of a campaign, in plan order; see
    /// ``CodeLedger/connectResources(campaign:)``.
    public func connectResources(campaign: String) throws -> [ConnectResource] {
        let label = path ?? Self.memoryLabel
        return try read("read the App Store Connect resources of campaign \"\(campaign)\"") { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT campaign, offer, kind, key, request_id, resource_type, state, asc_id, body_digest, error,
                    updated_at FROM connect_resources WHERE campaign = ? ORDER BY id
                    """,
                arguments: [campaign]
            ).map { try Self.connectResource($0, path: label) }
        }
    }

    /// Records App Store Connect resources atomically; see ``CodeLedger/recordConnectResources(_:)``.
    public func recordConnectResources(_ resources: [ConnectResource]) throws {
        guard !resources.isEmpty else { return }
        let label = path ?? Self.memoryLabel
        try write("record \(resources.count) App Store Connect resources") { db in
            var offers = Set<String>()
            for resource in resources {
                let offerKey = resource.campaign + "\u{0}" + resource.offer
                if !offers.contains(offerKey) {
                    let known =
                        try Bool.fetchOne(
                            db, sql: "SELECT EXISTS (SELECT 1 FROM offers WHERE campaign = ? AND name = ?)",
                            arguments: [resource.campaign, resource.offer]) ?? false
                    guard known else {
                        throw LedgerError.unknownOffer(offer: resource.offer, campaign: resource.campaign)
                    }
                    offers.insert(offerKey)
                }
                let existing = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT campaign, offer, kind, key, request_id, resource_type, state, asc_id, body_digest, error,
                        updated_at FROM connect_resources WHERE campaign = ? AND offer = ? AND kind = ? AND key = ?
                        """,
                    arguments: [resource.campaign, resource.offer, resource.kind.rawValue, resource.key]
                ).map { try Self.connectResource($0, path: label) }
                if let problem = ConnectResource.conflict(replacing: existing, with: resource) {
                    throw LedgerError.connectResourceConflict(resource: resource.label, problem: problem)
                }
                try db.execute(
                    sql: """
                        INSERT INTO connect_resources (campaign, offer, kind, key, request_id, resource_type, state, asc_id,
                        body_digest, error, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (campaign, offer, kind, key) DO UPDATE SET request_id = excluded.request_id,
                        resource_type = excluded.resource_type, state = excluded.state, asc_id = excluded.asc_id,
                        body_digest = excluded.body_digest, error = excluded.error, updated_at = excluded.updated_at
                        """,
                    arguments: [
                        resource.campaign, resource.offer, resource.kind.rawValue, resource.key, resource.requestId,
                        resource.resourceType, resource.state.rawValue, resource.id, resource.bodyDigest,
                        resource.error, LedgerTimestamp.text(resource.updatedAt),
                    ])
            }
        }
    }

    /// A `connect_resources` row, checked: a value OfferKit does not write is damage.
    private static func connectResource(_ row: Row, path: String) throws -> ConnectResource {
        func text(_ index: Int) -> String? {
            if case .string(let value) = (row[index] as DatabaseValue).storage { return value }
            return nil
        }
        func optionalText(_ index: Int) throws -> String? {
            let value = row[index] as DatabaseValue
            if value.isNull { return nil }
            guard let text = text(index) else { throw damage("a text column holds another type") }
            return text
        }
        func damage(_ reason: String) -> LedgerError {
            .corrupt(path: path, reason: "a recorded App Store Connect resource is damaged: \(reason)")
        }
        guard let campaign = text(0), let offer = text(1), let kindText = text(2), let key = text(3),
            let requestId = text(4), let resourceType = text(5), let stateText = text(6), let digest = text(8),
            let updatedText = text(10)
        else { throw damage("a required value is missing or of another type") }
        guard let kind = ConnectResource.Kind(rawValue: kindText),
            let state = ConnectResource.State(rawValue: stateText)
        else { throw damage("its kind or state is not one OfferKit writes") }
        guard let updatedAt = LedgerTimestamp.date(updatedText) else { throw damage("its time is not a time") }
        let resource = ConnectResource(
            campaign: campaign, offer: offer, kind: kind, key: key, requestId: requestId, resourceType: resourceType,
            state: state, id: try optionalText(7), bodyDigest: digest, error: try optionalText(9), updatedAt: updatedAt)
        if let problem = resource.problem { throw damage(problem) }
        return resource
    }
}
