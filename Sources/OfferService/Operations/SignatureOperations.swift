extension ServiceOperation {
    /// The four signing operations: promotional offer (V2 JWS), promotional offer (legacy
    /// signature), introductory-offer eligibility, and Advanced Commerce in-app requests.
    static var signatureOperations: [ServiceOperation] {
        [
            signPromotionalOffer, signLegacyPromotionalOffer, signIntroductoryOfferEligibility,
            signAdvancedCommerceRequest,
        ]
    }

    /// Operations still served at an earlier path (`deprecated: true` in the OpenAPI document).
    static var deprecatedPathOperations: [ServiceOperation] { [signLegacyPromotionalOfferDeprecatedPath] }
}
