import Crypto
import Foundation
import OfferCodes
import OfferConnectAPI
import OfferJSON

/// The run's view of the campaign's App Store Connect resources: what the ledger recorded, kept
/// in step with it. Every change is written to the ledger (and on disk) before the run acts on it.
actor ResourceBook {
    private let ledger: LedgerThread
    private var resources: [String: ConnectResource] = [:]

    init(ledger: LedgerThread) { self.ledger = ledger }

    /// The identity of a resource in the book: offer, kind and key.
    static func identity(offer: String, kind: ConnectResource.Kind, key: String) -> String {
        offer + "\u{0}" + kind.rawValue + "\u{0}" + key
    }

    /// The resource `request` creates, as planned now (state planned).
    static func planned(_ request: PlannedRequest, campaign: Campaign, now: Date) -> ConnectResource {
        let offer = campaign.offers[request.subject.offerIndex]
        let digest = SHA256.hash(data: request.bodyBytes).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
        return ConnectResource(
            campaign: campaign.name, offer: offer.referenceName, kind: request.subject.kind, key: request.subject.key,
            requestId: request.id, resourceType: OfferCodeAPI(offer.product.type).resourceType(request.subject.kind),
            state: .planned, bodyDigest: digest, updatedAt: now)
    }

    /// Reads what the ledger holds for the campaign and records the plan's new resources as
    /// planned, in one transaction.
    ///
    /// - Throws: ``ConnectError/planChanged(resources:)`` when a created resource was made from
    ///   another body than the plan's (nothing is recorded then), and ledger errors.
    func load(_ plan: [ConnectResource], campaign: String) async throws {
        let recorded = try await ledger.run { try $0.connectResources(campaign: campaign) }
        for resource in recorded {
            resources[Self.identity(offer: resource.offer, kind: resource.kind, key: resource.key)] = resource
        }
        var changed: [String] = []
        var new: [ConnectResource] = []
        for resource in plan {
            let identity = Self.identity(offer: resource.offer, kind: resource.kind, key: resource.key)
            if let existing = resources[identity] {
                if existing.state == .created, existing.bodyDigest != resource.bodyDigest {
                    changed.append(resource.label)
                }
            } else {
                new.append(resource)
            }
        }
        guard changed.isEmpty else { throw ConnectError.planChanged(resources: changed) }
        let planned = new
        try await ledger.run { try $0.recordConnectResources(planned) }
        for resource in new {
            resources[Self.identity(offer: resource.offer, kind: resource.kind, key: resource.key)] = resource
        }
    }

    /// The resource's current record.
    func resource(_ planned: ConnectResource) -> ConnectResource {
        resources[Self.identity(offer: planned.offer, kind: planned.kind, key: planned.key)] ?? planned
    }

    /// The record of a resource, if the ledger has one.
    func recorded(offer: String, kind: ConnectResource.Kind, key: String) -> ConnectResource? {
        resources[Self.identity(offer: offer, kind: kind, key: key)]
    }

    /// Records a new state, in the ledger first.
    @discardableResult
    func record(_ resource: ConnectResource) async throws -> ConnectResource {
        try await ledger.run { try $0.recordConnectResources([resource]) }
        resources[Self.identity(offer: resource.offer, kind: resource.kind, key: resource.key)] = resource
        return resource
    }

    /// The App Store Connect ids recorded for resources other than `identity`'s: a lookup does
    /// not take one of them for another resource.
    func idsInUse(except resource: ConnectResource) -> Set<String> {
        let identity = Self.identity(offer: resource.offer, kind: resource.kind, key: resource.key)
        return Set(resources.filter { $0.key != identity && $0.value.state == .created }.compactMap(\.value.id))
    }
}
