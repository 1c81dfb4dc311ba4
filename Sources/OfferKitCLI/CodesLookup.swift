import ArgumentParser

/// `offerkit codes lookup …`: the App Store Connect ids a campaign file names, listed from App
/// Store Connect with the API key of `codes apply`.
struct CodesLookup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lookup",
        abstract:
            "List the App Store Connect ids a campaign needs: apps, subscriptions, in-app purchases, price points.",
        discussion: """
            Each subcommand reads a list from the App Store Connect API (4.4.1) with the API key, address and \
            timeouts of `codes apply`, page by page (links.next), paced and retried as `apply` is (429 waits for \
            Retry-After). Text output: one line per resource, tab-separated, its id first. JSON output: one \
            object, documented in docs/offer-codes.md ("Finding the ids a campaign needs").
            """,
        subcommands: [
            CodesLookupApps.self, CodesLookupSubscriptionGroups.self, CodesLookupSubscriptions.self,
            CodesLookupInAppPurchases.self, CodesLookupPricePoints.self,
        ]
    )
}
