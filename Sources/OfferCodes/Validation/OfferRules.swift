/// The rules for one offer's own fields: names (``DisplayNameRules`` for `displayName`), product
/// type against payment mode and the fields only auto-renewable subscriptions have, customer
/// eligibilities, then prices and code batches (``PriceRules``, ``CodeBatchRules``).
///
/// The rules check what could be read (``OfferDraft``): a rule that needs a part with a shape
/// problem is skipped for that part only.
struct OfferRules {
    /// The day expiry dates are checked against.
    let today: CalendarDate

    /// Adds every problem of `offer`, which is at `path`.
    func check(_ offer: OfferDraft, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        if let name = offer.referenceName { checkReferenceName(name, at: path["referenceName"], into: &findings) }
        DisplayNameRules.check(offer, at: path, into: &findings)
        if let product = offer.product { checkProduct(product, at: path["product"], into: &findings) }
        checkPaymentMode(offer, at: path, into: &findings)
        checkDuration(offer, at: path, into: &findings)
        checkNumberOfPeriods(offer, at: path, into: &findings)
        checkCustomerEligibilities(offer, at: path["customerEligibilities"], into: &findings)
        checkSubscriptionFields(offer, at: path, into: &findings)
        PriceRules.check(offer, at: path, into: &findings)
        CodeBatchRules(today: today).check(offer, at: path, into: &findings)
    }

    private func checkReferenceName(_ name: String, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        let message: String
        if name.allSatisfy(\.isWhitespace) {
            message =
                "the reference name is empty; name the offer (App Store Connect lists it by this name, and "
                + "StoreKit reports it as the transaction's offerIdentifier)"
        } else if name.count > CampaignLimits.maximumReferenceNameLength {
            message =
                "\(ProblemText.quoted(name)) is \(name.count) characters long; shorten it to "
                + "\(CampaignLimits.maximumReferenceNameLength) or fewer"
        } else if let control = name.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            message =
                "\(ProblemText.quoted(name)) contains the control character \(ProblemText.scalarName(control)); remove it"
        } else {
            return
        }
        findings.add(path, rule: "reference-name", message, allowed: AllowedText.referenceName)
    }

    private func checkProduct(_ product: ProductDraft, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        if let id = product.id, id.allSatisfy(\.isWhitespace) {
            findings.add(
                path["id"], rule: "empty-value",
                "the product's App Store Connect id is empty; give the Apple ID of the subscription or in-app purchase",
                allowed: AllowedText.connectId)
        } else if let id = product.id, !ConnectResource.isValidId(id) {
            findings.add(
                path["id"], rule: "connect-id",
                "\(ProblemText.quoted(id)) is not an App Store Connect id; give the Apple ID of the subscription or "
                    + "in-app purchase (offerkit codes lookup subscriptions and offerkit codes lookup in-app-purchases "
                    + "list them)", allowed: AllowedText.connectId)
        }
        if let productId = product.productId, productId.allSatisfy(\.isWhitespace) {
            findings.add(
                path["productId"], rule: "empty-value",
                "the product identifier is empty; give the identifier the app uses, such as com.example.app.monthly",
                allowed: AllowedText.productId)
        }
    }

    private func checkPaymentMode(_ offer: OfferDraft, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        guard let type = offer.productType, let mode = offer.paymentMode, !type.allowedPaymentModes.contains(mode)
        else { return }
        let reason =
            type.isAutoRenewable
            ? "offer codes for auto-renewable subscriptions are FREE_TRIAL, PAY_AS_YOU_GO or PAY_UP_FRONT"
            : "offer codes for products other than auto-renewable subscriptions are ONE_TIME (free or discounted)"
        findings.add(
            path["paymentMode"], rule: "payment-mode-for-product-type",
            "\(mode.rawValue) is not available for \(ProblemText.withArticle(type)); \(reason)",
            allowed: "for \(ProblemText.withArticle(type)): " + ProblemText.list(type.allowedPaymentModes))
    }

    private func checkDuration(_ offer: OfferDraft, at path: ProblemPath, into findings: inout [CampaignFinding]) {
        guard let type = offer.productType, offer.duration.isKnown else { return }
        if type.isAutoRenewable, offer.duration.value == nil {
            findings.add(
                path["duration"], rule: "duration-for-product-type",
                "an offer for an auto-renewable subscription needs a duration (the length of one period); add one",
                allowed: AllowedText.oneOf(OfferDuration.self))
        } else if !type.isAutoRenewable, let duration = offer.duration.value {
            findings.add(
                path["duration"], rule: "duration-for-product-type",
                "\(duration.rawValue) is set, but offers for \(ProblemText.withArticle(type)) have no periods; "
                    + "remove \"duration\"", allowed: Self.subscriptionsOnly(type))
        }
    }

    private func checkNumberOfPeriods(
        _ offer: OfferDraft, at path: ProblemPath, into findings: inout [CampaignFinding]
    ) {
        guard let type = offer.productType, offer.numberOfPeriods.isKnown else { return }
        let periods = offer.numberOfPeriods.value
        let mode = offer.paymentMode?.rawValue ?? ""
        let message: String
        let allowed: String
        switch (type.isAutoRenewable, offer.paymentMode) {
        case (true, nil):
            return  // the payment mode could not be read
        case (false, _):
            guard let periods else { return }
            message =
                "is \(periods), but offers for \(ProblemText.withArticle(type)) are ONE_TIME and have no periods; "
                + "remove \"numberOfPeriods\""
            allowed = Self.subscriptionsOnly(type)
        case (true, .freeTrial), (true, .payUpFront):
            guard let periods, periods != 1 else { return }
            message =
                "is \(periods), but \(mode) offers last exactly one period; set it to 1 or leave it out, "
                + "and choose a longer duration instead"
            allowed = "1, or leave it out, for \(mode)"
        case (true, .payAsYouGo):
            if let periods, periods >= 1 { return }
            message =
                periods.map { "is \($0); PAY_AS_YOU_GO offers charge for at least one period" }
                ?? "is missing; PAY_AS_YOU_GO offers need the number of periods the discounted price lasts"
            allowed = "an integer >= 1 for PAY_AS_YOU_GO"
        case (true, .oneTime):
            return  // reported by payment-mode-for-product-type
        }
        findings.add(path["numberOfPeriods"], rule: "number-of-periods", "numberOfPeriods " + message, allowed: allowed)
    }

    private func checkCustomerEligibilities(
        _ offer: OfferDraft, at path: ProblemPath, into findings: inout [CampaignFinding]
    ) {
        guard let eligibilities = offer.customerEligibilities else { return }
        let type = offer.productType
        let allowed =
            type.map {
                "for \(ProblemText.withArticle($0)): one or more of "
                    + ProblemText.list($0.allowedCustomerEligibilities)
            } ?? AllowedText.customerEligibilities
        guard !eligibilities.isEmpty else {
            findings.add(
                path, rule: "customer-eligibilities", "the list is empty; say who may redeem the codes",
                allowed: allowed)
            return
        }
        var seen: Set<CustomerEligibility> = []
        for (index, eligibility) in eligibilities.enumerated() {
            guard let eligibility else { continue }
            if let type, !type.allowedCustomerEligibilities.contains(eligibility) {
                let kind =
                    ProductType.autoRenewableSubscription.allowedCustomerEligibilities.contains(eligibility)
                    ? "auto-renewable subscriptions" : "in-app purchases other than auto-renewable subscriptions"
                findings.add(
                    path[index], rule: "customer-eligibility-for-product-type",
                    "\(eligibility.rawValue) is for \(kind), not for \(ProblemText.withArticle(type)); use "
                        + type.allowedCustomerEligibilities.map(\.rawValue).joined(separator: ", ") + " instead",
                    allowed: allowed)
            }
            if !seen.insert(eligibility).inserted {
                findings.add(
                    path[index], rule: "duplicate-customer-eligibility",
                    "\(eligibility.rawValue) is listed more than once; remove the repeat", allowed: allowed)
            }
        }
    }

    private func checkSubscriptionFields(
        _ offer: OfferDraft, at path: ProblemPath, into findings: inout [CampaignFinding]
    ) {
        guard let type = offer.productType else { return }
        if type.isAutoRenewable {
            guard case .absent = offer.offerEligibility else { return }
            findings.add(
                path["offerEligibility"], rule: "offer-eligibility-for-product-type",
                "an offer for an auto-renewable subscription must say whether it stacks with or replaces "
                    + "introductory offers; add offerEligibility", allowed: AllowedText.oneOf(OfferEligibility.self))
            return
        }
        if let eligibility = offer.offerEligibility.value {
            findings.add(
                path["offerEligibility"], rule: "offer-eligibility-for-product-type",
                "\(eligibility.rawValue) is set, but only auto-renewable subscriptions have introductory offers; "
                    + "remove \"offerEligibility\"", allowed: Self.subscriptionsOnly(type))
        }
        if let enabled = offer.autoRenewEnabled.value {
            findings.add(
                path["autoRenewEnabled"], rule: "auto-renewable-only",
                "autoRenewEnabled is \(enabled), but \(ProblemText.withArticle(type)) does not renew; remove it",
                allowed: Self.subscriptionsOnly(type))
        }
        if let planType = offer.targetSubscriptionPlanType.value {
            findings.add(
                path["targetSubscriptionPlanType"], rule: "auto-renewable-only",
                "targetSubscriptionPlanType is \(planType.rawValue), but \(ProblemText.withArticle(type)) has no "
                    + "subscription plan; remove it", allowed: Self.subscriptionsOnly(type))
        }
    }

    /// The `allowed` text of a field that only auto-renewable subscriptions have.
    private static func subscriptionsOnly(_ type: ProductType) -> String {
        "nothing for \(ProblemText.withArticle(type)): auto-renewable subscriptions only"
    }
}
