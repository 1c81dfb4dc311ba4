import Foundation
import Testing

@testable import CLITestSupport

/// A PostgreSQL ledger's password: never taken from the command line without a warning, read from
/// `PGPASSWORD` or PostgreSQL's password file instead; a reader creates no schema.
@Suite("offerkit: PostgreSQL ledger passwords and read-only opening")
struct LedgerPasswordTests {
    /// The test server's URL on a new schema, with its password and without, and the password.
    static func server() -> (url: String, withoutPassword: String, password: String, components: URLComponents)? {
        guard case .at(let url)? = CLIPostgres.ledger("postgres"), let password = CLIPostgres.password,
            let components = URLComponents(string: url)
        else { return nil }
        return (CLIPostgres.withPassword(url), url, password, components)
    }

    @Test("a password in --ledger draws a warning that never shows it; OFFERKIT_LEDGER does not")
    func passwordOnTheCommandLineIsWarnedAbout() async throws {
        guard let server = Self.server() else { return }
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let flag = try await files.run("validate", CampaignFiles.example, ledger: .at(server.url))
        #expect(flag.status == 0, "\(flag)")
        #expect(
            flag.stderr.components(separatedBy: "warning: --ledger holds the database password").count == 2, "\(flag)")
        #expect(flag.stderr.contains("PGPASSWORD") && flag.stderr.contains("~/.pgpass"), "\(flag)")
        #expect(!flag.stderr.contains(server.password) && !flag.stdout.contains(server.password))
        let variable = try await CLI.run(
            ["codes", "validate", CampaignFiles.example, "--today", CampaignFiles.today],
            environment: ["OFFERKIT_LEDGER": server.url], cwd: files.folder.url)
        #expect(variable.status == 0 && !variable.stderr.contains("warning"), "\(variable)")
        // Every run of the tests gets the password in PGPASSWORD (see CLIPostgres).
        let environment = try await files.run("validate", CampaignFiles.example, ledger: .at(server.withoutPassword))
        #expect(environment.status == 0 && !environment.stderr.contains("warning"), "\(environment)")
    }

    @Test("the password file (PGPASSFILE): used when 0600, ignored and named when others can read it")
    func passwordFile() async throws {
        guard let server = Self.server() else { return }
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let host = server.components.host ?? ""
        let port = server.components.port.map(String.init) ?? "5432"
        let user = server.components.user ?? ""
        let line = "\(host):\(port):*:\(user):\(server.password)\n"
        let file = try files.folder.write("# host:port:database:user:password\n" + line, to: "pgpass", mode: 0o600)
        // An empty PGPASSWORD is none, as for libpq: the password file is read.
        let fileOnly = ["PGPASSFILE": file, "PGPASSWORD": ""]
        let read = try await files.run(
            "generate", CampaignFiles.example, ledger: .at(server.withoutPassword), environment: fileOnly)
        #expect(read.status == 0, "\(read)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let ignored = try await files.run(
            "status", CampaignFiles.example, ledger: .at(server.withoutPassword), environment: fileOnly)
        Expect.failure(
            ignored, status: 5,
            mentioning: ["the password file \(file) was ignored", "group or world access (mode 644)", "chmod 600"])
        #expect(!ignored.stderr.contains(server.password), "\(ignored)")
    }

    @Test("validate and status on a new schema create nothing; codes ledger migrate creates the ledger")
    func readersCreateNoSchema() async throws {
        guard let server = Self.server() else { return }
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let ledger = CampaignFiles.LedgerChoice.at(server.withoutPassword)
        await #expect(try files.run("validate", CampaignFiles.example, ledger: ledger).status == 0)
        let plan = try await files.run("plan", CampaignFiles.example, ledger: ledger)
        #expect([0, 2].contains(plan.status), "\(plan)")
        // Had validate or plan created the schema, status would find an empty ledger (exit 4).
        Expect.failure(
            try await files.run("status", CampaignFiles.example, ledger: ledger), status: 5,
            mentioning: ["holds no ledger tables yet", "offerkit codes ledger migrate"])
        let migrate = try await CLI.run(
            ["codes", "ledger", "migrate", "--ledger", server.withoutPassword],
            cwd: files.folder.url)
        #expect(migrate.status == 0 && migrate.stdout.contains("schema version 0 to 6"), "\(migrate)")
        Expect.failure(
            try await files.run("status", CampaignFiles.example, ledger: ledger), status: 4,
            mentioning: ["spring-2027"])
    }
}
