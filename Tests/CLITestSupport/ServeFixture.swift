import Foundation
import Testing

/// `offerkit serve` as the end-to-end tests and the proofs run it: API keys made by
/// `offerkit api-key create`, a server on a free loopback port, and the claims and status calls
/// of a served ledger.
enum ServeFixture {
    /// The demo app's service configuration (keys-example/service.json).
    static let servicePath = DemoKey.folder.appendingPathComponent("service.json").path

    /// A key made by `offerkit api-key create`: its secret and its entry as JSON text.
    struct CreatedKey {
        let secret: String
        let entryText: String
    }

    static func createKey(name: String, _ options: [String] = []) async throws -> CreatedKey {
        let result = try await CLI.run(["api-key", "create", "--name", name, "--format", "json"] + options)
        try #require(result.status == 0, "\(result)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result)")
        let secret = try #require(object["secret"] as? String)
        let entry = try #require(object["entry"])
        let entryText = String(decoding: try JSONSerialization.data(withJSONObject: entry), as: UTF8.self)
        return CreatedKey(secret: secret, entryText: entryText)
    }

    /// Starts `offerkit serve --config CONFIG --port 0 options…` (CONFIG: keys-example/service.json
    /// unless told) with `keys` in OFFERKIT_API_KEYS and `environment` added, and waits for its
    /// listening line.
    static func start(
        _ options: [String] = [], keys: [CreatedKey] = [], config: String = servicePath,
        environment extra: [String: String] = [:]
    ) async throws -> (server: ServerProcess, port: Int) {
        var environment = extra
        if !keys.isEmpty {
            environment["OFFERKIT_API_KEYS"] = "[" + keys.map(\.entryText).joined(separator: ",") + "]"
        }
        let server = try ServerProcess(
            ["serve", "--config", config, "--port", "0"] + options, environment: environment)
        let prefix = "offerkit: listening on http://127.0.0.1:"
        let line = try await server.waitForStderrLine(containing: prefix)
        let port = try #require(Int(line.dropFirst(prefix.count)), "no port in \(line)")
        return (server, port)
    }

    // MARK: A served ledger

    /// The campaign whose codes the served-ledger tests claim.
    static let campaign = "e2e-claims"
    /// Its offer.
    static let offer = "Press pass"

    /// A service configuration for the demo app with `ledger`; `unlimited`: rate limits so high
    /// that tests calling as fast as they can never meet them.
    static func configuration(ledger: String, unlimited: Bool = false) -> String {
        """
        {"apps": {"\(DemoKey.bundleId)": {"keyFile": "\(DemoKey.keyPath)", "keyId": "\(DemoKey.keyId)",
                  "issuerId": "\(DemoKey.issuerId)"}},
         \(unlimited ? #""limits": {"requestsPerSecond": 1000000, "burst": 1000000},"# : "")
         "ledger": \(CampaignFiles.quoted(ledger))}
        """
    }

    /// `GET /v1/campaigns/{campaign}/status`.
    static func status(port: Int, key: CreatedKey) async throws -> HTTPReply {
        try await HTTPConnection.request(
            "GET", "/v1/campaigns/\(campaign)/status", port: port, headers: [("Authorization", "Bearer \(key.secret)")])
    }

    /// `POST /v1/codes/claim` of the campaign's offer for `recipient`.
    static func claim(_ recipient: String, port: Int, key: CreatedKey) async throws -> HTTPReply {
        try await HTTPConnection.request(
            "POST", "/v1/codes/claim", port: port,
            headers: [("Content-Type", "application/json"), ("Authorization", "Bearer \(key.secret)")],
            body: #"{"campaign":"\#(campaign)","offer":"\#(offer)","recipient":"\#(recipient)"}"#)
    }
}
