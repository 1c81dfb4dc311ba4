import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit serve` on a PostgreSQL ledger whose server goes away and comes back: claims fail at
/// once (503 `ledger-unavailable`), not after the pool's 10-second connect timeout, and go on once
/// the server is back, without a restart of the service.
///
/// The server is a private one (``PrivatePostgres``), halted and resumed by the test; it runs where
/// the shared test server does (`OFFERKIT_TEST_POSTGRES_URL`, which tells that PostgreSQL is here).
@Suite("offerkit serve while its PostgreSQL server is away")
struct ServePostgresOutageTests {
    static let problem = "urn:offerkit:problem:ledger-unavailable"

    @Test("claims answer 503 at once while the server is away and succeed once it is back")
    func claimsFailAtOnceAndRecover() async throws {
        guard CLIPostgres.url != nil else {
            if Independent.isCI { Issue.record("OFFERKIT_TEST_POSTGRES_URL is unset in CI") }
            return
        }
        try await PrivatePostgres.with { postgres in
            let files = try CampaignFiles.make()
            defer { files.remove() }
            let ledger = postgres.url + "&schema=outage"
            let campaign = try files.write(
                CampaignFiles.campaign(
                    name: ServeFixture.campaign,
                    offers: [CampaignFiles.offer(ServeFixture.offer, custom: [CampaignFiles.generated(count: 20)])]
                ), to: "campaign.json")
            let generated = try await files.run(
                "generate", campaign, ledger: .at(ledger), environment: postgres.environment)
            try #require(generated.status == 0, "\(generated)")
            let key = try await ServeFixture.createKey(name: "outage", ["--scope", "codes"])
            let config = try files.write(ServeFixture.configuration(ledger: ledger), to: "service.json")
            let (server, port) = try await ServeFixture.start(
                keys: [key], config: config, environment: postgres.environment)
            defer { server.terminate() }

            let before = try await ServeFixture.claim("before", port: port, key: key)
            try #require(before.status == 200, "\(before)")

            try await postgres.halt()
            for attempt in 0..<3 {
                let asked = ContinuousClock.now
                let down = try await ServeFixture.claim("during-\(attempt)", port: port, key: key)
                let waited = ContinuousClock.now - asked
                #expect(down.status == 503 && down.json?["type"]?.string == Self.problem, "\(down)")
                #expect(down.header("Retry-After") != nil, "\(down)")
                // It takes milliseconds; a bound far above that and far below the 10 s a claim
                // used to wait for the pool's connect timeout (a guard, not a measure of speed).
                #expect(waited < .seconds(5), "the claim was answered after \(waited)")
            }
            let status = try await ServeFixture.status(port: port, key: key)
            #expect(status.status == 503 && status.json?["type"]?.string == Self.problem, "\(status)")

            try await postgres.resume()
            // The ledger tries the server every 200 ms: claims go through again within about a
            // second. The test waits up to 60 s for it (a safety net) and only checks that they do.
            var back: HTTPReply?
            let resumed = ContinuousClock.now
            while back == nil, ContinuousClock.now - resumed < .seconds(60) {
                let reply = try await ServeFixture.claim("after", port: port, key: key)
                if reply.status == 200 {
                    back = reply
                } else {
                    #expect(reply.status == 503, "\(reply)")
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let after = try #require(back, "no claim succeeded within 60 s of the server's return")
            #expect(after.json?["new"]?.bool == true, "\(after)")

            let again = try await ServeFixture.claim("before", port: port, key: key)
            #expect(again.status == 200, "\(again)")
            #expect(
                again.json?["code"]?.string == before.json?["code"]?.string && again.json?["new"]?.bool == false,
                "the recipient of before the outage keeps their code\n\(again)")
            var codes: Set<String> = []
            for attempt in 0..<3 {
                let claim = try await ServeFixture.claim("during-\(attempt)", port: port, key: key)
                #expect(claim.status == 200 && claim.json?["new"]?.bool == true, "\(claim)")
                codes.insert(claim.json?["code"]?.string ?? "")
            }
            codes.formUnion([before, after].map { $0.json?["code"]?.string ?? "" })
            #expect(codes.count == 5, "five recipients, five codes: \(codes)")
            let counted = try await ServeFixture.status(port: port, key: key)
            let batch = counted.json?["offers"]?[0]?["batches"]?[0]
            #expect(batch?["assigned"]?.int == 5 && batch?["left"]?.int == 15, "\(counted)")

            server.terminate()
            let run = await server.waitForExit()
            #expect(run.status == 0, "\(run)")
            #expect(run.stderr.contains("ledger failed"), "the outage is logged\n\(run.stderr)")
            #expect(!run.stderr.contains(postgres.password) && !run.stdout.contains(postgres.password))
        }
    }
}
