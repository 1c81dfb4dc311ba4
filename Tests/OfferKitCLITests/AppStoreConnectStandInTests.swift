import Foundation
import InteropSupport
import OfferSigning
import Testing

@testable import CLITestSupport

/// The local App Store Connect stand-in that `offerkit codes apply` is tested against
/// (`Tests/StandIns/`): its own Python suite, and the Swift launcher the client's tests use.
///
/// Without Python's jsonschema, referencing, PyJWT and cryptography the tests are skipped with a loud
/// reason; with `CI` set they run anyway and fail, so CI can never pass without them.
@Suite("App Store Connect stand-in", .serialized)
struct AppStoreConnectStandInTests {
    static var available: Bool {
        get async { await AppStoreConnectStandIn.unavailableReason == nil }
    }

    static let reason = Comment(
        rawValue: "SKIPPED LOUDLY: the App Store Connect stand-in (Tests/StandIns) is not tested here because "
            + "\(InteropEnvironment.python) cannot import jsonschema, referencing, jwt and cryptography (run "
            + ".ci/run, or pip install jsonschema PyJWT cryptography and set OFFERKIT_PYTHON); CI never skips this")

    static let suite = AppStoreConnectStandIn.packageRoot.appendingPathComponent(
        "Tests/StandIns/test_app_store_connect.py"
    ).path

    @Test(
        "The stand-in's own suite passes (tokens, schemas, rules, paging, values, faults, rate limit, the example plan)",
        .enabled(reason) { await available || Independent.isCI })
    func pythonSuitePasses() async throws {
        // The end-to-end test of the suite runs this build's offerkit (codes generate, plan, import).
        let command = ["OFFERKIT_BIN=\(CLI.binary.path)", Independent.python, Self.suite]
        let result = try await Independent.run("env", command)
        #expect(result.status == 0, "\(result.stderr.suffix(6000))")
        #expect(result.stderr.contains("\nOK"), "\(result.stderr.suffix(2000))")
    }

    @Test(
        "The launcher starts the stand-in, which accepts OfferKit's own App Store Connect tokens",
        .enabled(reason) { await available || Independent.isCI })
    func launcherAndControlAPI() async throws {
        let standIn = try await AppStoreConnectStandIn.start(
            productsFromCampaign: CLI.packageRoot.appendingPathComponent("examples/campaign.json").path,
            today: "2027-01-10")
        defer { standIn.stop() }
        #expect(standIn.baseURL.hasPrefix("http://127.0.0.1:"))
        let products = try await #require(try standIn.state()["products"] as? [String: [String]])
        #expect(products["subscriptions"] == ["6450000001", "6450000002"])
        #expect(products["inAppPurchases"] == ["6450000009", "6450000010", "6450000011"])

        let list = "/v1/subscriptions/6450000001/offerCodes"
        let anonymous = try await standIn.request("GET", list)
        #expect(anonymous.status == 401 && anonymous.text.contains("NOT_AUTHORIZED"), "\(anonymous.text)")
        #expect(anonymous.header("X-Rate-Limit") == "user-hour-lim:3500;user-hour-rem:3500;")

        let signer = try ConnectAPITokenSigner(key: DemoKey.key, issuer: .team(issuerId: DemoKey.issuerId))
        let token = try signer.token(lifetime: 1200).token
        let listed = try await standIn.request("GET", list, bearer: token)
        #expect(listed.status == 200, "\(listed.text)")
        #expect(listed.header("X-Rate-Limit") == "user-hour-lim:3500;user-hour-rem:3499;")
        let expired = try ConnectAPITokenSigner(
            key: DemoKey.key, issuer: .team(issuerId: DemoKey.issuerId),
            clock: .fixed(Date().addingTimeInterval(-1300))
        ).token(lifetime: 1200).token
        await #expect(try standIn.request("GET", list, bearer: expired).status == 401, "an expired token")

        try await standIn.configure(#"{"valuesNotReady": 3, "rateLimit": {"limit": 10, "used": 4}}"#)
        try await standIn.setFaults(
            #"{"script": [{"method": "GET", "pathPrefix": "/v1/subscriptions", "fault": "unavailable"}]}"#)
        await #expect(try standIn.request("GET", list, bearer: token).status == 503)
        let listedAgain = try await standIn.request("GET", list, bearer: token)
        #expect(listedAgain.header("X-Rate-Limit") == "user-hour-lim:10;user-hour-rem:5;")
        let state = try await standIn.state()
        #expect((state["config"] as? [String: Any])?["valuesNotReady"] as? Int == 3)
        #expect(state["faultsInjected"] as? [String: Int] == ["unavailable": 1])
        #expect(state["tokenFailures"] as? Int == 2)
        #expect(state["responseSchemaFailures"] as? Int == 0)

        try await standIn.reset()
        await #expect(try standIn.state()["tokenFailures"] as? Int == 0)
        await #expect(throws: AppStoreConnectStandIn.Failure.self) { try await standIn.configure(#"{"nope": 1}"#) }
        await standIn.stopped()
        #expect(!standIn.isRunning)
        await #expect(throws: (any Error).self) { try await standIn.state() }
    }

    @Test("The launcher names a missing product file clearly", .enabled(reason) { await available || Independent.isCI })
    func launcherReportsAStartFailure() async throws {
        await #expect {
            try await AppStoreConnectStandIn.start(productsFromCampaign: "/nonexistent/campaign.json")
        } throws: { error in
            let text = error.localizedDescription
            return text.contains("did not start") && text.contains("/nonexistent/campaign.json")
        }
    }
}
