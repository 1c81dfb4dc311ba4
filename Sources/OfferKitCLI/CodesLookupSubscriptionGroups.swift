import ArgumentParser
import OfferConnect
import OfferKitSigningCLI

/// `offerkit codes lookup subscription-groups --app ID` (`GET /v1/apps/{id}/subscriptionGroups`).
struct CodesLookupSubscriptionGroups: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscription-groups",
        abstract: "List an app's subscription groups: id, reference name (GET /v1/apps/{id}/subscriptionGroups).")

    @OptionGroup var options: LookupOptions

    @Option(help: "The app's App Store Connect id (from `codes lookup apps`).")
    var app: String

    /// One subscription group in `--format json`.
    struct Group: Encodable {
        var id: String
        var referenceName: String?
    }

    /// The JSON output.
    struct Report: Encodable {
        var app: String
        var subscriptionGroups: [Group]
    }

    func run() async throws {
        let app = try LookupOptions.checkedId(app, flag: "--app")
        let groups = try await options.withLister { try await Self.groups(of: app, $0) }
        switch options.format {
        case .json: try Output.json(Report(app: app, subscriptionGroups: groups))
        case .text: LookupOptions.printRows(groups.map { [$0.id, $0.referenceName] })
        }
    }

    /// Every subscription group of `app`.
    static func groups(of app: String, _ lister: ConnectLister) async throws -> [Group] {
        let listing = try await LookupOptions.list(
            lister, "/v1/apps/\(LookupOptions.segment(app))/subscriptionGroups",
            query: [("fields[subscriptionGroups]", "referenceName"), ("limit", "200")],
            missing: "--app \(app): App Store Connect has no app with this id; `offerkit codes lookup apps` lists them")
        return listing.items.map { Group(id: $0.id, referenceName: LookupOptions.text($0, "referenceName")) }
    }
}
