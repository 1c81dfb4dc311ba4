/// The rules for one promotional, introductory or win-back offer: its subscription, payment mode,
/// duration and periods, prices, names, dates and (win-back) customer eligibility. The limits that
/// span offers are ``SubscriptionOfferLimitRules``.
///
/// Apple's documents the rules come from, and where a number is OfferKit's own:
/// - Payment modes: `SubscriptionOfferMode` (`FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`) is what
///   all three create requests take (App Store Connect API 4.4.1); App Store Connect Help offers the
///   same three (free, pay as you go, pay up front) for introductory, promotional and win-back offers.
/// - Durations per mode: App Store Connect Help's table "Supported durations for subscription offers"
///   is not among the documents OfferKit could read. Reported from it, and applied conservatively:
///   a free trial lasts any `SubscriptionOfferDuration`; pay up front lasts 1, 2, 3 or 6 months or 1
///   year; pay as you go charges the subscription's own period (a week, 1, 2, 3 or 6 months, a year:
///   App Store Connect's `subscriptionPeriod` values) for at most a year in all (12 weeks or months,
///   6 two-month, 4 three-month, 2 six-month periods, 1 year). Free trial and pay up front have one
///   period (`numberOfPeriods` 1).
/// - Win-back eligibility (`WinBackOfferCreateRequest.Data.Attributes`): paid subscription duration
///   1 to 24, 36, 48 or 60 months; wait between offers 2 to 24 months; time since last subscribed
///   (App Store Connect Help, Set up win-back offers, as reported): 1 to 24 months, minimum ≤ maximum.
/// - Win-back names: `referenceName` letters, digits, spaces, periods and underscores, up to 65
///   characters; `offerId` letters, digits, periods and underscores, up to 100 characters (the same
///   attributes). Apple documents no rule for promotional offer identifiers: OfferKit applies the
///   win-back rule to them, and the offer-code rule (at most 64 characters) to their reference names.
/// - Win-back dates: "First available date is today + 1 day"; "Minimum length for a win-back offer
///   is 3 days" (read conservatively: the end date at least 3 days after the start date).
/// - Introductory offer dates: Apple documents none beyond their being optional; OfferKit refuses a
///   start date in the past and an end date not after the start date (or not after today).
struct SubscriptionOfferRules {
    let today: CalendarDate

    /// Adds every problem of each promotional, introductory and win-back offer the draft could read.
    /// - Throws: `CancellationError` when the task is cancelled (checked before each offer).
    func check(_ draft: CampaignDraft, into findings: inout [CampaignFinding]) throws {
        let root = ProblemPath.root
        for (index, offer) in draft.promotionalOffers {
            try TaskCancellation.check()
            let path = root[CampaignOfferKind.promotionalOffer.campaignMember][index]
            if let name = offer.referenceName { checkPromotionalName(name, at: path["referenceName"], into: &findings) }
            if let identifier = offer.offerIdentifier {
                checkIdentifier(identifier, at: path["offerIdentifier"], into: &findings)
            }
            checkTerms(offer.terms, kind: .promotionalOffer, at: path, into: &findings)
        }
        for (index, offer) in draft.introductoryOffers {
            try TaskCancellation.check()
            let path = root[CampaignOfferKind.introductoryOffer.campaignMember][index]
            checkTerms(offer.terms, kind: .introductoryOffer, at: path, into: &findings)
            checkIntroductoryDates(offer, at: path, into: &findings)
        }
        for (index, offer) in draft.winBackOffers {
            try TaskCancellation.check()
            let path = root[CampaignOfferKind.winBackOffer.campaignMember][index]
            if let name = offer.referenceName { checkWinBackName(name, at: path["referenceName"], into: &findings) }
            if let identifier = offer.offerIdentifier {
                checkIdentifier(identifier, at: path["offerIdentifier"], into: &findings)
            }
            checkTerms(offer.terms, kind: .winBackOffer, at: path, into: &findings)
            if let eligibility = offer.eligibility {
                checkEligibility(eligibility, at: path["customerEligibility"], into: &findings)
            }
            checkWinBackDates(offer, at: path, into: &findings)
        }
    }

    // MARK: Terms

    /// The modes a subscription offer may have.
    static let subscriptionModes: [PaymentMode] = [.freeTrial, .payAsYouGo, .payUpFront]

    /// The durations a pay-up-front offer may last.
    static let payUpFrontDurations: [OfferDuration] = [.oneMonth, .twoMonths, .threeMonths, .sixMonths, .oneYear]

    /// The most pay-as-you-go periods of each duration: a year in all.
    static func maximumPeriods(_ duration: OfferDuration) -> Int? {
        switch duration {
        case .oneWeek, .oneMonth: 12
        case .twoMonths: 6
        case .threeMonths: 4
        case .sixMonths: 2
        case .oneYear: 1
        case .threeDays, .twoWeeks: nil
        }
    }

    private func checkTerms(
        _ terms: SubscriptionOfferTermsDraft, kind: CampaignOfferKind, at path: ProblemPath,
        into findings: inout [CampaignFinding]
    ) {
        if let subscription = terms.subscription {
            if let id = subscription.id, id.allSatisfy(\.isWhitespace) {
                findings.add(
                    path["subscription"]["id"], rule: "empty-value",
                    "the subscription's App Store Connect id is empty; give its Apple ID (offerkit codes lookup "
                        + "subscriptions lists them)", allowed: AllowedText.subscriptionId)
            } else if let id = subscription.id, !ConnectResource.isValidId(id) {
                findings.add(
                    path["subscription"]["id"], rule: "connect-id",
                    "\(ProblemText.quoted(id)) is not an App Store Connect id; give the subscription's Apple ID "
                        + "(offerkit codes lookup subscriptions lists them)", allowed: AllowedText.subscriptionId)
            }
            if let productId = subscription.productId, productId.allSatisfy(\.isWhitespace) {
                findings.add(
                    path["subscription"]["productId"], rule: "empty-value",
                    "the product identifier is empty; give the identifier the app uses, such as com.example.app.monthly",
                    allowed: AllowedText.productId)
            }
        }
        var mode = terms.paymentMode
        if let paymentMode = mode, !Self.subscriptionModes.contains(paymentMode) {
            findings.add(
                path["paymentMode"], rule: "payment-mode-for-offer-kind",
                "\(paymentMode.rawValue) is for offer codes of in-app purchases other than auto-renewable "
                    + "subscriptions; a \(kind.displayName) is FREE_TRIAL, PAY_AS_YOU_GO or PAY_UP_FRONT",
                allowed: "for a \(kind.displayName): " + ProblemText.list(Self.subscriptionModes))
            mode = nil
        }
        checkDuration(terms, mode: mode, at: path, into: &findings)
        checkPeriods(terms, mode: mode, kind: kind, at: path, into: &findings)
        PriceRules.check(terms.prices, mode: mode, at: path, into: &findings)
    }

    private func checkDuration(
        _ terms: SubscriptionOfferTermsDraft, mode: PaymentMode?, at path: ProblemPath,
        into findings: inout [CampaignFinding]
    ) {
        guard let mode, let duration = terms.duration else { return }
        let durationPath = path["duration"]
        switch mode {
        case .payUpFront where !Self.payUpFrontDurations.contains(duration):
            findings.add(
                durationPath, rule: "duration-for-payment-mode",
                "\(duration.rawValue) is shorter than a pay-up-front offer may last; choose ONE_MONTH or longer, or "
                    + "make the offer a FREE_TRIAL (free trials may last 3 days to a year)",
                allowed: "for PAY_UP_FRONT: " + ProblemText.list(Self.payUpFrontDurations))
        case .payAsYouGo where Self.maximumPeriods(duration) == nil:
            findings.add(
                durationPath, rule: "duration-for-payment-mode",
                "\(duration.rawValue) is not a subscription period; a pay-as-you-go offer charges the subscription's "
                    + "own period (ONE_WEEK, ONE_MONTH, TWO_MONTHS, THREE_MONTHS, SIX_MONTHS or ONE_YEAR) for "
                    + "numberOfPeriods periods",
                allowed: "for PAY_AS_YOU_GO: the subscription's period")
        case .payAsYouGo:
            guard let period = terms.subscription?.period.value, period.offerDuration != duration else { return }
            findings.add(
                durationPath, rule: "duration-for-subscription-period",
                "\(duration.rawValue) is not the subscription's period (\(period.rawValue)); a pay-as-you-go offer "
                    + "charges its discounted price for each of the subscription's own periods: write "
                    + "\(period.offerDuration.rawValue) and say how many in numberOfPeriods",
                allowed: "for PAY_AS_YOU_GO: \(period.offerDuration.rawValue), the subscription's period")
        default:
            return
        }
    }

    private func checkPeriods(
        _ terms: SubscriptionOfferTermsDraft, mode: PaymentMode?, kind: CampaignOfferKind, at path: ProblemPath,
        into findings: inout [CampaignFinding]
    ) {
        guard let mode, terms.numberOfPeriods.isKnown else { return }
        let periods = terms.numberOfPeriods.value
        let message: String
        let allowed: String
        switch mode {
        case .freeTrial, .payUpFront:
            guard let periods, periods != 1 else { return }
            message =
                "is \(periods), but \(mode.rawValue) offers last exactly one period; set it to 1 or leave it out, and "
                + "choose a longer duration instead"
            allowed = "1, or leave it out, for \(mode.rawValue)"
        case .payAsYouGo:
            let maximum = terms.duration.flatMap(Self.maximumPeriods)
            if let periods, periods >= 1, periods <= (maximum ?? .max) { return }
            if let periods, periods >= 1, let maximum, let duration = terms.duration {
                message =
                    "is \(periods), but a pay-as-you-go offer lasts at most a year: at most \(maximum) "
                    + "\(duration.rawValue) period\(maximum == 1 ? "" : "s")"
            } else {
                message =
                    periods.map { "is \($0); PAY_AS_YOU_GO offers charge for at least one period" }
                    ?? "is missing; PAY_AS_YOU_GO offers need the number of periods the discounted price lasts"
            }
            allowed = "an integer from 1 to \(maximum ?? 12) for PAY_AS_YOU_GO (a year in all)"
        case .oneTime:
            return
        }
        findings.add(path["numberOfPeriods"], rule: "number-of-periods", "numberOfPeriods " + message, allowed: allowed)
    }

    // MARK: Names

    private func checkPromotionalName(_ name: String, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        checkName(
            name, maximum: CampaignLimits.maximumReferenceNameLength, allowed: AllowedText.promotionalReferenceName,
            at: path, into: &findings
        ) { name in
            name.unicodeScalars.first(where: { $0.properties.generalCategory == .control }).map {
                "contains the control character \(ProblemText.scalarName($0)); remove it"
            }
        }
    }

    private func checkWinBackName(_ name: String, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        checkName(
            name, maximum: CampaignLimits.maximumWinBackReferenceNameLength, allowed: AllowedText.winBackReferenceName,
            at: path, into: &findings
        ) { name in
            name.first(where: { !(Self.isIdentifierCharacter($0) || $0 == " ") }).map {
                "contains \(CustomCodeText.describe($0)); a win-back offer's reference name is letters, digits, "
                    + "spaces, '.' and '_'"
            }
        }
    }

    /// Adds a `reference-name` problem when `name` is empty, longer than `maximum` characters, or has
    /// a character `problem` describes (its answer follows the quoted name).
    private func checkName(
        _ name: String, maximum: Int, allowed: String, at path: ProblemPath, into findings: inout [CampaignFinding],
        problem: (String) -> String?
    ) {
        let message: String
        if name.allSatisfy(\.isWhitespace) {
            message = "the reference name is empty; name the offer (App Store Connect lists it by this name)"
        } else if name.count > maximum {
            message = "\(ProblemText.quoted(name)) is \(name.count) characters long; shorten it to \(maximum) or fewer"
        } else if let problem = problem(name) {
            message = "\(ProblemText.quoted(name)) \(problem)"
        } else {
            return
        }
        findings.add(path, rule: "reference-name", message, allowed: allowed)
    }

    private func checkIdentifier(_ identifier: String, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        let maximum = CampaignLimits.maximumOfferIdentifierLength
        let message: String
        if identifier.isEmpty {
            message = "the offer identifier is empty; give the identifier the app's signatures and StoreKit name"
        } else if identifier.count > maximum {
            message =
                "\(ProblemText.quoted(identifier)) is \(identifier.count) characters long; shorten it to \(maximum) "
                + "or fewer"
        } else if let bad = identifier.first(where: { !Self.isIdentifierCharacter($0) }) {
            message =
                "\(ProblemText.quoted(identifier)) contains \(CustomCodeText.describe(bad)); an offer identifier is "
                + "letters, digits, '.' and '_'"
        } else {
            return
        }
        findings.add(path, rule: "offer-identifier", message, allowed: AllowedText.offerIdentifier)
    }

    /// ASCII letters, digits, `.` and `_`.
    static func isIdentifierCharacter(_ character: Character) -> Bool {
        guard let byte = character.asciiValue else { return false }
        return byte.isASCIIAlphanumeric || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }

    // MARK: Win-back eligibility and dates

    /// Apple's values of `customerEligibilityPaidSubscriptionDurationInMonths`.
    static let paidDurations = Set(1...24).union([36, 48, 60])

    private func checkEligibility(
        _ eligibility: WinBackEligibilityDraft, at path: ProblemPath, into findings: inout [CampaignFinding]
    ) {
        if let months = eligibility.paidSubscriptionDurationInMonths, !Self.paidDurations.contains(months) {
            findings.add(
                path["paidSubscriptionDurationInMonths"], rule: "win-back-paid-duration",
                "\(months) months is not a paid subscription duration App Store Connect offers; it takes 1 to 24 "
                    + "months, or 36, 48 or 60 (3, 4 or 5 years)", allowed: AllowedText.paidSubscriptionDuration)
        }
        if let range = eligibility.timeSinceLastSubscribed {
            for (member, months) in [("minimum", range.minimum), ("maximum", range.maximum)] {
                guard let months, !(1...24).contains(months) else { continue }
                findings.add(
                    path["timeSinceLastSubscribedInMonths"][member], rule: "win-back-time-since-last-subscribed",
                    "\(months) is outside the 1 to 24 months App Store Connect offers for the time since a customer "
                        + "last subscribed", allowed: AllowedText.monthsSinceLastSubscribed)
            }
        }
        if let wait = eligibility.waitBetweenOffersInMonths.value, !(2...24).contains(wait) {
            findings.add(
                path["waitBetweenOffersInMonths"], rule: "win-back-wait-between-offers",
                "\(wait) months is outside the 2 to 24 months App Store Connect takes for the wait between offers; "
                    + "choose 2 to 24, or leave it out", allowed: AllowedText.waitBetweenOffers)
        }
    }

    private func checkWinBackDates(
        _ offer: WinBackOfferDraft, at path: ProblemPath, into findings: inout [CampaignFinding]
    ) {
        let earliest = today.adding(days: 1)
        if let start = offer.startDate, start < earliest {
            findings.add(
                path["startDate"], rule: "start-date",
                "\(start) is before \(earliest); App Store Connect schedules a win-back offer from the day after "
                    + "today at the earliest", allowed: "\(earliest) (today + 1 day) or later")
        }
        if let start = offer.startDate, let end = offer.endDate.value, end < start.adding(days: 3) {
            findings.add(
                path["endDate"], rule: "end-date",
                "\(end) is less than 3 days after the start date \(start); a win-back offer runs for at least 3 days",
                allowed: "\(start.adding(days: 3)) (the start date + 3 days) or later, or leave it out")
        }
    }

    private func checkIntroductoryDates(
        _ offer: IntroductoryOfferDraft, at path: ProblemPath, into findings: inout [CampaignFinding]
    ) {
        if let start = offer.startDate.value, start < today {
            findings.add(
                path["startDate"], rule: "start-date",
                "\(start) is in the past (today is \(today)); leave the start date out to start at once, or choose "
                    + "a day from today on", allowed: "\(today) (today) or later, or leave it out")
        }
        guard let end = offer.endDate.value else { return }
        let after = max(offer.startDate.value ?? today, today)
        if end <= after {
            findings.add(
                path["endDate"], rule: "end-date",
                "\(end) is not after \(after == today ? "today (\(today))" : "the start date \(after)"); choose a later "
                    + "end date, or leave it out for no end", allowed: "a day after \(after), or leave it out")
        }
    }
}
