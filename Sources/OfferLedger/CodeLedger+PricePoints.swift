import OfferCodes

extension CodeLedger {
    /// The customer prices of the campaign resolved to price points (by `codes plan` or `codes
    /// apply`), in the order they were recorded: what `PriceResolution` (OfferCodes) takes as
    /// recorded, so that a later plan sends the same price points.
    public func recordedPricePoints(campaign: String) async throws -> [ResolvedPrice] {
        try await store.read("read the price points of campaign \"\(campaign)\"") { tx in
            try await tx.pricePointRows(campaign: campaign).map { try LedgerRow.PricePoint($0, path: name).price }
        }
    }

    /// Records resolved customer prices of the campaign atomically, under the ledger's write lock,
    /// and returns every price point the campaign has recorded then.
    ///
    /// A price recorded before is kept: when another run recorded the same product, territory and
    /// customer price first (with another price point, if App Store Connect's list changed in
    /// between), the returned list has that one, and the caller plans with it.
    ///
    /// - Throws: ``LedgerError/unknownCampaign(campaign:)`` when the campaign is not recorded
    ///   (`codes generate` records it).
    public func recordPricePoints(_ prices: [ResolvedPrice], campaign: String) async throws -> [ResolvedPrice] {
        let operation = "record \(prices.count) price points of campaign \"\(campaign)\""
        try requireWritable(operation)
        return try await store.write(.ledger, operation) { tx in
            guard try await tx.campaignApp(campaign) != nil else {
                throw LedgerError.unknownCampaign(campaign: campaign)
            }
            for price in prices { try await tx.insertPricePoint(price, campaign: campaign) }
            return try await tx.pricePointRows(campaign: campaign).map {
                try LedgerRow.PricePoint($0, path: name).price
            }
        }
    }
}
