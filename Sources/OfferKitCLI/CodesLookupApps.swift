import ArgumentParser
import OfferConnect
import OfferKitSigningCLI

/// `offerkit codes lookup apps`: the apps the API key sees (`GET /v1/apps`).
struct CodesLookupApps: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "List the apps the API key sees: id, bundle ID, SKU, name (GET /v1/apps).")

    @OptionGroup var options: LookupOptions

    /// One app in `--format json`.
    struct App: Encodable {
        var id: String
        var name: String?
        var bundleId: String?
        var sku: String?
        var primaryLocale: String?
    }

    func run() async throws {
        let listing = try await options.withLister { lister in
            try await LookupOptions.list(
                lister, "/v1/apps", query: [("fields[apps]", "name,bundleId,sku,primaryLocale"), ("limit", "200")],
                missing: "App Store Connect has no app list")
        }
        let apps = listing.items.map { item in
            App(
                id: item.id, name: LookupOptions.text(item, "name"), bundleId: LookupOptions.text(item, "bundleId"),
                sku: LookupOptions.text(item, "sku"), primaryLocale: LookupOptions.text(item, "primaryLocale"))
        }
        switch options.format {
        case .json: try Output.json(["apps": apps])
        case .text: LookupOptions.printRows(apps.map { [$0.id, $0.bundleId, $0.sku, $0.name] })
        }
    }
}
