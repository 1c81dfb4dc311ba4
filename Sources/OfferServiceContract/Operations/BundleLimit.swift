/// What an API key's bundle-ID limit (its `bundleIds`) is checked against in one operation: the app
/// the operation acts for.
///
/// Every operation that needs an API key names one (``OperationContract/bundleLimit``), and the
/// authorization table of the documentation (``authorizationTable(_:)``) is written from them. A
/// key limited to other bundle IDs gets a 403 `forbidden` that says which it may use, whether or
/// not the service serves the app; a key allowed to use a bundle ID the service does not serve gets
/// a 404 `unknown-app`.
public enum BundleLimit: Sendable, Equatable {
    /// No API key: a public endpoint, or the Get Retention Message endpoint (Apple's signature
    /// authenticates it and names the app).
    case none
    /// The app named by the request's `bundleId`.
    case requestBundleId
    /// Each item's app, as on the item's own path: a batch item outside the limit is that item's 403.
    case eachItem
    /// The app of the campaign in the request: `campaign.app.bundleId`.
    case campaignInRequest
    /// The app of the campaign as the code ledger recorded it (the campaign's `app.bundleId` when
    /// `offerkit codes generate` or `import` recorded it).
    case campaignInLedger
    /// Every app: the operation acts for the whole team or reports on every app, so only a key for
    /// every app (`"bundleIds": ["*"]`) may call it.
    case everyApp

    /// What the limit covers, in the words of the authorization table.
    public var summary: String {
        switch self {
        case .none: "— (no API key)"
        case .requestBundleId: "the request's `bundleId`"
        case .eachItem: "each item's `bundleId`, as on the item's own path (a refused item is that item's 403)"
        case .campaignInRequest: "the campaign's `app.bundleId`"
        case .campaignInLedger: "the app of the campaign, as the code ledger recorded it"
        case .everyApp: "every app: only a key for every app may call it"
        }
    }

    /// The authorization table of `operations` in Markdown: operation, method and path, the scope
    /// it needs, and what the bundle-ID limit covers. The README and the OpenAPI document carry it.
    public static func authorizationTable(_ operations: [OperationContract]) -> String {
        var rows = [
            "| Operation | Path | Scope | The bundle-ID limit covers |", "| --- | --- | --- | --- |",
        ]
        for operation in operations {
            let scope: String
            if let needed = operation.scope {
                scope = "`\(needed.rawValue)`"
            } else if operation.authorizesPerItem {
                scope = "each item's `type`"
            } else {
                scope = "none"
            }
            let path =
                "`\(operation.method.rawValue) \(operation.path)`" + (operation.deprecated ? " (deprecated)" : "")
            rows.append("| `\(operation.id)` | \(path) | \(scope) | \(operation.bundleLimit.summary) |")
        }
        return rows.joined(separator: "\n")
    }
}
