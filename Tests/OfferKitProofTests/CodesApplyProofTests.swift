import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The proofs of issue 17: `offerkit codes apply` creates each resource of a campaign in App Store
/// Connect exactly once, and a run stopped anywhere (faults, SIGKILL) is finished by running it again.
///
/// Each test runs the built `offerkit` against its own App Store Connect stand-in
/// (`Tests/StandIns/`) with its own ledger, and judges by the stand-in's state: its resources, its
/// log of POSTs and its counters (repeated creates, token, schema and answer failures). Without
/// Python's jsonschema, referencing, PyJWT and cryptography the tests are skipped loudly; with `CI`
/// set they run anyway and fail. No assertion depends on time.
@Suite("offerkit codes apply: exactly once, resumable (issue 17)", .serialized)
struct CodesApplyProofTests {
    /// Every kind of fault the stand-in injects.
    static let faultKinds = [
        "rate-limit", "rate-limit-no-retry-after", "server-error", "unavailable", "drop-before", "drop-after", "slow",
        "slow-before",
    ]

    // MARK: 1. A clean run

    @Test(
        "A clean run creates every resource of the example campaign once, the ledger holds Apple's ids, a second run sends nothing (SQLite)",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func cleanRunOnSQLite() async throws {
        try await cleanRun(ledger: .folder)
    }

    @Test(
        "The same clean run on a PostgreSQL ledger",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func cleanRunOnPostgreSQL() async throws {
        guard let ledger = CLIPostgres.ledger("postgres") else { return }
        try await cleanRun(ledger: ledger)
    }

    /// `examples/campaign.json` has every product type (auto-renewable, consumable, non-consumable,
    /// non-renewing) and payment mode (free trial, pay as you go, pay up front, one time).
    private func cleanRun(ledger: CampaignFiles.LedgerChoice) async throws {
        let proof = try await ApplyProof(ledger: ledger)
        defer { proof.stop() }
        let validated = try await proof.codes("validate")
        #expect(validated.status == 0, "\(validated)")
        let generated = try await proof.codes("generate")
        try #require(generated.status == 0, "\(generated)")
        let plan = try await proof.plan()

        let first = try await proof.apply()
        try #require(first.status == 0, "\(first)")
        let summary = try #require(first.json, "\(first)")
        #expect(summary["planned"]?.int == Int64(plan.count))
        #expect(summary["created"]?.int == Int64(plan.count))
        #expect(summary["alreadyThere"]?.int == 0)
        #expect(summary["refused"]?.array?.isEmpty == true)
        #expect(summary["unfinished"]?.int == 0)
        #expect(summary["codesPending"]?.array?.isEmpty == true)
        #expect(summary["importProblems"]?.array?.isEmpty == true)
        #expect(summary["imported"]?.array?.count == 5, "\(first)")
        try await proof.checkEndState(plan: plan)

        let before = try await proof.state()
        let second = try await proof.apply()
        #expect(second.status == 0, "\(second)")
        let again = try #require(second.json, "\(second)")
        #expect(again["created"]?.int == 0)
        #expect(again["alreadyThere"]?.int == Int64(plan.count))
        #expect(again["imported"]?.array?.isEmpty == true)
        let after = try await proof.state()
        #expect(
            after.posts.count == before.posts.count, "the second run sent \(after.posts.dropFirst(before.posts.count))")
        #expect(Self.posts(after) == Self.posts(before))
        let totals = try await proof.dryRunTotals()
        #expect(totals == (plan.count, 0, 0, 0), "\(totals)")
    }

    /// The stand-in's POST counters (`requests` {"POST /template": n}).
    static func posts(_ state: StandInState) -> [String: Int64] {
        (state.raw["requests"]?.object ?? [:]).filter { $0.key.hasPrefix("POST ") }.compactMapValues(\.int)
    }

    // MARK: 2. Under faults

    @Test(
        "Under random faults of every kind, repeated runs end in the clean run's state, nothing created twice",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func underFaults() async throws {
        // The example campaign with a tenth of its generated custom codes (149 resources instead of 1,319),
        // to keep the run short in CI; every product type, payment mode and kind of resource stays.
        let proof = try await ApplyProof(
            campaignText: Self.exampleCampaign(name: "spring-2027-faults", shrinkingBy: 10))
        defer { proof.stop() }
        try await #require(try proof.codes("generate").status == 0)
        let plan = try await proof.plan()
        let reference = try await Self.referenceState(of: proof, plan: plan)

        // Seed 9 draws every kind within the stand-in's first 63 requests (Python's random.Random(9),
        // one draw per request), so each is injected whatever the order of the run's ~150 requests.
        // slow and slow-before answer after 1.25 s, past the client's 1 s timeout; slow-before creates the
        // resource at 1.25 s, before the lookup that follows the timeout by 1 s.
        try await proof.standIn.configure(#"{"slowSeconds": 1.25}"#)
        let kinds = Self.faultKinds.map { "\"\($0)\"" }.joined(separator: ", ")
        try await proof.standIn.setFaults(
            #"{"random": {"seed": 9, "probability": 0.09, "kinds": [\#(kinds)], "retryAfter": 1}}"#)
        var runs: [CLIResult] = []
        while runs.last?.status != 0, runs.count < 10 {
            let run = try await proof.apply(["--timeout", "1"])
            runs.append(run)
            // 5: App Store Connect could not be reached after the retries (resumable); anything else is wrong.
            try #require([0, 5].contains(run.status), "\(run)")
        }
        try #require(runs.last?.status == 0, "no run finished: \(runs.last.map(\.description) ?? "")")
        try await proof.standIn.setFaults("{}")

        let state = try await proof.state()
        let injected = state.raw["faultsInjected"]?.object ?? [:]
        for kind in Self.faultKinds {
            #expect((injected[kind]?.int ?? 0) >= 1, "no \(kind) fault was injected: \(injected)")
        }
        let normalized = try await proof.checkEndState(plan: plan)
        #expect(normalized == reference, "the state after faults differs from a clean run's")
        let totals = try await proof.dryRunTotals()
        #expect(totals == (plan.count, 0, 0, 0), "\(totals)")
    }

    // MARK: 3. SIGKILL at 20 points

    @Test(
        "Killed with SIGKILL at 20 random points and run again, apply ends in the clean run's state, never creating anything twice",
        .enabled(ApplyFixture.reason) { await ApplyFixture.enabled })
    func killedAtRandomPoints() async throws {
        let proof = try await ApplyProof()
        defer { proof.stop() }
        try await #require(try proof.codes("generate").status == 0)
        let plan = try await proof.plan()
        let reference = try await Self.referenceState(of: proof, plan: plan)

        // 16 kills spread over the creates: at seeded points of progress (resources the stand-in holds),
        // plus up to 20 ms. Then 4 in the one-time-use codes phase: at the first or second `GET …/values`
        // of the run, plus up to 50 ms (the codes are asked for, waited for and imported one batch at a
        // time: each of these runs gets through one batch at most, so each is killed).
        var random = SplitMix64(seed: 17)  // the same kill points on every run
        let targets = (0..<16).map { _ in Int.random(in: 0..<plan.count, using: &random) }.sorted()
        var kills = 0
        var killedCreating = 0
        var existing = try await proof.state().connectResources.count
        for round in 0..<20 {
            let run = try BackgroundRun(proof.applyCommand(["--verbose"]), in: proof.files)
            if round < 16 {
                let target = targets[round]
                _ = await run.poll(upTo: 100) { existing + ApplyProof.created(in: run.stderr) >= target }
                try await Task.sleep(for: .microseconds(Int.random(in: 0...20_000, using: &random)))
            } else {
                let values = Int.random(in: 1...2, using: &random)
                _ = await run.poll(upTo: 100) { Self.valuesRequests(in: run.stderr) >= values }
                try await Task.sleep(for: .microseconds(Int.random(in: 0...50_000, using: &random)))
            }
            let killed = await run.kill()
            #expect(
                killed, "round \(round): apply finished before it was killed\n\(run.stdout)\n\(run.stderr.suffix(2000))"
            )
            guard killed else { continue }
            kills += 1

            // Right after the kill: everything the stand-in holds is recorded created or marked sent.
            let state = try await proof.state()
            existing = state.connectResources.count
            if existing < plan.count { killedCreating += 1 }
            let status = try await proof.status()
            let (created, sent) = try proof.checkLedger(plan: plan, state: state, status: status)
            let totals = try await proof.dryRunTotals()
            #expect(totals.exist == created && totals.lookUp == sent && totals.retry == 0, "\(totals)")
            if created < plan.count {
                #expect(totals.exist + totals.create + totals.lookUp == plan.count, "\(totals)")
                #expect(totals.create + totals.lookUp > 0, "\(totals)")
            }
        }
        #expect(kills == 20)
        #expect(killedCreating >= 10, "only \(killedCreating) kills came while resources were being created")

        let last = try await proof.apply()
        #expect(last.status == 0, "\(last)")
        let normalized = try await proof.checkEndState(plan: plan)
        #expect(normalized == reference, "the state after the kills differs from a clean run's")
        let totals = try await proof.dryRunTotals()
        #expect(totals == (plan.count, 0, 0, 0), "\(totals)")
    }

    /// `GET …/values` lines of `--verbose`.
    static func valuesRequests(in stderr: String) -> Int {
        stderr.split(separator: "\n").count(where: { $0.hasPrefix("offerkit: GET ") && $0.contains("/values ") })
    }

    // MARK: Helpers

    /// The normalised state a clean run of the proof's campaign leaves: applied with a copy of its
    /// ledger (same custom codes) on the same stand-in, which is then reset.
    static func referenceState(of proof: ApplyProof, plan: [JSON]) async throws -> [String] {
        let copy = proof.files.file("reference.sqlite")
        try FileManager.default.copyItem(atPath: proof.ledgerPath, toPath: copy)
        try await proof.standIn.configure(#"{"valuesNotReady": 0}"#)
        let run = try await proof.apply(ledger: .at(copy))
        try #require(run.status == 0, "\(run)")
        let state = try await proof.state()
        try #require(state.raw["repeatedCreates"]?.int == 0)
        try #require(state.connectResources.count == plan.count)
        try await proof.standIn.reset()
        return state.normalized()
    }

    /// `examples/campaign.json` renamed, with each `generate` count divided by `factor` (at least 10).
    static func exampleCampaign(name: String, shrinkingBy factor: Int) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: CampaignFiles.example))
        var campaign = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        campaign["name"] = name
        var offers = try #require(campaign["offers"] as? [[String: Any]])
        for index in offers.indices {
            guard var batches = offers[index]["customCodes"] as? [[String: Any]] else { continue }
            for batch in batches.indices {
                guard var generate = batches[batch]["generate"] as? [String: Any], let count = generate["count"] as? Int
                else { continue }
                generate["count"] = max(10, count / factor)
                batches[batch]["generate"] = generate
            }
            offers[index]["customCodes"] = batches
        }
        campaign["offers"] = offers
        return String(
            decoding: try JSONSerialization.data(withJSONObject: campaign, options: [.sortedKeys]), as: UTF8.self)
    }
}
