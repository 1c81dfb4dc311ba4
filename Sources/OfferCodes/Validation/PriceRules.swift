/// The rules for an offer's prices: one entry per territory, each territory an id, and the
/// entries free or paid as the payment mode requires. Offer codes and the promotional,
/// introductory and win-back offers share them.
enum PriceRules {
    /// Adds every price problem of `offer`, which is at `path`.
    /// Entries or parts of entries that could not be read are skipped.
    static func check(_ offer: OfferDraft, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        // The payment mode decides free or paid only when it is one the product type has.
        var mode: PaymentMode?
        if let type = offer.productType, let paymentMode = offer.paymentMode,
            type.allowedPaymentModes.contains(paymentMode)
        {
            mode = paymentMode
        }
        check(offer.prices, mode: mode, at: path, into: &findings)
    }

    /// Adds every problem of the `prices` of an offer at `path` whose payment mode is `mode` (`nil`
    /// when it is not known, or not one the offer may have).
    static func check(
        _ prices: [PriceDraft?]?, mode: PaymentMode?, at path: ProblemPath, into findings: inout [CampaignFinding]
    ) {
        guard let prices else { return }
        let pricesPath = path["prices"]
        guard !prices.isEmpty else {
            findings.add(
                pricesPath, rule: "prices-not-empty",
                "the offer has no price entries; add one for each territory where the offer is available",
                allowed: AllowedText.prices)
            return
        }
        var firstEntry: [String: Int] = [:]
        for (index, price) in prices.enumerated() {
            guard let price else { continue }
            let entryPath = pricesPath[index]
            if let territory = price.territory {
                checkTerritory(territory, at: entryPath["territory"], into: &findings)
                if let first = firstEntry[territory] {
                    findings.add(
                        entryPath["territory"], rule: "duplicate-territory",
                        "\(ProblemText.quoted(territory)) already has an entry (prices[\(first)]); give each "
                            + "territory one entry", allowed: AllowedText.prices)
                } else {
                    firstEntry[territory] = index
                }
            }
            if let pricePoint = price.pricePoint, pricePoint.allSatisfy(\.isWhitespace) {
                findings.add(
                    entryPath["pricePoint"], rule: "empty-value",
                    "the price point is empty; give the id of an App Store Connect price point, or make the "
                        + "territory free", allowed: AllowedText.pricePoint)
            }
            if let mode { checkPaymentMode(mode, price, at: entryPath, into: &findings) }
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

    static func isTerritoryId(_ text: String) -> Bool {
        text.utf8.count == 3 && text.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
    }

    private static func checkPaymentMode(
        _ paymentMode: PaymentMode, _ price: PriceDraft, at path: ProblemPath, into findings: inout [CampaignFinding]
    ) {
        guard let isFree = price.isFree else { return }
        let mode = paymentMode.rawValue
        let territory = price.territory.map { "the \(ProblemText.quoted($0)) entry" } ?? "the entry"
        switch paymentMode {
        case .freeTrial:
            guard !isFree else { return }
            let (member, what) =
                price.pricePoint == nil && price.customerPrice != nil
                ? ("customerPrice", "the customer price \(ProblemText.quoted(price.customerPrice?.text ?? ""))")
                : (
                    "pricePoint",
                    price.pricePoint.map { "the price point \(ProblemText.quoted($0))" } ?? "a price point"
                )
            findings.add(
                path[member], rule: "free-trial-price-point",
                "FREE_TRIAL offers are free, but \(territory) has \(what); replace it with \"free\": true "
                    + "(App Store Connect rejects a price point for a free trial with 409)",
                allowed: "\"free\": true in every territory for FREE_TRIAL")
        case .payAsYouGo, .payUpFront:
            guard isFree else { return }
            findings.add(
                path, rule: "price-point-required",
                "\(territory) is free, but \(mode) offers charge a price in every territory; give a "
                    + "pricePoint (or make the offer a FREE_TRIAL)",
                allowed: "a pricePoint in every territory for \(mode)")
        case .oneTime:
            return
        }
    }
}
