extension RequestPlanner {
    /// Streams the create requests of the campaign's promotional, introductory and win-back offers:
    /// each promotional offer (`POST /v1/subscriptionPromotionalOffers`, its prices inline), each
    /// introductory offer's territories one request each (`POST /v1/subscriptionIntroductoryOffers`),
    /// each win-back offer (`POST /v1/winBackOffers`, prices inline), in campaign order. None
    /// depends on another: each names its subscription by its App Store Connect id.
    ///
    /// - Parameters:
    ///   - campaign: a campaign that ``CampaignValidator`` accepted, its customer prices looked up
    ///     (``PriceResolution``).
    ///   - body: called with each planned request, in order.
    /// - Throws: ``RequestPlanningError/pricePointNotLookedUp(offer:product:territory:customerPrice:)`` for
    ///   a customer price without its price point; whatever `body` throws; `CancellationError` when
    ///   the current task is cancelled (checked before each request).
    public func forEachSubscriptionOfferRequest(
        in campaign: Campaign, _ body: (PlannedRequest) throws -> Void
    ) throws {
        for (index, offer) in campaign.promotionalOffers.enumerated() {
            try TaskCancellation.check()
            try body(
                PlannedRequest(
                    id: "promotional-offer-\(index + 1)", method: "POST",
                    path: OfferCodeAPI.createPath(SubscriptionOfferAPI.promotionalType),
                    schema: SubscriptionOfferAPI.promotionalSchema, dependsOn: [],
                    body: try SubscriptionOfferBodyBuilder.promotional(offer, number: index + 1),
                    subject: .init(
                        offerKind: .promotionalOffer, offerIndex: index, name: offer.offerIdentifier,
                        productId: offer.terms.subscription.productId)))
        }
        for (index, offer) in campaign.introductoryOffers.enumerated() {
            for (priceIndex, price) in offer.terms.prices.enumerated() {
                try TaskCancellation.check()
                let key = price.territory + (offer.startDate.map { " \($0)" } ?? "")
                try body(
                    PlannedRequest(
                        id: "introductory-offer-\(index + 1)-\(price.territory)", method: "POST",
                        path: OfferCodeAPI.createPath(SubscriptionOfferAPI.introductoryType),
                        schema: SubscriptionOfferAPI.introductorySchema, dependsOn: [],
                        body: try SubscriptionOfferBodyBuilder.introductory(
                            offer, number: index + 1, priceIndex: priceIndex),
                        subject: .init(
                            offerKind: .introductoryOffer, offerIndex: index, name: offer.terms.subscription.id,
                            priceIndex: priceIndex, territoryKey: key, productId: offer.terms.subscription.productId)))
            }
        }
        for (index, offer) in campaign.winBackOffers.enumerated() {
            try TaskCancellation.check()
            try body(
                PlannedRequest(
                    id: "win-back-offer-\(index + 1)", method: "POST",
                    path: OfferCodeAPI.createPath(SubscriptionOfferAPI.winBackType),
                    schema: SubscriptionOfferAPI.winBackSchema, dependsOn: [],
                    body: try SubscriptionOfferBodyBuilder.winBack(offer, number: index + 1),
                    subject: .init(
                        offerKind: .winBackOffer, offerIndex: index, name: offer.offerIdentifier,
                        productId: offer.terms.subscription.productId)))
        }
    }

    /// The create requests of the campaign's promotional, introductory and win-back offers (see
    /// ``forEachSubscriptionOfferRequest(in:_:)``).
    public func planSubscriptionOffers(_ campaign: Campaign) throws -> [PlannedRequest] {
        var requests: [PlannedRequest] = []
        try forEachSubscriptionOfferRequest(in: campaign) { requests.append($0) }
        return requests
    }

    /// Every request of the campaign: its offer codes' (``forEachRequest(in:customCodes:_:)``),
    /// then its promotional, introductory and win-back offers' (``forEachSubscriptionOfferRequest(in:_:)``).
    public func forEachCampaignRequest(
        in campaign: Campaign, customCodes: (Int, Int) throws -> [String], _ body: (PlannedRequest) throws -> Void
    ) throws {
        try forEachRequest(in: campaign, customCodes: customCodes, body)
        try forEachSubscriptionOfferRequest(in: campaign, body)
    }

    /// Every request of the campaign, in order (see ``forEachCampaignRequest(in:customCodes:_:)``).
    public func planCampaign(_ campaign: Campaign, customCodes: (Int, Int) throws -> [String]) throws
        -> [PlannedRequest]
    {
        var requests: [PlannedRequest] = []
        try forEachCampaignRequest(in: campaign, customCodes: customCodes) { requests.append($0) }
        return requests
    }
}
