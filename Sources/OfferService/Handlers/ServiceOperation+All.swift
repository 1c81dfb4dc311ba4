import OfferServiceContract
import OfferSigning

extension ServiceOperation {
    /// Every operation with its handler, in the order of ``OperationContract/all`` (a test checks
    /// that the two lists name the same operations, in the same order).
    package static var all: [ServiceOperation] {
        [
            signPromotionalOffer, signLegacyPromotionalOffer, signIntroductoryOfferEligibility,
            signAdvancedCommerceRequest, signBatch, createServerAPIToken, createConnectAPIToken, validateCampaign,
            planCampaign, claimCode, campaignStatus, getRetentionMessage(path: RetentionConfiguration.defaultPath),
            health, readiness, metrics, openAPIDocument, signLegacyPromotionalOfferDeprecatedPath,
        ]
    }

    /// The operation that signs batch items of each type: the one ``BatchSchemas`` names for it.
    package static let signingByType: [SigningOperation: ServiceOperation] = Dictionary(
        uniqueKeysWithValues: SigningOperation.allCases.compactMap { type in
            let id = BatchSchemas.operation(for: type).id
            return all.first { $0.id == id }.map { (type, $0) }
        })
}
