import ArgumentParser

struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a StoreKit request.",
        subcommands: [
            SignPromotionalOffer.self, SignLegacyPromotionalOffer.self, SignIntroductoryOfferEligibility.self,
            SignAdvancedCommerce.self,
        ]
    )
}
