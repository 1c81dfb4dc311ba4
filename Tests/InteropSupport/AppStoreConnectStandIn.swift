import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The local App Store Connect stand-in (`Tests/StandIns/app_store_connect.py`) as a running process, for
/// the tests of `offerkit codes apply`.
///
/// It checks every request the way App Store Connect documents (tokens of the demo key, Apple's 4.4.1
/// schemas, the offer-code rules) and exposes its state and fault injection through `/_standin/`; see
/// `Tests/StandIns/README.md`.
///
/// ```swift
/// let standIn = try await AppStoreConnectStandIn.start(products: .init(subscriptions: ["6450000001"]))
/// defer { standIn.stop() }
/// try await standIn.setFaults(#"{"script": [{"method": "POST", "fault": "drop-after"}]}"#)
/// // … run the client against standIn.baseURL with a token of the demo key …
/// let state = try await standIn.state()
/// ```
public final class AppStoreConnectStandIn: @unchecked Sendable {
    /// The App Store Connect ids of the app's products; relationships to other ids are refused.
    public struct Products: Sendable {
        public var subscriptions: [String]
        public var inAppPurchases: [String]
        /// The product ID of each id that has one here: what `GET /v1/subscriptions/{id}` and
        /// `GET /v2/inAppPurchases/{id}` answer (`codes apply` checks the campaign's against it).
        public var productIds: [String: String]

        public init(subscriptions: [String] = [], inAppPurchases: [String] = [], productIds: [String: String] = [:]) {
            self.subscriptions = subscriptions
            self.inAppPurchases = inAppPurchases
            self.productIds = productIds
        }

        /// `--products`: a kind's ids as a list when none has a product ID, or as {"id": "productId"}
        /// when every one has (some but not all is a mistake of the test).
        var json: [String: Any] {
            func kind(_ ids: [String]) -> Any {
                let named = ids.filter { productIds[$0] != nil }
                if named.isEmpty { return ids }
                precondition(named.count == ids.count, "give a product ID for every id of a kind, or for none: \(ids)")
                return Dictionary(uniqueKeysWithValues: ids.map { ($0, productIds[$0]!) })
            }
            return ["subscriptions": kind(subscriptions), "inAppPurchases": kind(inAppPurchases)]
        }
    }

    /// An answer of the stand-in.
    public struct Answer: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: Data

        /// The body as text (UTF-8).
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// A header by name, ignoring case.
        public func header(_ name: String) -> String? {
            headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// Why the stand-in could not be started or asked.
    public enum Failure: LocalizedError, Sendable {
        /// The Python interpreter cannot import what the stand-in needs.
        case pythonUnavailable(python: String, detail: String)
        /// The process ended, or printed something else, before its `listening on` line.
        case didNotStart(detail: String)
        /// A control request failed or answered with an unexpected status.
        case request(path: String, detail: String)

        public var errorDescription: String? {
            switch self {
            case .pythonUnavailable(let python, let detail):
                return "the App Store Connect stand-in needs Python with jsonschema, referencing, PyJWT and "
                    + "cryptography, but \(python) cannot import them (run .ci/run, or pip install jsonschema "
                    + "PyJWT cryptography and set OFFERKIT_PYTHON): \(detail)"
            case .didNotStart(let detail):
                return "the App Store Connect stand-in did not start: \(detail)"
            case .request(let path, let detail):
                return "the App Store Connect stand-in's \(path) failed: \(detail)"
            }
        }
    }

    /// The repository's root, found from this file (`Tests/InteropSupport/`).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// `Tests/StandIns/app_store_connect.py`.
    public static let script = packageRoot.appendingPathComponent("Tests/StandIns/app_store_connect.py").path
    /// Apple's offer-code schemas the stand-in checks against.
    public static let schemas = packageRoot.appendingPathComponent(
        "Tests/Fixtures/app-store-connect/offer_code_schemas_4.4.1.json"
    ).path
    /// The demo key's key id, issuer id and files (`keys-example/`): the stand-in accepts its tokens.
    public static let keyId = "DEMOKEY123"
    public static let issuerId = "98802e6e-bab8-4f06-8c88-a2582cda3c9c"
    public static let privateKeyPath = packageRoot.appendingPathComponent(
        "keys-example/SubscriptionKey_DEMOKEY123.p8"
    ).path
    public static let publicKeyPath = packageRoot.appendingPathComponent(
        "keys-example/SubscriptionKey_DEMOKEY123.pub.pem"
    ).path

    /// Why the stand-in cannot run here (`nil` when `InteropEnvironment.python` imports its packages).
    public static var unavailableReason: String? {
        get async {
            await StandInIO.unavailableReason(
                python: InteropEnvironment.python, imports: "jsonschema, referencing, jwt, cryptography")
        }
    }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: String { running.baseURL }
    private let running: StandInIO.Running

    private init(running: StandInIO.Running) {
        self.running = running
    }

    deinit { stop() }

    /// Starts a stand-in for `products` that accepts the demo key's tokens (team key, or `individual`).
    /// - Parameters:
    ///   - today: the day the rules count from (`--today`), `nil` for the real UTC date.
    ///   - extraArguments: more options of the stand-in, e.g. `["--accept-opaque-price-points"]`.
    /// - Throws: ``Failure`` when Python or its packages are missing or the process does not start.
    public static func start(
        products: Products, individual: Bool = false, today: String? = nil, extraArguments: [String] = []
    ) async throws -> AppStoreConnectStandIn {
        let json = try JSONSerialization.data(withJSONObject: products.json, options: [.sortedKeys])
        return try await launch(
            ["--products", String(decoding: json, as: UTF8.self)], individual: individual, today: today,
            extraArguments: extraArguments)
    }

    /// Starts a stand-in whose products are those of a campaign file's `offers[].product`.
    public static func start(
        productsFromCampaign campaign: String, individual: Bool = false, today: String? = nil,
        extraArguments: [String] = []
    ) async throws -> AppStoreConnectStandIn {
        try await launch(
            ["--products-from-campaign", campaign], individual: individual, today: today,
            extraArguments: extraArguments)
    }

    /// Starts a stand-in whose look-ups list the apps, subscription groups, subscriptions, in-app purchases
    /// and prices of a catalog file (`--catalog`, see `Tests/StandIns/README.md`); its products are the
    /// catalog's. ``exampleCatalog`` is the one of `examples/campaign.json`'s app.
    public static func start(
        catalog: String, individual: Bool = false, today: String? = nil, extraArguments: [String] = []
    ) async throws -> AppStoreConnectStandIn {
        try await launch(["--catalog", catalog], individual: individual, today: today, extraArguments: extraArguments)
    }

    /// `Tests/StandIns/catalog_example.json`: the app of `examples/campaign.json` (Apple ID 1234567890) with its
    /// subscriptions and in-app purchases, and prices in USA, GBR and JPN; a second app with none.
    public static let exampleCatalog = packageRoot.appendingPathComponent("Tests/StandIns/catalog_example.json").path

    private static func launch(
        _ productArguments: [String], individual: Bool, today: String?, extraArguments: [String]
    ) async throws -> AppStoreConnectStandIn {
        if let reason = await unavailableReason {
            throw Failure.pythonUnavailable(python: InteropEnvironment.python, detail: reason)
        }
        var arguments = [
            InteropEnvironment.python, script, "--schemas", schemas, "--public-key", publicKeyPath, "--key-id", keyId,
        ]
        arguments += individual ? ["--individual"] : ["--issuer-id", issuerId]
        arguments += productArguments
        if let today { arguments += ["--today", today] }
        arguments += extraArguments

        switch try await StandInIO.launch(arguments, folderPrefix: "offerkit-asc-standin", in: packageRoot) {
        case .success(let running):
            return AppStoreConnectStandIn(running: running)
        case .failure(let problem):
            throw Failure.didNotStart(detail: problem.detail)
        }
    }

    /// What the stand-in wrote to stderr so far (its own problems; `--verbose` logs every request).
    public var stderr: String { running.stderr }

    /// Whether the process still runs.
    public var isRunning: Bool { running.isRunning }

    /// Stops the process (SIGTERM, then SIGKILL after 5 s) and removes its temporary files; returns at once
    /// (for `defer`); safe to call twice.
    public func stop() { running.stop() }

    /// ``stop()``, then waits for the process to end (nothing listens at ``baseURL`` any more).
    @discardableResult
    public func stopped() async -> ChildProcess.Ending { await running.stopped() }

    /// One HTTP request to the stand-in (a path such as `/v1/subscriptionOfferCodes`).
    /// - Parameter bearer: sent as `Authorization: Bearer …` when given.
    public func request(
        _ method: String, _ path: String, body: Data? = nil, bearer: String? = nil,
        headers: [String: String] = [:], timeout: Double = 30
    ) async throws -> Answer {
        try await running.request(
            method, path, body: body, contentType: "application/json", bearer: bearer, headers: headers,
            timeout: timeout
        ).mapError { Failure.request(path: path, detail: $0.detail) }.get()
    }

    /// `GET /_standin/state`: every resource, the counters and the log of POSTs (see the README).
    public func stateData() async throws -> Data {
        try await control("GET", "/_standin/state", body: nil).body
    }

    /// `GET /_standin/state` as a JSON object.
    public func state() async throws -> [String: Any] {
        let data = try await stateData()
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw Failure.request(path: "/_standin/state", detail: "the state is not a JSON object")
        }
        return object
    }

    /// `POST /_standin/config` with a JSON object, e.g. `{"valuesNotReady": 2, "slowSeconds": 3}`.
    public func configure(_ json: String) async throws {
        _ = try await control("POST", "/_standin/config", body: Data(json.utf8))
    }

    /// `POST /_standin/faults`: replaces the fault setup (`{"script": [...], "random": {...}}`).
    public func setFaults(_ json: String) async throws {
        _ = try await control("POST", "/_standin/faults", body: Data(json.utf8))
    }

    /// `POST /_standin/release`: lets every request a `hold-before` fault holds go on.
    ///
    /// - Returns: how many requests were held.
    @discardableResult
    public func release() async throws -> Int {
        let answer = try await control("POST", "/_standin/release", body: Data("{}".utf8))
        guard let object = try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any],
            let released = object["released"] as? Int
        else { throw Failure.request(path: "/_standin/release", detail: "the answer has no count \"released\"") }
        return released
    }

    /// `POST /_standin/reset`: no resources, counters, log or faults; the start-up configuration.
    public func reset() async throws {
        _ = try await control("POST", "/_standin/reset", body: Data("{}".utf8))
    }

    private func control(_ method: String, _ path: String, body: Data?) async throws -> Answer {
        try await running.control(method, path, body: body).mapError { Failure.request(path: path, detail: $0.detail) }
            .get()
    }
}
