import Foundation
import Testing

@testable import CLITestSupport

/// `--ledger postgres://…` and `OFFERKIT_LEDGER`: the codes commands on a PostgreSQL ledger, and
/// the password never printed.
@Suite("offerkit codes: PostgreSQL ledger")
struct CodesPostgresLedgerTests {
    @Test func generatePlanAndExportOnAPostgresLedger() async throws {
        guard case .at(let url)? = CLIPostgres.ledger("postgres") else { return }
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let password = URLComponents(string: url)?.password ?? CLIPostgres.password ?? "no-password"
        let generate = try await files.run("generate", CampaignFiles.example, ledger: .at(url))
        #expect(generate.status == 0, "\(generate)")
        #expect(generate.stdout.contains("ledger: postgres://"), "\(generate)")
        let plan = try await files.run(
            "plan", CampaignFiles.example, ["--out", files.file("plan.json")], ledger: .at(url))
        #expect(plan.status == 0, "\(plan)")
        let export = try await files.run("export", CampaignFiles.example, ledger: .at(url))
        #expect(export.status == 0 && CampaignFiles.codes(ofCSV: export.stdout).count > 1_000, "\(export.stderr)")
        // OFFERKIT_LEDGER selects the same ledger; generating again changes nothing.
        let again = try await CLI.run(
            ["codes", "generate", CampaignFiles.example, "--today", CampaignFiles.today],
            environment: ["OFFERKIT_LEDGER": url], cwd: files.folder.url)
        #expect(again.status == 0 && again.stdout.contains("already recorded"), "\(again)")
        let exportAgain = try await CLI.run(
            ["codes", "export", CampaignFiles.example, "--today", CampaignFiles.today],
            environment: ["OFFERKIT_LEDGER": url], cwd: files.folder.url)
        #expect(exportAgain.stdout == export.stdout)
        for result in [generate, plan, export, again] {
            #expect(!result.stdout.contains(password) && !result.stderr.contains(password))
        }
        #expect(files.listing().allSatisfy { !$0.hasSuffix(".sqlite") }, "\(files.listing())")
    }

    @Test func aWrongPasswordOrBadURLIsRefusedWithoutShowingIt() async throws {
        guard case .at(let url)? = CLIPostgres.ledger("postgres") else { return }
        let files = try CampaignFiles.make()
        defer { files.remove() }
        var components = try #require(URLComponents(string: url))
        components.password = "Wrong-\(UUID().uuidString)"
        let wrong = try #require(components.string)
        let refused = try await files.run("validate", CampaignFiles.example, ledger: .at(wrong))
        Expect.failure(refused, status: 5, mentioning: ["password authentication failed", ":***@"])
        #expect(!refused.stderr.contains(components.password!))
        let bad = try await files.run(
            "validate", CampaignFiles.example, ledger: .at("postgres://u:Secret99@h:70000/db"))
        Expect.failure(bad, status: 2, mentioning: ["port 70000", "postgres://u:***@h:70000/db"])
        #expect(!bad.stderr.contains("Secret99"))
    }
}
