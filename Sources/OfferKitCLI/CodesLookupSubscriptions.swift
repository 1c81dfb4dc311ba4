import ArgumentParser
import OfferConnect
import OfferKitSigningCLI

/// `offerkit codes lookup subscriptions (--subscription-group ID | --app ID)`
/// (`GET /v1/subscriptionGroups/{id}/subscriptions`, for each of the app's groups with `--app`).
struct CodesLookupSubscriptions: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriptions",
        abstract: "List auto-renewable subscriptions: id, product ID, group, period, name.",
        discussion: """
            The subscriptions of one subscription group (GET /v1/subscriptionGroups/{id}/subscriptions), or \
            of every group of an app (--app: its groups first, then each group's subscriptions). A campaign's \
            product is {"id": ID, "productId": PRODUCT ID, "type": "AUTO_RENEWABLE_SUBSCRIPTION"}.
            """)

    @OptionGroup var options: LookupOptions

    @Option(
        name: .customLong("subscription-group"),
        help: "The subscription group's App Store Connect id (from `codes lookup subscription-groups`).")
    var subscriptionGroup: String?

    @Option(help: "An app's App Store Connect id: the subscriptions of all its groups.")
    var app: String?

    /// One subscription in `--format json`.
    struct Subscription: Encodable {
        var id: String
        var productId: String?
        var name: String?
        var state: String?
        var subscriptionPeriod: String?
        var groupLevel: Int?
        var subscriptionGroup: String
    }

    func run() async throws {
        guard (subscriptionGroup == nil) != (app == nil) else {
            throw CLIError.usage("give exactly one of --subscription-group and --app")
        }
        let group = try subscriptionGroup.map { try LookupOptions.checkedId($0, flag: "--subscription-group") }
        let app = try app.map { try LookupOptions.checkedId($0, flag: "--app") }
        let subscriptions = try await options.withLister { lister in
            var groups: [(id: String, flag: String)] = group.map { [($0, "--subscription-group \($0)")] } ?? []
            if let app {
                groups = try await CodesLookupSubscriptionGroups.groups(of: app, lister).map {
                    ($0.id, "subscription group \($0.id) of --app \(app)")
                }
            }
            var all: [Subscription] = []
            for (group, flag) in groups {
                all += try await Self.subscriptions(of: group, flag: flag, lister)
            }
            return all
        }
        switch options.format {
        case .json: try Output.json(["subscriptions": subscriptions])
        case .text:
            LookupOptions.printRows(
                subscriptions.map { [$0.id, $0.productId, $0.subscriptionGroup, $0.subscriptionPeriod, $0.name] })
        }
    }

    static func subscriptions(of group: String, flag: String, _ lister: ConnectLister) async throws -> [Subscription] {
        let listing = try await LookupOptions.list(
            lister, "/v1/subscriptionGroups/\(LookupOptions.segment(group))/subscriptions",
            query: [("fields[subscriptions]", "name,productId,state,subscriptionPeriod,groupLevel"), ("limit", "200")],
            missing: "\(flag): App Store Connect has no subscription group with this id; "
                + "`offerkit codes lookup subscription-groups --app ID` lists them")
        return listing.items.map { item in
            var level: Int?
            if let value = item.attributes["groupLevel"]?.int64, let small = Int(exactly: value) { level = small }
            return Subscription(
                id: item.id, productId: LookupOptions.text(item, "productId"), name: LookupOptions.text(item, "name"),
                state: LookupOptions.text(item, "state"),
                subscriptionPeriod: LookupOptions.text(item, "subscriptionPeriod"), groupLevel: level,
                subscriptionGroup: group)
        }
    }
}
