import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

/// Two `offerkit serve` processes on one PostgreSQL ledger, as behind a load balancer: claims of
/// the same recipients, concurrent and repeated, spread over both, and one instance killed with
/// SIGKILL mid-run (then started again). Every recipient ends with exactly one code, no code has
/// two recipients, and the campaign's status adds up.
@Suite("two offerkit serve instances on one PostgreSQL ledger")
struct ServeScaleOutTests {
    static let codeCount = 300
    static let recipientCount = 240
    /// How often each recipient is claimed during the run, on alternating instances.
    static let rounds = 3
    static let workers = 8

    /// One claim answered 200.
    struct Answer: Sendable {
        let recipient: Int
        let code: String
        let new: Bool
    }

    /// The claims still to make, the instances' ports (`nil`: the instance is down) and what came back.
    actor Run {
        private var plan: [(recipient: Int, instance: Int)]
        private var next = 0
        private var ports: [Int?]
        private(set) var answers: [Answer] = []
        /// Answers that are not a code (there should be none).
        private(set) var failures: [String] = []
        /// The instances whose connection failed under a claim, each time.
        private(set) var lost: [Int] = []

        init(plan: [(recipient: Int, instance: Int)], ports: [Int]) {
            self.plan = plan
            self.ports = ports
        }

        var planned: Int { plan.count }

        /// The next claim to make: its recipient and the instance to ask first.
        func take() -> (recipient: Int, instance: Int)? {
            guard next < plan.count else { return nil }
            defer { next += 1 }
            return plan[next]
        }

        /// `instance` and its port, or the other one's while it is down.
        func port(preferring instance: Int) -> (instance: Int, port: Int)? {
            if let port = ports[instance] { return (instance, port) }
            return ports[1 - instance].map { (1 - instance, $0) }
        }

        func set(_ instance: Int, port: Int?) { ports[instance] = port }
        func record(_ answer: Answer) { answers.append(answer) }
        func fail(_ text: String) { failures.append(text) }
        func lose(_ instance: Int) { lost.append(instance) }
    }

    @Test("every recipient holds one code and no code two recipients, across instances and a kill -9")
    func twoInstancesHandOutEachCodeOnce() async throws {
        guard case .at(let ledger) = CLIPostgres.ledger("postgres") else { return }
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = try files.write(
            CampaignFiles.campaign(
                name: ServeFixture.campaign,
                offers: [
                    CampaignFiles.offer(
                        ServeFixture.offer, custom: [CampaignFiles.generated(count: Self.codeCount)])
                ]), to: "campaign.json")
        let generated = try await files.run("generate", campaign, ledger: .at(ledger))
        try #require(generated.status == 0, "\(generated)")
        let key = try await ServeFixture.createKey(name: "scale-out", ["--scope", "codes"])
        let config = try files.write(
            ServeFixture.configuration(ledger: ledger, unlimited: true), to: "service.json")
        let (first, firstPort) = try await ServeFixture.start(keys: [key], config: config)
        defer { first.terminate() }
        let (second, secondPort) = try await ServeFixture.start(keys: [key], config: config)
        defer { second.terminate() }

        let seed = UInt64.random(in: 0...UInt64.max)
        var random = SplitMix64(seed: seed)
        let plan = (0..<Self.rounds).flatMap { round in
            (0..<Self.recipientCount).map { (recipient: $0, instance: ($0 + round) % 2) }
        }.shuffled(using: &random)
        let run = Run(plan: plan, ports: [firstPort, secondPort])

        // The workers claim while this task kills the second instance a third of the way in and
        // starts it again.
        let restarted = try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<Self.workers { group.addTask { await Self.work(run, key: key) } }
            while await run.answers.count < plan.count / 3 { try await Task.sleep(for: .milliseconds(5)) }
            await run.set(1, port: nil)
            let killed = await second.kill()
            #expect(killed.status == 128 + SIGKILL, "\(killed)")
            let (restarted, port) = try await ServeFixture.start(keys: [key], config: config)
            await run.set(1, port: port)
            try await group.waitForAll()
            return (restarted, port)
        }
        defer { restarted.0.terminate() }

        let failures = await run.failures
        #expect(failures.isEmpty, "seed \(seed): \(failures.prefix(5))")
        let lost = await run.lost
        #expect(lost.allSatisfy { $0 == 1 }, "seed \(seed): only the killed instance lost claims: \(lost)")
        var held: [Int: Set<String>] = [:]
        var newAnswers: [Int: Int] = [:]
        for answer in await run.answers {
            held[answer.recipient, default: []].insert(answer.code)
            if answer.new { newAnswers[answer.recipient, default: 0] += 1 }
        }
        #expect(held.count == Self.recipientCount, "seed \(seed): every recipient got an answer")
        let split = held.filter { $0.value.count != 1 }
        #expect(split.isEmpty, "seed \(seed): recipients answered with several codes: \(split.prefix(5))")
        #expect(newAnswers.values.allSatisfy { $0 <= 1 }, "seed \(seed): a code is new once per recipient")

        // Each recipient asks once more, on the instance it did not start on: the same code, not new.
        let ports = [firstPort, restarted.1]
        var codes: [String] = []
        for recipient in 0..<Self.recipientCount {
            let reply = try await ServeFixture.claim("r\(recipient)", port: ports[1 - recipient % 2], key: key)
            let code = reply.json?["code"]?.string ?? ""
            #expect(reply.status == 200 && reply.json?["new"]?.bool == false, "\(reply)")
            #expect(held[recipient] == [code], "seed \(seed): r\(recipient) held \(held[recipient] ?? []), now \(code)")
            codes.append(code)
        }
        #expect(Set(codes).count == Self.recipientCount, "no code has two recipients")
        let export = try await files.run("export", campaign, ["--format", "csv"], ledger: .at(ledger))
        let recorded = Set(CampaignFiles.codes(ofCSV: export.stdout))
        #expect(recorded.count == Self.codeCount && Set(codes).isSubset(of: recorded), "\(export)")

        for port in ports {
            let status = try await ServeFixture.status(port: port, key: key)
            let batch = status.json?["offers"]?[0]?["batches"]?[0]
            #expect(
                batch?["assigned"]?.int == Int64(Self.recipientCount)
                    && batch?["left"]?.int == Int64(Self.codeCount - Self.recipientCount)
                    && batch?["storedCodes"]?.int == Int64(Self.codeCount), "\(status)")
        }
        let schema = CLIPostgres.schema(of: ledger)
        if let rows = try await CLIPostgres.psql(
            ledger,
            "SELECT count(*), count(DISTINCT recipient), count(DISTINCT (batch_id, seq)) FROM \(schema).assignments")
        {
            let count = Self.recipientCount
            #expect(rows == "\(count)|\(count)|\(count)", "assignments, recipients, codes: \(rows)")
        }

        for server in [first, restarted.0] {
            server.terminate()
            let ended = await server.waitForExit()
            #expect(ended.status == 0, "\(ended)")
        }
    }

    /// Makes the run's claims until none is left: each on its instance, or on the other one while
    /// it is down or when its connection fails under the claim (the instance was killed).
    static func work(_ run: Run, key: ServeFixture.CreatedKey) async {
        while let (recipient, preferred) = await run.take() {
            var instance = preferred
            for attempt in 1... {
                guard let (chosen, port) = await run.port(preferring: instance) else {
                    await run.fail("no instance is up")
                    return
                }
                do {
                    let reply = try await ServeFixture.claim("r\(recipient)", port: port, key: key)
                    if reply.status == 200, let code = reply.json?["code"]?.string, let new = reply.json?["new"]?.bool {
                        await run.record(Answer(recipient: recipient, code: code, new: new))
                    } else {
                        await run.fail("instance \(chosen), r\(recipient): \(reply)")
                    }
                    break
                } catch {
                    await run.lose(chosen)
                    guard attempt < 50 else {
                        await run.fail("r\(recipient): no answer after \(attempt) tries: \(error)")
                        break
                    }
                    instance = 1 - chosen
                    try? await Task.sleep(for: .milliseconds(10))
                }
            }
        }
    }
}
