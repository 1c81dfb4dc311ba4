import Foundation
import InteropSupport
import Testing

/// A campaign folder with its ledger and a local App Store Connect stand-in (`Tests/StandIns/`) for the
/// tests of `offerkit codes apply`, `fetch`, `deactivate --apply` and `status`.
///
/// ``connect(_:_:address:credentials:)`` runs `offerkit codes SUBCOMMAND CAMPAIGN` in the folder with
/// `--today`, `--ledger`, the stand-in's address and the demo key (a 0600 copy, team key). Every run's
/// stdout and stderr are checked for bearer tokens and key material (``expectNoSecrets(_:)``).
///
/// Without Python's jsonschema, referencing, PyJWT and cryptography the tests that use it are skipped with
/// a loud reason (``enabled``); with `CI` set they run anyway and fail, so CI can never pass without them.
final class ApplyFixture {
    static var available: Bool {
        get async { await AppStoreConnectStandIn.unavailableReason == nil }
    }
    static var enabled: Bool {
        get async { await available || Independent.isCI }
    }
    static let reason = Comment(
        rawValue: "SKIPPED LOUDLY: `offerkit codes apply` is not tested against the App Store Connect stand-in "
            + "because \(InteropEnvironment.python) cannot import jsonschema, referencing, jwt and cryptography "
            + "(run .ci/run, or pip install jsonschema PyJWT cryptography and set OFFERKIT_PYTHON); CI never skips this"
    )

    /// The demo key as a team key: what the stand-in accepts.
    static let teamKey = [
        "--key-file", DemoKey.privateCopy, "--key-id", DemoKey.keyId, "--issuer-id", DemoKey.issuerId,
    ]
    /// The demo key as an individual key.
    static let individualKey = ["--key-file", DemoKey.privateCopy, "--key-id", DemoKey.keyId, "--individual"]
    /// The demo key as a team key of another issuer: App Store Connect refuses its tokens (401).
    static let wrongIssuerKey = [
        "--key-file", DemoKey.privateCopy, "--key-id", DemoKey.keyId, "--issuer-id",
        "11111111-2222-3333-4444-555555555555",
    ]

    /// Two offers of in-app purchases (free, so no price points): "Launch" with two one-time-use batches
    /// (5 codes for 30 days, 3 codes for 6 months) and two custom codes, "Press" with one custom code.
    /// Its plan has 7 resources: offer-1, offer-1-one-time-use-1, -2, offer-1-custom-code-1, -2, offer-2,
    /// offer-2-custom-code-1.
    static let twoOffers = CampaignFiles.campaign(
        name: "apply-test",
        offers: [
            CampaignFiles.offer(
                "Launch", productAscId: "6450000010",
                oneTimeUse: [CampaignFiles.oneTimeUse(count: 5), CampaignFiles.oneTimeUse(count: 3, expires: "P6M")],
                custom: [CampaignFiles.given(["ALPHA27", "BETA27"])]),
            CampaignFiles.offer("Press", productAscId: "6450000011", custom: [CampaignFiles.given(["GAMMA27"])]),
        ])

    /// One offer with `codes` generated custom codes: a plan of `codes + 1` resources.
    static func customCodes(_ codes: Int, name: String = "many-codes") -> String {
        CampaignFiles.campaign(
            name: name,
            offers: [
                CampaignFiles.offer(
                    "Many", custom: [CampaignFiles.generated(count: codes, prefix: "MC", length: 10)])
            ])
    }

    let files: CampaignFiles
    let campaign: String
    let standIn: AppStoreConnectStandIn

    /// Writes the campaign, runs `codes generate` (unless told not to) and starts a stand-in whose products
    /// are the campaign's (or `products`), whose day is `standInToday` and whose values are ready at once.
    init(
        _ campaignText: String = ApplyFixture.twoOffers, products: AppStoreConnectStandIn.Products? = nil,
        individual: Bool = false, standInToday: String = CampaignFiles.today, generate: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        files = try CampaignFiles.make()
        campaign = try files.write(campaignText, to: "campaign.json")
        if generate {
            let generated = try await files.run("generate", campaign)
            #expect(generated.status == 0, "\(generated)", sourceLocation: sourceLocation)
        }
        if let products {
            standIn = try await AppStoreConnectStandIn.start(
                products: products, individual: individual, today: standInToday)
        } else {
            standIn = try await AppStoreConnectStandIn.start(
                productsFromCampaign: campaign, individual: individual, today: standInToday)
        }
        try await standIn.configure(#"{"valuesNotReady": 0}"#)
    }

    /// Runs `apply` (with `arguments`) while the POST of `path` after `skip` others is asked to wait longer
    /// than OfferKit waits (429 with Retry-After 1000 s): the run stops there, exit 5. The faults are cleared
    /// after.
    func applyStopping(
        atPost path: String, skip: Int, _ arguments: [String] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await standIn.setFaults(
            #"{"script": [{"method": "POST", "pathPrefix": "\#(path)", "skip": \#(skip), "fault": "rate-limit", "retryAfter": 1000}]}"#
        )
        let partial = try await connect("apply", arguments)
        #expect(partial.status == 5, "\(partial)", sourceLocation: sourceLocation)
        try await standIn.setFaults("{}")
    }

    /// The address of a stand-in that was started and stopped: nothing listens there any more.
    static func deadAddress() async throws -> String {
        let stopped = try await AppStoreConnectStandIn.start(products: .init(inAppPurchases: ["6450000010"]))
        let address = stopped.baseURL
        await stopped.stopped()
        return address
    }

    /// Stops the stand-in and removes the folder (call it in a `defer`; safe twice).
    func close() {
        standIn.stop()
        files.remove()
    }

    deinit { close() }

    /// Waits until the stand-in's rate limit leaves at least `requests` (after `configure` filled the
    /// window, it gives one back every 3600 / limit seconds); gives up after 30 s.
    func waitForRateLimit(remaining requests: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while (try await state()["rateLimit"]?["remaining"]?.int ?? 0) < requests, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// `offerkit codes SUBCOMMAND CAMPAIGN arguments… --api-base-url STAND-IN KEY… --today … --ledger …`.
    func connect(
        _ subcommand: String, _ arguments: [String] = [], address: String? = nil,
        credentials: [String] = ApplyFixture.teamKey, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CLIResult {
        let result = try await files.run(
            subcommand, campaign, arguments + ["--api-base-url", address ?? standIn.baseURL] + credentials)
        Self.expectNoSecrets(result, sourceLocation: sourceLocation)
        return result
    }

    /// `offerkit codes SUBCOMMAND CAMPAIGN arguments… --today … --ledger …` (nothing of App Store Connect).
    func run(_ subcommand: String, _ arguments: [String] = []) async throws -> CLIResult {
        let result = try await files.run(subcommand, campaign, arguments)
        Self.expectNoSecrets(result)
        return result
    }

    /// The stand-in's state (`GET /_standin/state`).
    func state() async throws -> JSON {
        let text = await String(decoding: try standIn.stateData(), as: UTF8.self)
        guard let state = JSON.parse(text) else { throw CLIRunnerError(description: "the state is not JSON") }
        return state
    }

    /// All `/v1` and `/v2` requests the stand-in saw.
    func requestCount() async throws -> Int64 {
        await (try state()["requests"]?.object ?? [:]).values.reduce(0) { $0 + ($1.int ?? 0) }
    }

    /// The stand-in's resources of `type`, in creation order.
    func resources(_ type: String) async throws -> [JSON] {
        await (try state()["resources"]?.array ?? []).filter { $0["type"]?.string == type }
    }

    /// `codes status --format json`: the whole report.
    func status(sourceLocation: SourceLocation = #_sourceLocation) async throws -> JSON {
        let result = try await run("status", ["--format", "json"])
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        return result.json ?? .null
    }

    /// The ledger's App Store Connect resources by request id: `state`, `id`, `error`.
    func ledgerResources(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String: JSON] {
        let list = try await status(sourceLocation: sourceLocation)["appStoreConnect"]?.array ?? []
        return Dictionary(list.map { ($0["request"]?.string ?? "?", $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// request id → state, for comparing the ledger before and after a run.
    func ledgerStates() async throws -> [String: String] {
        try await ledgerResources().mapValues { ($0["state"]?.string ?? "?") + " " + ($0["id"]?.string ?? "-") }
    }

    /// Whether the ledger marks the offer active (`codes status`).
    func ledgerActive(_ offer: String) async throws -> Bool? {
        try await status()["offers"]?.array?.first { $0["offer"]?.string == offer }?["active"]?.bool
    }

    /// The plan's request ids of ``twoOffers``.
    static let twoOffersRequests = [
        "offer-1", "offer-1-one-time-use-1", "offer-1-one-time-use-2", "offer-1-custom-code-1",
        "offer-1-custom-code-2", "offer-2", "offer-2-custom-code-1",
    ]

    /// No bearer token (a JWS starts with `eyJ`), no `Authorization` header and no key material in a run's
    /// output. (``OutputLog`` also scans every run for 16-character pieces of the demo key.)
    static func expectNoSecrets(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) {
        for (name, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            for secret in [
                "eyJ", "Bearer", "BEGIN", "PRIVATE KEY", String(DemoKey.base64Body.dropFirst(48).prefix(24)),
            ] {
                #expect(!text.contains(secret), "\(name) contains \(secret)\n\(result)", sourceLocation: sourceLocation)
            }
        }
    }

    /// The stdout line that starts with `prefix` (after the indentation), if any.
    static func line(_ result: CLIResult, startingWith prefix: String) -> String? {
        result.stdout.split(separator: "\n").map(String.init).first { $0.hasPrefix(prefix) }
    }

    /// The text summary's counts line.
    static func counts(created: Int, alreadyThere: Int, refused: Int, skipped: Int, unfinished: Int) -> String {
        "  created \(created), already there \(alreadyThere), refused \(refused), skipped (their offer was not "
            + "created) \(skipped), unfinished \(unfinished)"
    }

    /// The label of a resource of ``twoOffers`` in messages.
    static func label(_ request: String) -> String {
        switch request {
        case "offer-1": "offer-1 (offer \"Launch\")"
        case "offer-2": "offer-2 (offer \"Press\")"
        case "offer-1-one-time-use-1":
            "offer-1-one-time-use-1 (one-time-use batch oneTimeUseCodes[0] of offer \"Launch\")"
        case "offer-1-one-time-use-2":
            "offer-1-one-time-use-2 (one-time-use batch oneTimeUseCodes[1] of offer \"Launch\")"
        default: request
        }
    }
}
