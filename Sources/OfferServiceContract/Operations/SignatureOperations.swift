extension OperationContract {
    /// The four signing operations: promotional offer (V2 JWS), promotional offer (legacy
    /// signature), introductory-offer eligibility, and Advanced Commerce in-app requests.
    package static var signatureOperations: [OperationContract] {
        [
            signPromotionalOffer, signLegacyPromotionalOffer, signIntroductoryOfferEligibility,
            signAdvancedCommerceRequest,
        ]
    }

    /// Operations still served at an earlier path (`deprecated: true` in the OpenAPI document).
    package static var deprecatedPathOperations: [OperationContract] { [signLegacyPromotionalOfferDeprecatedPath] }
}
