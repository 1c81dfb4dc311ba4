import OfferJSON

/// Turns a validated ``Campaign`` into the App Store Connect API 4.4.1 create requests that make
/// its offers and codes, in dependency order.
///
/// For each offer, in campaign order: the offer (`POST /v1/subscriptionOfferCodes` for
/// auto-renewable subscriptions, `POST /v1/inAppPurchaseOfferCodes` otherwise, with its prices
/// inline), then one request per one-time-use batch, then one request per custom code
/// (``forEachRequest(in:customCodes:_:)``, ``plan(_:customCodes:)``). The promotional,
/// introductory and win-back offers follow (``forEachSubscriptionOfferRequest(in:_:)``;
/// ``planCampaign(_:customCodes:)`` plans both). The output is the same, byte for byte, on every run.
public struct RequestPlanner: Sendable {
    public init() {}

    /// Streams the offer-code requests in dependency order, without holding the whole plan in memory.
    ///
    /// - Parameters:
    ///   - campaign: a campaign that ``CampaignValidator`` accepted.
    ///   - customCodes: the code strings of a generated custom-code batch, given the offer's and
    ///     the batch's positions (from 0) in `campaign.offers` and the offer's `customCodes`;
    ///     the caller reads them from the ledger. Batches of given codes are read from the
    ///     campaign itself and never passed to this function.
    ///   - body: called with each request in order.
    /// - Throws: ``RequestPlanningError`` when the campaign lacks what a request needs or
    ///   `customCodes` returns the wrong number of codes; whatever `customCodes` or `body` throws;
    ///   `CancellationError` when the current task is cancelled (checked before each request).
    public func forEachRequest(
        in campaign: Campaign, customCodes: (Int, Int) throws -> [String], _ body: (PlannedRequest) throws -> Void
    ) throws {
        for (offerIndex, offer) in campaign.offers.enumerated() {
            try TaskCancellation.check()
            let number = offerIndex + 1
            let api = OfferCodeAPI(offer.product.type)
            let offerId = "offer-\(number)"
            try body(
                request(
                    id: offerId, type: api.offerType, schema: api.offerSchema, dependsOn: [],
                    body: try RequestBodyBuilder.offer(offer, number: number),
                    subject: .init(offerIndex: offerIndex, kind: .offer)))
            for (batchIndex, batch) in offer.oneTimeUseCodes.enumerated() {
                try TaskCancellation.check()
                try body(
                    request(
                        id: "\(offerId)-one-time-use-\(batchIndex + 1)", type: api.oneTimeUseType,
                        schema: api.oneTimeUseSchema, dependsOn: [offerId],
                        body: RequestBodyBuilder.oneTimeUse(batch, api: api, offerRequestId: offerId),
                        subject: .init(offerIndex: offerIndex, kind: .oneTimeUse, batchIndex: batchIndex)))
            }
            var codeNumber = 0
            for (batchIndex, batch) in offer.customCodes.enumerated() {
                let codes = try Self.codes(
                    of: batch, offer: offer, offerIndex: offerIndex, batchIndex: batchIndex, customCodes)
                for code in codes {
                    try TaskCancellation.check()
                    codeNumber += 1
                    try body(
                        request(
                            id: "\(offerId)-custom-code-\(codeNumber)", type: api.customCodeType,
                            schema: api.customCodeSchema, dependsOn: [offerId],
                            body: RequestBodyBuilder.customCode(code, batch: batch, api: api, offerRequestId: offerId),
                            subject: .init(
                                offerIndex: offerIndex, kind: .customCode, batchIndex: batchIndex, customCode: code)))
                }
            }
        }
    }

    /// All requests of the campaign, in dependency order (see ``forEachRequest(in:customCodes:_:)``).
    /// - Throws: what ``forEachRequest(in:customCodes:_:)`` throws.
    public func plan(_ campaign: Campaign, customCodes: (Int, Int) throws -> [String]) throws -> [PlannedRequest] {
        var requests: [PlannedRequest] = []
        try forEachRequest(in: campaign, customCodes: customCodes) { requests.append($0) }
        return requests
    }

    /// The placeholder that stands for the id App Store Connect returns for request `requestId`:
    /// `<id of offer-1>`.
    public static func placeholder(for requestId: String) -> String { "<id of \(requestId)>" }

    /// What the plan document says about its placeholders.
    public static let placeholderExplanation =
        "Send the requests in order. Before sending a request, replace each \"<id of R>\" in its body with the id "
        + "App Store Connect returned (data.id) for the earlier request R listed in dependsOn. Ids of the form "
        + "\"${price-...}\" are local ids of the inline resources in the same body's \"included\"; send them as they are."

    /// The whole plan as one JSON document:
    /// `{"campaign": name, "app": {"bundleId", "appAppleId"}, "placeholders": explanation, "requests": [...]}`.
    package static func document(campaign: Campaign, requests: [PlannedRequest]) -> JSONValue {
        .object([
            ("campaign", .string(campaign.name)),
            (
                "app",
                .object([
                    ("bundleId", .string(campaign.app.bundleId)), ("appAppleId", .string(campaign.app.appAppleId)),
                ])
            ),
            ("placeholders", .string(placeholderExplanation)),
            ("requests", .array(requests.map { $0.jsonValue() })),
        ])
    }

    private func request(
        id: String, type: String, schema: String, dependsOn: [String], body: JSONValue,
        subject: PlannedRequest.Subject
    ) -> PlannedRequest {
        PlannedRequest(
            id: id, method: "POST", path: OfferCodeAPI.createPath(type), schema: schema, dependsOn: dependsOn,
            body: body, subject: subject)
    }

    /// The batch's code strings: given ones from the campaign, generated ones from `customCodes`.
    private static func codes(
        of batch: CustomCodeBatch, offer: OfferDefinition, offerIndex: Int, batchIndex: Int,
        _ customCodes: (Int, Int) throws -> [String]
    ) throws -> [String] {
        switch batch.source {
        case .given(let codes):
            return codes
        case .generated(let spec):
            let codes = try customCodes(offerIndex, batchIndex)
            guard codes.count == spec.count else {
                throw RequestPlanningError.generatedCodeCount(
                    offer: offerIndex + 1, referenceName: offer.referenceName, batch: batchIndex + 1,
                    expected: spec.count, supplied: codes.count)
            }
            return codes
        }
    }
}
