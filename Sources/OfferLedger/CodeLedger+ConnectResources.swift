import OfferCodes

extension CodeLedger {
    /// The App Store Connect resources recorded for a campaign by `codes apply`, in the order
    /// they were first recorded (the plan's order).
    public func connectResources(campaign: String) async throws -> [ConnectResource] {
        try await store.read("read the App Store Connect resources of campaign \"\(campaign)\"") { tx in
            try await tx.connectResourceRows(campaign: campaign, resource: nil).map {
                try LedgerRow.ConnectResource($0, path: name).checkedResource(path: name)
            }
        }
    }

    /// Records App Store Connect resources atomically, under the ledger's write lock: each one is
    /// inserted, or replaces the record of the same campaign, offer kind, offer, kind and key.
    ///
    /// A resource recorded `ConnectResource.State.created` keeps its id and body digest for
    /// good: recording it again in another state, with another id or another body throws
    /// ``LedgerError/connectResourceConflict(resource:problem:)`` and nothing is recorded, so that
    /// no run can lose or replace the id of something App Store Connect created.
    ///
    /// - Throws: ``LedgerError/unknownOffer(offer:campaign:)`` when an offer code's offer is not
    ///   recorded, ``LedgerError/unknownCampaign(campaign:)`` when the campaign is not,
    ///   ``LedgerError/connectResourceConflict(resource:problem:)`` for a resource that breaks
    ///   `ConnectResource`'s rules or would change a created one.
    public func recordConnectResources(_ resources: [ConnectResource]) async throws {
        guard !resources.isEmpty else { return }
        let operation = "record \(resources.count) App Store Connect resources"
        try requireWritable(operation)
        try await store.write(.ledger, operation) { tx in
            var checked = Set<[String]>()
            for resource in resources {
                // An offer code's offer must be recorded; a promotional, introductory or win-back
                // offer has no offers row, and its campaign must be.
                let offer = resource.offerKind == .offerCode ? resource.offer : ""
                if checked.insert([resource.campaign, offer]).inserted {
                    if resource.offerKind == .offerCode {
                        guard try await tx.offerState(campaign: resource.campaign, offer: offer) != nil else {
                            throw LedgerError.unknownOffer(offer: resource.offer, campaign: resource.campaign)
                        }
                    } else if try await tx.campaignApp(resource.campaign) == nil {
                        throw LedgerError.unknownCampaign(campaign: resource.campaign)
                    }
                }
                let existing = try await tx.connectResourceRows(
                    campaign: resource.campaign, resource: ConnectResourceKey(resource)
                ).first.map { try LedgerRow.ConnectResource($0, path: name).checkedResource(path: name) }
                if let problem = ConnectResource.conflict(replacing: existing, with: resource) {
                    throw LedgerError.connectResourceConflict(resource: resource.label, problem: problem)
                }
                try await tx.upsertConnectResource(resource)
            }
        }
    }

    /// The day (UTC) the campaign was first recorded (by `codes generate` or `codes import`), or
    /// `nil` when the ledger does not hold it: the day `plan` and `apply` resolve the campaign's
    /// relative dates from, so that a run on another day sends the same requests.
    public func campaignRecordedDay(_ campaign: String) async throws -> CalendarDate? {
        try await store.read("read when campaign \"\(campaign)\" was recorded") { tx in
            guard let values = try await tx.campaignRecordedAt(campaign) else { return nil }
            let time = try StoredRow(values, table: "a campaigns row", path: name).timestamp(0, "recorded_at")
            return CalendarDate(unixSeconds: Int64(time.date.timeIntervalSince1970.rounded(.down)))
        }
    }

    /// The promotional offers `codes apply` created, of every campaign, by their campaign's app
    /// and their subscription's product ID: what a promotional offer's signature may name
    /// (``AppliedPromotionalOffers``).
    public func appliedPromotionalOffers() async throws -> AppliedPromotionalOffers {
        try await store.read("read the promotional offers created in App Store Connect") { tx in
            var offers: [String: [String: Set<String>]] = [:]
            for values in try await tx.createdPromotionalOfferRows() {
                let row = StoredRow(values, table: "a connect_resources row", path: name)
                offers[try row.text(0, "bundle_id"), default: [:]][try row.text(1, "key"), default: []].insert(
                    try row.text(2, "offer"))
            }
            return AppliedPromotionalOffers(offers: offers.mapValues { $0.mapValues { $0.sorted() } })
        }
    }

    /// The App Store Connect ids the ledger records as created, of every campaign, for the kinds
    /// given: a lookup after an unknown outcome never takes one of them for another resource.
    public func createdConnectIds(kinds: Set<ConnectResource.Kind>) async throws -> Set<String> {
        guard !kinds.isEmpty else { return [] }
        return try await store.read("read the App Store Connect ids") { tx in
            Set(
                try await tx.createdConnectIds(kinds: kinds.map(\.rawValue).sorted()).map {
                    try StoredRow($0, table: "a connect_resources row", path: name).text(0, "asc_id")
                })
        }
    }

    /// Takes the lock of `codes apply` runs on a campaign (see ``ConnectRunLock``), without
    /// waiting: SQLite, an exclusive `flock` on a file next to the ledger; PostgreSQL, a
    /// session-level advisory lock on a connection of its own.
    ///
    /// - Throws: ``LedgerError/connectRunInProgress(campaign:)`` when another run holds it.
    public func lockConnectRun(campaign: String) async throws -> ConnectRunLock {
        try requireWritable("take the lock of codes apply")
        return try await store.lockConnectRun(campaign: campaign)
    }
}
