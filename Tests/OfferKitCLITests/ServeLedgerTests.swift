import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit serve` with a code ledger in its configuration, on SQLite and PostgreSQL: the codes
/// that `offerkit codes generate` recorded are claimed over HTTP, and a URL's password never shows.
@Suite("offerkit serve with a ledger")
struct ServeLedgerTests {
    static let postgresURL = ProcessInfo.processInfo.environment["OFFERKIT_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// The ledger locator for `backend`: a file relative to the configuration's folder, or a fresh
    /// schema on the test server (`nil` without one; an issue in CI).
    static func locator(_ backend: Backend) -> String? {
        switch backend {
        case .sqlite:
            return "ledger.sqlite"
        case .postgres:
            guard let postgresURL else {
                if Independent.isCI { Issue.record("OFFERKIT_TEST_POSTGRES_URL is unset in CI") }
                return nil
            }
            let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            return postgresURL + (postgresURL.contains("?") ? "&" : "?") + "schema=\(schema)"
        }
    }

    /// The password of a URL locator, to look for in output.
    static func password(in locator: String) -> String? {
        guard let components = URLComponents(string: locator) else { return nil }
        return components.password.flatMap { $0.isEmpty ? nil : $0 }
    }

    @Test(
        "codes recorded by the CLI are claimed exactly once over HTTP; status counts them", arguments: Backend.allCases)
    func claimsFromTheConfiguredLedger(backend: Backend) async throws {
        guard let locator = Self.locator(backend) else { return }
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let ledgerArgument = backend == .sqlite ? files.file(locator) : locator
        let campaignPath = try files.write(
            CampaignFiles.campaign(
                name: ServeFixture.campaign,
                offers: [CampaignFiles.offer(ServeFixture.offer, custom: [CampaignFiles.given(["PRESSA", "PRESSB"])])]),
            to: "campaign.json")
        let generated = try await files.run("generate", campaignPath, ledger: .at(ledgerArgument))
        try #require(generated.status == 0, "\(generated)")

        let key = try await ServeFixture.createKey(name: "e2e-codes", ["--scope", "codes"])
        let signer = try await ServeFixture.createKey(name: "e2e-signer-only", ["--scope", "promotional-offer"])
        let config = try files.write(ServeFixture.configuration(ledger: locator), to: "service.json")
        let (server, port) = try await ServeFixture.start(keys: [key, signer], config: config)

        let first = try await ServeFixture.claim("reader-1", port: port, key: key)
        #expect(first.status == 200, "\(first)")
        #expect(first.json?["code"]?.string == "PRESSA" && first.json?["new"]?.bool == true, "\(first)")
        #expect(first.json?["url"]?.string == CampaignFiles.link("PRESSA"))
        #expect(first.header("Cache-Control") == "no-store")
        let again = try await ServeFixture.claim("reader-1", port: port, key: key)
        #expect(again.json?["code"]?.string == "PRESSA" && again.json?["new"]?.bool == false, "\(again)")
        await #expect(try ServeFixture.claim("reader-2", port: port, key: key).json?["code"]?.string == "PRESSB")
        let none = try await ServeFixture.claim("reader-3", port: port, key: key)
        #expect(none.status == 409 && none.json?["type"]?.string == "urn:offerkit:problem:no-code-left", "\(none)")
        let forbidden = try await ServeFixture.claim("reader-4", port: port, key: signer)
        #expect(forbidden.status == 403, "\(forbidden)")

        let status = try await ServeFixture.status(port: port, key: key)
        #expect(status.status == 200, "\(status)")
        let batch = status.json?["offers"]?[0]?["batches"]?[0]
        #expect(
            batch?["assigned"]?.int == 2 && batch?["left"]?.int == 0 && batch?["storedCodes"]?.int == 2, "\(status)")
        let document = try await HTTPConnection.request("GET", "/openapi.json", port: port)
        #expect(document.json?["paths"]?["/v1/codes/claim"] != nil, "the served document lists the ledger operations")

        server.terminate()
        let run = await server.waitForExit()
        #expect(run.status == 0, "\(run)")
        let shown = backend == .sqlite ? files.file(locator) : "postgres://"
        #expect(
            run.stderr.split(separator: "\n").contains { $0.contains("starting") && $0.contains("ledger=\(shown)") },
            "the start line names the ledger\n\(run.stderr)")
        if let password = Self.password(in: locator) {
            #expect(!run.stderr.contains(password) && !run.stdout.contains(password), "the password is never shown")
            #expect(run.stderr.contains(":***@"), "\(run.stderr)")
        }
    }

    @Test("without a ledger the routes are 404; a --ledger that cannot be parsed is exit 2 without its password")
    func noLedgerAndBadLocator() async throws {
        let key = try await ServeFixture.createKey(name: "e2e-no-ledger", ["--scope", "codes"])
        let (server, port) = try await ServeFixture.start(keys: [key])
        let claim = try await ServeFixture.claim("reader", port: port, key: key)
        #expect(claim.status == 404 && claim.json?["type"]?.string == "urn:offerkit:problem:not-found", "\(claim)")
        let document = try await HTTPConnection.request("GET", "/openapi.json", port: port)
        #expect(document.status == 200 && document.json?["paths"]?["/v1/codes/claim"] == nil)
        server.terminate()
        await #expect(server.waitForExit().status == 0)

        let secret = "n0t-Sh0wn-pa55"
        let bad = try await CLI.run([
            "serve", "--config", ServeFixture.servicePath, "--port", "0", "--ledger",
            "mysql://offerkit:\(secret)@db.internal/offers",
        ])
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("--ledger") && !bad.stderr.contains(secret), "\(bad)")
        let unreachable = try await CLI.run([
            "serve", "--config", ServeFixture.servicePath, "--port", "0", "--ledger",
            "postgres://offerkit:\(secret)@127.0.0.1:1/offers?sslmode=disable",
        ])
        #expect(unreachable.status == 5, "\(unreachable)")
        #expect(!unreachable.stderr.contains(secret) && unreachable.stderr.contains(":***@"), "\(unreachable)")
    }
}
