import Foundation
import OfferCodes
import PostgresNIO

extension PostgresLedger {
    /// See `CodeLedger.connectResources(campaign:)`.
    public func connectResources(campaign: String) throws -> [ConnectResource] {
        let label = label
        return try transaction(.read, "read the App Store Connect resources of campaign \"\(campaign)\"") { session in
            try session.query(
                """
                SELECT campaign, offer, kind, key, request_id, resource_type, state, asc_id, body_digest, error,
                updated_at FROM connect_resources WHERE campaign = \(campaign) ORDER BY id
                """
            ).map { try Self.connectResource($0, label: label) }
        }
    }

    /// See `CodeLedger.recordConnectResources(_:)`: under the ledger's write lock.
    public func recordConnectResources(_ resources: [ConnectResource]) throws {
        guard !resources.isEmpty else { return }
        let label = label
        try transaction(.write, "record \(resources.count) App Store Connect resources") { session in
            var offers = Set<String>()
            for resource in resources {
                let (campaign, offer, kind, key) = (
                    resource.campaign, resource.offer, resource.kind.rawValue, resource.key
                )
                if offers.insert(campaign + "\u{0}" + offer).inserted {
                    let known = try session.query(
                        "SELECT 1 FROM offers WHERE campaign = \(campaign) AND name = \(offer)"
                    ).first
                    guard known != nil else { throw LedgerError.unknownOffer(offer: offer, campaign: campaign) }
                }
                let existing = try session.query(
                    """
                    SELECT campaign, offer, kind, key, request_id, resource_type, state, asc_id, body_digest, error,
                    updated_at FROM connect_resources
                    WHERE campaign = \(campaign) AND offer = \(offer) AND kind = \(kind) AND key = \(key)
                    """
                ).first.map { try Self.connectResource($0, label: label) }
                if let problem = ConnectResource.conflict(replacing: existing, with: resource) {
                    throw LedgerError.connectResourceConflict(resource: resource.label, problem: problem)
                }
                let (requestId, type, state) = (resource.requestId, resource.resourceType, resource.state.rawValue)
                let (id, digest, error, date) = (resource.id, resource.bodyDigest, resource.error, resource.updatedAt)
                try session.query(
                    """
                    INSERT INTO connect_resources (campaign, offer, kind, key, request_id, resource_type, state, asc_id,
                    body_digest, error, updated_at) VALUES (\(campaign), \(offer), \(kind), \(key), \(requestId), \(type),
                    \(state), \(id), \(digest), \(error), \(date))
                    ON CONFLICT (campaign, offer, kind, key) DO UPDATE SET request_id = excluded.request_id,
                    resource_type = excluded.resource_type, state = excluded.state, asc_id = excluded.asc_id,
                    body_digest = excluded.body_digest, error = excluded.error, updated_at = excluded.updated_at
                    """)
            }
        }
    }

    /// A `connect_resources` row, checked: a value OfferKit does not write is damage.
    private static func connectResource(_ row: PostgresRow, label: String) throws -> ConnectResource {
        let (campaign, offer, kindText, key, requestId, resourceType, stateText, id, digest, error, updatedAt) =
            try row.decode(
                (String, String, String, String, String, String, String, String?, String, String?, Date).self)
        func damage(_ reason: String) -> LedgerError {
            .corrupt(path: label, reason: "a recorded App Store Connect resource is damaged: \(reason)")
        }
        guard let kind = ConnectResource.Kind(rawValue: kindText),
            let state = ConnectResource.State(rawValue: stateText)
        else { throw damage("its kind or state is not one OfferKit writes") }
        let resource = ConnectResource(
            campaign: campaign, offer: offer, kind: kind, key: key, requestId: requestId, resourceType: resourceType,
            state: state, id: id, bodyDigest: digest, error: error, updatedAt: updatedAt)
        if let problem = resource.problem { throw damage(problem) }
        return resource
    }
}

extension PostgresLedger {
    /// See `CodeLedger.createdConnectIds(kinds:)`.
    public func createdConnectIds(kinds: Set<ConnectResource.Kind>) throws -> Set<String> {
        guard !kinds.isEmpty else { return [] }
        let names = kinds.map(\.rawValue).sorted()
        return try transaction(.read, "read the App Store Connect ids") { session in
            Set(
                try session.query(
                    """
                    SELECT asc_id FROM connect_resources
                    WHERE state = 'created' AND kind = ANY(\(names)) AND asc_id IS NOT NULL
                    """
                ).map { try $0.decode(String.self) })
        }
    }

    /// See `CodeLedger.lockConnectRun(campaign:)`: a session-level advisory lock
    /// (`pg_try_advisory_lock`) named after the schema and the campaign, held by a connection
    /// of its own until released; PostgreSQL releases it when that connection ends, so a killed
    /// process never leaves it behind.
    public func lockConnectRun(campaign: String) throws -> ConnectRunLock {
        let session = PostgresSession(client: client, executor: executor, logger: logger)
        let name = "offerkit-connect-run:" + location.schema + ":" + campaign
        let taken: Bool
        do {
            taken =
                try session.query("SELECT pg_try_advisory_lock(hashtextextended(\(name), 0))").first?.decode(
                    Bool.self) ?? false
        } catch {
            session.close()
            throw translate(error, operation: "take the lock of codes apply")
        }
        guard taken else {
            session.close()
            throw LedgerError.connectRunInProgress(campaign: campaign)
        }
        let released = ReleaseOnce()
        return ConnectRunLock {
            guard released.claim() else { return }
            _ = try? session.query("SELECT pg_advisory_unlock(hashtextextended(\(name), 0))")
            session.close()
        }
    }
}
