import Crypto
import Foundation
import GRDB
import OfferJSON

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
                            db.cachedStatement(
                                sql: "SELECT EXISTS (SELECT 1 FROM offers WHERE campaign = ? AND name = ?)"),
                            arguments: [resource.campaign, resource.offer]) ?? false
                    guard known else {
                        throw LedgerError.unknownOffer(offer: resource.offer, campaign: resource.campaign)
                    }
                    offers.insert(offerKey)
                }
                // Cached statements: `codes apply` records each resource twice, one after the other.
                let existing = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT campaign, offer, kind, key, request_id, resource_type, state, asc_id, body_digest, error,
                            updated_at FROM connect_resources WHERE campaign = ? AND offer = ? AND kind = ? AND key = ?
                            """),
                    arguments: [resource.campaign, resource.offer, resource.kind.rawValue, resource.key]
                ).map { try Self.connectResource($0, path: label) }
                if let problem = ConnectResource.conflict(replacing: existing, with: resource) {
                    throw LedgerError.connectResourceConflict(resource: resource.label, problem: problem)
                }
                try db.cachedStatement(
                    sql: """
                        INSERT INTO connect_resources (campaign, offer, kind, key, request_id, resource_type, state, asc_id,
                        body_digest, error, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (campaign, offer, kind, key) DO UPDATE SET request_id = excluded.request_id,
                        resource_type = excluded.resource_type, state = excluded.state, asc_id = excluded.asc_id,
                        body_digest = excluded.body_digest, error = excluded.error, updated_at = excluded.updated_at
                        """
                ).execute(
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

extension SQLiteLedger {
    /// See ``CodeLedger/createdConnectIds(kinds:)``.
    public func createdConnectIds(kinds: Set<ConnectResource.Kind>) throws -> Set<String> {
        guard !kinds.isEmpty else { return [] }
        let list = kinds.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")
        return try read("read the App Store Connect ids") { db in
            Set(
                try String.fetchAll(
                    db,
                    sql: "SELECT asc_id FROM connect_resources WHERE state = 'created' AND kind IN (\(list)) "
                        + "AND asc_id IS NOT NULL"))
        }
    }

    /// See ``CodeLedger/lockConnectRun(campaign:)``: an exclusive `flock` on a file next to the
    /// ledger, `PATH.apply-lock-HASH` (HASH: 16 hex digits of the campaign name's SHA-256; mode
    /// 0600; left in place, since removing a lock file races with the next run), which the system
    /// releases when the process ends. An in-memory ledger locks within the process.
    public func lockConnectRun(campaign: String) throws -> ConnectRunLock {
        guard let path else {
            guard ProcessLocks.shared.take(ObjectIdentifier(self), campaign) else {
                throw LedgerError.connectRunInProgress(campaign: campaign)
            }
            let identifier = ObjectIdentifier(self)
            let released = ReleaseOnce()
            return ConnectRunLock { if released.claim() { ProcessLocks.shared.give(identifier, campaign) } }
        }
        let lockPath = path + ".apply-lock-" + ConnectRunLockFile.hash(campaign)
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw LedgerError.cannotOpen(
                path: lockPath, reason: "the lock file of codes apply: " + String(cString: strerror(errno)))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let error = errno
            close(descriptor)
            if error == EWOULDBLOCK { throw LedgerError.connectRunInProgress(campaign: campaign) }
            throw LedgerError.cannotOpen(path: lockPath, reason: "flock: " + String(cString: strerror(error)))
        }
        let released = ReleaseOnce()
        return ConnectRunLock {
            guard released.claim() else { return }
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }
}

/// The lock file's name part of a campaign.
enum ConnectRunLockFile {
    static func hash(_ campaign: String) -> String {
        Hex.string(SHA256.hash(data: Data(campaign.utf8)).prefix(8))
    }
}

/// A flag that is claimed once.
package final class ReleaseOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    package init() {}

    /// `true` the first time only.
    package func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}

/// The `codes apply` locks of in-memory ledgers, within the process.
final class ProcessLocks: @unchecked Sendable {
    static let shared = ProcessLocks()
    private let lock = NSLock()
    private var held: Set<String> = []

    func take(_ ledger: ObjectIdentifier, _ campaign: String) -> Bool {
        lock.withLock { held.insert("\(ledger)\u{0}\(campaign)").inserted }
    }

    func give(_ ledger: ObjectIdentifier, _ campaign: String) {
        _ = lock.withLock { held.remove("\(ledger)\u{0}\(campaign)") }
    }
}
