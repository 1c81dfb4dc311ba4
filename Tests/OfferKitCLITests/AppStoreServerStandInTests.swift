import Foundation
import InteropSupport
import OfferSigning
import Testing

@testable import CLITestSupport

/// The local App Store Server API stand-in that `offerkit retention` is tested against
/// (`Tests/StandIns/app_store_server.py`): its own Python suite, and the Swift launcher the CLI's tests use.
///
/// Without Python's PyJWT, cryptography and app-store-server-library the tests are skipped
/// with a loud reason; with `CI` set they run anyway and fail, so CI can never pass without them.
@Suite("App Store Server API stand-in", .serialized)
struct AppStoreServerStandInTests {
    static var enabled: Bool {
        get async { await RetentionFixture.available || Independent.isCI }
    }

    static let suite = AppStoreConnectStandIn.packageRoot.appendingPathComponent(
        "Tests/StandIns/test_app_store_server.py"
    ).path

    @Test(
        "The stand-in's own suite passes (tokens, rules, PNG, performance test, faults, Apple's own client)",
        .enabled(RetentionFixture.reason) { await enabled })
    func pythonSuitePasses() async throws {
        // Beside the other tests, the one test judged by Apple's 700 ms with real answer times is skipped;
        // .ci/run's retention step runs that one test alone on the cores.
        let result = try await Independent.run(
            "env", ["OFFERKIT_STANDIN_UNDER_LOAD=1", Independent.python, Self.suite])
        #expect(result.status == 0, "\(result.stderr.suffix(6000))")
        #expect(result.stderr.contains("\nOK"), "\(result.stderr.suffix(2000))")
    }

    @Test(
        "The availability probe asks for what the stand-in imports: a Python without jsonschema runs it",
        .enabled(RetentionFixture.reason) { await enabled })
    func probeAsksForWhatTheStandInImports() async throws {
        // A Python that cannot import the given modules: stubs that raise ImportError, first on its path.
        func python(without modules: [String]) throws -> String {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "offerkit-probe-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for module in modules {
                try "raise ImportError('\(module) is hidden by the test')\n".write(
                    to: folder.appendingPathComponent("\(module).py"), atomically: true, encoding: .utf8)
            }
            let script = folder.appendingPathComponent("python")
            try "#!/bin/sh\nPYTHONPATH='\(folder.path)' exec '\(Independent.python)' \"$@\"\n".write(
                to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
            return script.path
        }
        let noSchemas = try python(without: ["jsonschema", "referencing"])
        defer { try? FileManager.default.removeItem(atPath: (noSchemas as NSString).deletingLastPathComponent) }
        await #expect(
            try await Independent.run(noSchemas, ["-c", "import jsonschema"]).status != 0, "the stub hides it")
        await #expect(AppStoreServerStandIn.missingModules(python: noSchemas) == nil)
        // The probe's verdict holds: the stand-in imports everything it needs (then --help exits 0).
        let help = try await Independent.run(noSchemas, [AppStoreServerStandIn.script, "--help"])
        #expect(help.status == 0, "\(help.stderr)")
        let noJWT = try python(without: ["jwt"])
        defer { try? FileManager.default.removeItem(atPath: (noJWT as NSString).deletingLastPathComponent) }
        await #expect(AppStoreServerStandIn.missingModules(python: noJWT)?.contains("jwt is hidden") == true)
        await #expect(try await Independent.run(noJWT, [AppStoreServerStandIn.script, "--help"]).status != 0)
    }

    @Test(
        "The launcher starts the stand-in, which accepts OfferKit's own App Store Server API tokens",
        .enabled(RetentionFixture.reason) { await enabled })
    func launcherAndControlAPI() async throws {
        let standIn = try await AppStoreServerStandIn.start()
        defer { standIn.stop() }
        #expect(standIn.baseURL.hasPrefix("http://127.0.0.1:"))
        let root = try String(contentsOfFile: standIn.testRootPath, encoding: .utf8)
        #expect(root.hasPrefix("-----BEGIN CERTIFICATE-----"))
        await #expect(try standIn.request("GET", "/_standin/test-root.pem").text == root)
        await #expect(try standIn.app()["appAppleId"] as? Int == AppStoreServerStandIn.appAppleId)

        let list = "/inApps/v1/messaging/message/list"
        let anonymous = try await standIn.request("GET", list)
        #expect(anonymous.status == 401 && anonymous.body.isEmpty)
        let signer = try OfferSigner(key: DemoKey.key, issuerId: DemoKey.issuerId, bundleId: DemoKey.bundleId)
        let token = try signer.serverAPIToken(lifetime: 600).token
        let listed = try await standIn.request("GET", list, bearer: token)
        #expect(listed.status == 200 && listed.text == #"{"messageIdentifiers":[]}"#, "\(listed.text)")
        let expired = try signer.serverAPIToken(lifetime: 60, issuedAt: Date().addingTimeInterval(-120)).token
        await #expect(try standIn.request("GET", list, bearer: expired).status == 401)

        try await standIn.setFaults(#"{"script": [{"pathPrefix": "/inApps", "fault": "server-error"}]}"#)
        await #expect(try standIn.request("GET", list, bearer: token).status == 500)
        try await standIn.configure(#"{"autoApprove": true}"#)
        let state = try await standIn.state()
        #expect(state["faultsInjected"] as? [String: Int] == ["server-error": 1])
        #expect(state["tokenFailures"] as? Int == 2)
        #expect((state["config"] as? [String: Any])?["autoApprove"] as? Bool == true)
        await #expect(throws: AppStoreServerStandIn.Failure.self) {
            try await standIn.review(kind: "message", identifier: "x")
        }
        try await standIn.reset()
        await #expect(try standIn.state()["tokenFailures"] as? Int == 0)
        await standIn.stopped()
        #expect(!standIn.isRunning)
        await #expect(throws: (any Error).self) { try await standIn.state() }
    }
}
