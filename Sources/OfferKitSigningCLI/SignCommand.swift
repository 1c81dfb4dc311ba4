import ArgumentParser

/// `offerkit sign`: the StoreKit requests signed with the In-App Purchase key, in both command trees.
package struct SignCommand: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a StoreKit request.",
        subcommands: [
            SignPromotionalOffer.self, SignLegacyPromotionalOffer.self, SignIntroductoryOfferEligibility.self,
            SignAdvancedCommerce.self,
        ]
    )
}
