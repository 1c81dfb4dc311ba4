/// The rules for an offer's prices: one entry per territory, each territory an id, and the
/// entries free or paid as the payment mode requires.
enum PriceRules {
    /// Adds every price problem of `offer`, which is at `path`.
    static func check(_ offer: OfferDefinition, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        let pricesPath = path["prices"]
        guard !offer.prices.isEmpty else {
            findings.add(
                pricesPath, rule: "prices-not-empty",
                "the offer has no price entries; add one for each territory where the offer is available",
                allowed: AllowedText.prices)
            return
        }
        var firstEntry: [String: Int] = [:]
        for (index, price) in offer.prices.enumerated() {
            let entryPath = pricesPath[index]
            checkTerritory(price.territory, at: entryPath["territory"], into: &findings)
            if let first = firstEntry[price.territory] {
                findings.add(
                    entryPath["territory"], rule: "duplicate-territory",
                    "\(ProblemText.quoted(price.territory)) already has an entry (prices[\(first)]); give each "
                        + "territory one entry", allowed: AllowedText.prices)
            } else {
                firstEntry[price.territory] = index
            }
            if let pricePoint = price.pricePoint, pricePoint.allSatisfy(\.isWhitespace) {
                findings.add(
                    entryPath["pricePoint"], rule: "empty-value",
                    "the price point is empty; give the id of an App Store Connect price point, or make the "
                        + "territory free", allowed: AllowedText.pricePoint)
            }
            checkPaymentMode(offer, price, at: entryPath, into: &findings)
        }
    }

    private static func checkTerritory(
        _ territory: String, at path: ProblemPath, into findings: inout [CampaignFinding]
    ) {
        guard !isTerritoryId(territory) else { return }
        let upper = territory.uppercased()
        let advice = isTerritoryId(upper) ? "write \(ProblemText.quoted(upper))" : "use an id such as USA, GBR or JPN"
        findings.add(
            path, rule: "territory-code",
            "\(ProblemText.quoted(territory)) is not an App Store Connect territory id; \(advice)",
            allowed: AllowedText.territory)
    }

    private static func isTerritoryId(_ text: String) -> Bool {
        text.utf8.count == 3 && text.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    private static func checkPaymentMode(
        _ offer: OfferDefinition, _ price: TerritoryPrice, at path: ProblemPath, into findings: inout [CampaignFinding]
    ) {
        guard offer.product.type.allowedPaymentModes.contains(offer.paymentMode) else { return }
        let mode = offer.paymentMode.rawValue
        let territory = ProblemText.quoted(price.territory)
        switch offer.paymentMode {
        case .freeTrial:
            guard let pricePoint = price.pricePoint else { return }
            findings.add(
                path["pricePoint"], rule: "free-trial-price-point",
                "FREE_TRIAL offers are free, but the \(territory) entry has the price point "
                    + "\(ProblemText.quoted(pricePoint)); replace it with \"free\": true (App Store Connect "
                    + "rejects a price point for a free trial with 409)",
                allowed: "\"free\": true in every territory for FREE_TRIAL")
        case .payAsYouGo, .payUpFront:
            guard price.isFree else { return }
            findings.add(
                path, rule: "price-point-required",
                "the \(territory) entry is free, but \(mode) offers charge a price in every territory; give a "
                    + "pricePoint (or make the offer a FREE_TRIAL)",
                allowed: "a pricePoint in every territory for \(mode)")
        case .oneTime:
            return
        }
    }
}
