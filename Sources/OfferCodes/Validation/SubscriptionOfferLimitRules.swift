/// Apple's limits across a campaign's promotional, introductory and win-back offers, and the names
/// and identifiers that must be unique:
/// - at most ``CampaignLimits/promotionalOffersPerSubscription`` promotional offers per subscription;
/// - at most one current and one future introductory offer per subscription and territory: their
///   dates may not overlap, and at most ``CampaignLimits/introductoryOffersPerTerritory``;
/// - at most ``CampaignLimits/winBackOffersPerSubscription`` win-back offers per subscription, and
///   at most ``CampaignLimits/winBackOffersPerTerritoryAtATime`` of them running at once in a territory;
/// - offer identifiers unique across promotional offers, win-back offers and offer codes (whose
///   identifier in StoreKit is their reference name), compared ignoring case; reference names unique
///   across promotional offers, win-back offers and offer codes ("Use a unique referenceName and
///   offerId that you have not used for a promotional offer, offer code, or introductory offer",
///   Create a Win-Back Offer, App Store Connect API).
enum SubscriptionOfferLimitRules {
    static func check(_ draft: CampaignDraft, into findings: inout [CampaignFinding]) {
        checkPromotionalLimit(draft, into: &findings)
        checkIntroductoryOverlaps(draft, into: &findings)
        checkWinBackLimits(draft, into: &findings)
        checkUniqueness(draft, into: &findings)
    }

    private static func member(_ kind: CampaignOfferKind) -> ProblemPath { ProblemPath.root[kind.campaignMember] }

    private static func checkPromotionalLimit(_ draft: CampaignDraft, into findings: inout [CampaignFinding]) {
        let limit = CampaignLimits.promotionalOffersPerSubscription
        let counts = counted(draft.promotionalOffers.compactMap { $0.offer.terms.subscription?.id })
        for (subscription, count) in counts where count > limit {
            findings.add(
                member(.promotionalOffer), rule: "promotional-offers-limit",
                "the campaign has \(count) promotional offers for subscription \(ProblemText.quoted(subscription)), "
                    + "over Apple's limit of \(limit) active at a time per subscription; remove offers",
                allowed: "at most \(limit) promotional offers per subscription")
        }
    }

    private static func checkWinBackLimits(_ draft: CampaignDraft, into findings: inout [CampaignFinding]) {
        let limit = CampaignLimits.winBackOffersPerSubscription
        for (subscription, count) in counted(draft.winBackOffers.compactMap({ $0.offer.terms.subscription?.id }))
        where count > limit {
            findings.add(
                member(.winBackOffer), rule: "win-back-offers-limit",
                "the campaign has \(count) win-back offers for subscription \(ProblemText.quoted(subscription)), "
                    + "over Apple's limit of \(limit) per subscription; remove offers",
                allowed: "at most \(limit) win-back offers per subscription")
        }
        let atOnce = CampaignLimits.winBackOffersPerTerritoryAtATime
        // A subscription over the limit is reported above; its offers are not compared pairwise
        // (which keeps the check within 350² comparisons per subscription and territory).
        let overLimit = Set(
            counted(draft.winBackOffers.compactMap { $0.offer.terms.subscription?.id })
                .filter { $0.1 > limit }.map(\.0))
        var spans: [String: [Span]] = [:]
        for (index, offer) in draft.winBackOffers {
            guard let subscription = offer.terms.subscription?.id, !overLimit.contains(subscription),
                let start = offer.startDate, offer.endDate.isKnown
            else { continue }
            for (priceIndex, price) in (offer.terms.prices ?? []).enumerated() {
                guard let territory = price?.territory else { continue }
                let path = member(.winBackOffer)[index]["prices"][priceIndex]["territory"]
                spans[subscription + "\u{0}" + territory, default: []].append(
                    Span(start: start, end: offer.endDate.value, path: path, offer: index))
            }
        }
        for key in spans.keys.sorted() {
            let parts = key.split(separator: "\u{0}").map(String.init)
            let sorted = spans[key, default: []].sorted { $0.start < $1.start }
            for (position, span) in sorted.enumerated() {
                let running = sorted[..<position].filter { $0.end.map { $0 >= span.start } ?? true }
                guard running.count >= atOnce else { continue }
                findings.add(
                    span.path, rule: "win-back-offers-per-territory",
                    "from \(span.start), \(running.count + 1) win-back offers of subscription "
                        + "\(ProblemText.quoted(parts[0])) would run at once in \(parts[1]) (with winBackOffers"
                        + "\(running.map { "[\($0.offer)]" }.joined(separator: ", "))), over Apple's limit of \(atOnce) "
                        + "per storefront at a time; change the dates or leave the territory out",
                    allowed: "at most \(atOnce) win-back offers of a subscription running at once in a territory")
            }
        }
    }

    private static func checkIntroductoryOverlaps(_ draft: CampaignDraft, into findings: inout [CampaignFinding]) {
        var spans: [String: [Span]] = [:]
        for (index, offer) in draft.introductoryOffers {
            guard let subscription = offer.terms.subscription?.id, offer.startDate.isKnown, offer.endDate.isKnown
            else { continue }
            for (priceIndex, price) in (offer.terms.prices ?? []).enumerated() {
                guard let territory = price?.territory else { continue }
                let path = member(.introductoryOffer)[index]["prices"][priceIndex]["territory"]
                spans[subscription + "\u{0}" + territory, default: []].append(
                    Span(
                        start: offer.startDate.value ?? CalendarDate(year: 1, month: 1, day: 1)!,
                        end: offer.endDate.value, path: path, offer: index))
            }
        }
        let limit = CampaignLimits.introductoryOffersPerTerritory
        for key in spans.keys.sorted() {
            let parts = key.split(separator: "\u{0}").map(String.init)
            // Compared with the offers kept so far only (at most `limit`), so that the check is linear
            // however many offers a file lists: every offer beyond them is a problem anyway.
            var kept: [Span] = []
            for span in spans[key, default: []] {
                if let other = kept.first(where: { $0.overlaps(span) }) {
                    findings.add(
                        span.path, rule: "introductory-offer-overlap",
                        "\(parts[1]) already has an introductory offer of subscription \(ProblemText.quoted(parts[0])) "
                            + "at the same time (introductoryOffers[\(other.offer)]); a territory has one introductory "
                            + "offer at a time: give the offers dates that do not overlap",
                        allowed: "one current and one future introductory offer per subscription and territory")
                } else if kept.count >= limit {
                    findings.add(
                        span.path, rule: "introductory-offers-per-territory",
                        "\(parts[1]) has more than \(limit) introductory offers of subscription "
                            + "\(ProblemText.quoted(parts[0])); Apple allows one current and one future per country or "
                            + "region", allowed: "at most \(limit) introductory offers per subscription and territory")
                } else {
                    kept.append(span)
                }
            }
        }
    }

    private static func checkUniqueness(_ draft: CampaignDraft, into findings: inout [CampaignFinding]) {
        var names: [String: ProblemPath] = [:]
        var identifiers: [String: ProblemPath] = [:]
        for (index, offer) in draft.offers {
            guard let name = offer.referenceName else { continue }
            let path = ProblemPath.root["offers"][index]["referenceName"]
            if names[name] == nil { names[name] = path }
            if identifiers[name.uppercased()] == nil { identifiers[name.uppercased()] = path }
        }
        var entries: [(name: String?, identifier: String?, path: ProblemPath)] = []
        for (index, offer) in draft.promotionalOffers {
            entries.append((offer.referenceName, offer.offerIdentifier, member(.promotionalOffer)[index]))
        }
        for (index, offer) in draft.winBackOffers {
            entries.append((offer.referenceName, offer.offerIdentifier, member(.winBackOffer)[index]))
        }
        for entry in entries {
            if let name = entry.name {
                if let earlier = names[name] {
                    findings.add(
                        entry.path["referenceName"], rule: "duplicate-reference-name",
                        "\(ProblemText.quoted(name)) is also the reference name at \(earlier); give each offer its own "
                            + "name", allowed: "a reference name no other offer of the app has")
                } else {
                    names[name] = entry.path["referenceName"]
                }
            }
            if let identifier = entry.identifier {
                let key = identifier.uppercased()
                if let earlier = identifiers[key] {
                    findings.add(
                        entry.path["offerIdentifier"], rule: "duplicate-offer-identifier",
                        "\(ProblemText.quoted(identifier)) is also the offer identifier at \(earlier) (identifiers "
                            + "compare ignoring case; an offer code's identifier is its reference name); StoreKit and "
                            + "signatures tell offers apart by it: give each offer its own",
                        allowed: AllowedText.offerIdentifier)
                } else {
                    identifiers[key] = entry.path["offerIdentifier"]
                }
            }
        }
    }

    /// How many times each value occurs, in order of first appearance.
    private static func counted(_ values: [String]) -> [(String, Int)] {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for value in values {
            if counts[value] == nil { order.append(value) }
            counts[value, default: 0] += 1
        }
        return order.map { ($0, counts[$0] ?? 0) }
    }

    /// The days an offer runs in one territory.
    private struct Span {
        var start: CalendarDate
        /// `nil` = no end.
        var end: CalendarDate?
        var path: ProblemPath
        var offer: Int

        func overlaps(_ other: Span) -> Bool {
            (end.map { $0 >= other.start } ?? true) && (other.end.map { $0 >= start } ?? true)
        }
    }
}
