import Foundation
import OfferCodes
import OfferConnectAPI
import OfferJSON
import OfferLedger

/// The run's view of the campaign's App Store Connect resources: what the ledger recorded, kept
/// in step with it. Every change is written to the ledger (and on disk) before the run acts on it.
actor ResourceBook {
    private let ledger: CodeLedger
    private var resources: [String: ConnectResource] = [:]

    init(ledger: CodeLedger) { self.ledger = ledger }

    /// The plan's resources that ``read(_:campaign:)`` found new or changed, to record as planned.
    private var unrecorded: [ConnectResource] = []

    /// Reads what the ledger holds for the campaign and records the plan's new resources as
    /// planned, in one transaction (``read(_:campaign:)``, then ``recordPlan()``).
    func load(_ plan: [ConnectResource], campaign: String) async throws {
        try await read(plan, campaign: campaign)
        try await recordPlan()
    }

    /// Reads what the ledger holds for the campaign and checks the plan against it; records
    /// nothing (``recordPlan()`` records the plan's new resources).
    ///
    /// - Throws: ``ConnectError/planChanged(resources:)`` when a created resource was made from
    ///   another body than the plan's, and ledger errors.
    func read(_ plan: [ConnectResource], campaign: String) async throws {
        let recorded = try await ledger.connectResources(campaign: campaign)
        for resource in recorded { resources[resource.identity] = resource }
        var changed: [String] = []
        var new: [ConnectResource] = []
        for resource in plan {
            if let existing = resources[resource.identity] {
                switch existing.state {
                case .created where existing.bodyDigest != resource.bodyDigest:
                    changed.append(resource.label)
                case .planned,
                    .failed
                where existing.bodyDigest != resource.bodyDigest || existing.requestId != resource.requestId:
                    // Not created: the campaign may have been fixed since (as a refusal asks).
                    var updated = existing
                    updated.bodyDigest = resource.bodyDigest
                    updated.requestId = resource.requestId
                    new.append(updated)
                default:
                    // Sent: keeps its digest until the lookup settles it (the next POST records the plan's).
                    break
                }
            } else {
                new.append(resource)
            }
        }
        guard changed.isEmpty else { throw ConnectError.planChanged(resources: changed) }
        unrecorded = new
    }

    /// Records the plan's new resources that ``read(_:campaign:)`` found, as planned, in one transaction.
    func recordPlan() async throws {
        let planned = unrecorded
        try await ledger.recordConnectResources(planned)
        for resource in planned { resources[resource.identity] = resource }
        unrecorded = []
    }

    /// The resource's current record.
    func resource(_ planned: ConnectResource) -> ConnectResource {
        resources[planned.identity] ?? planned
    }

    /// The record of an offer code's resource, if the ledger has one.
    func recorded(offer: String, kind: ConnectResource.Kind, key: String) -> ConnectResource? {
        resources[ConnectResource.identity(offerKind: .offerCode, offer: offer, kind: kind, key: key)]
    }

    /// Records a new state, in the ledger first.
    @discardableResult
    func record(_ resource: ConnectResource) async throws -> ConnectResource {
        try await ledger.recordConnectResources([resource])
        resources[resource.identity] = resource
        return resource
    }

    /// Ids of offers and one-time-use batches the ledger records as created for any campaign,
    /// read when the book was loaded.
    private var otherCampaignIds: Set<String> = []

    /// Reads the ids every campaign of the ledger holds, for ``idsInUse(except:)``.
    func loadIdsInUse() async throws {
        otherCampaignIds = try await ledger.createdConnectIds(kinds: [.offer, .oneTimeUse])
    }

    /// The App Store Connect ids recorded for resources other than `resource` (of any campaign of
    /// the ledger): a lookup does not take one of them for another resource.
    func idsInUse(except resource: ConnectResource) -> Set<String> {
        let identity = resource.identity
        var ids = otherCampaignIds
        if let own = resources[identity]?.id { ids.remove(own) }
        for (key, value) in resources where key != identity && value.state == .created {
            if let id = value.id { ids.insert(id) }
        }
        return ids
    }
}
