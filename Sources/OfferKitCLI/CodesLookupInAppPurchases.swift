import ArgumentParser
import OfferConnect
import OfferKitSigningCLI

/// `offerkit codes lookup in-app-purchases --app ID` (`GET /v1/apps/{id}/inAppPurchasesV2`).
struct CodesLookupInAppPurchases: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "in-app-purchases",
        abstract: "List an app's in-app purchases: id, product ID, type, name (GET /v1/apps/{id}/inAppPurchasesV2).",
        discussion: """
            A campaign's product is {"id": ID, "productId": PRODUCT ID, "type": TYPE} with the type shown \
            (CONSUMABLE, NON_CONSUMABLE or NON_RENEWING_SUBSCRIPTION).
            """)

    @OptionGroup var options: LookupOptions

    @Option(help: "The app's App Store Connect id (from `codes lookup apps`).")
    var app: String

    /// One in-app purchase in `--format json`.
    struct InAppPurchase: Encodable {
        var id: String
        var productId: String?
        var name: String?
        var inAppPurchaseType: String?
        var state: String?
    }

    /// The JSON output.
    struct Report: Encodable {
        var app: String
        var inAppPurchases: [InAppPurchase]
    }

    func run() async throws {
        let app = try LookupOptions.checkedId(app, flag: "--app")
        let listing = try await options.withLister { lister in
            try await LookupOptions.list(
                lister, "/v1/apps/\(LookupOptions.segment(app))/inAppPurchasesV2",
                query: [("fields[inAppPurchases]", "name,productId,inAppPurchaseType,state"), ("limit", "200")],
                missing: "--app \(app): App Store Connect has no app with this id; `offerkit codes lookup apps` "
                    + "lists them")
        }
        let purchases = listing.items.map { item in
            InAppPurchase(
                id: item.id, productId: LookupOptions.text(item, "productId"), name: LookupOptions.text(item, "name"),
                inAppPurchaseType: LookupOptions.text(item, "inAppPurchaseType"),
                state: LookupOptions.text(item, "state"))
        }
        switch options.format {
        case .json: try Output.json(Report(app: app, inAppPurchases: purchases))
        case .text: LookupOptions.printRows(purchases.map { [$0.id, $0.productId, $0.inAppPurchaseType, $0.name] })
        }
    }
}
