import Foundation
import InteropSupport
import Testing

/// The PostgreSQL server for the CLI tests that run on both ledger backends: `OFFERKIT_TEST_POSTGRES_URL`
/// (`.ci/postgres start`). Without it a PostgreSQL run does nothing (and fails in CI, `CI=true`).
///
/// The URLs the tests get carry no password: every run gets it in `PGPASSWORD` (see
/// ``CLI/environment(adding:)``), as a user should give it, since a password in `--ledger` draws
/// a warning. The password is still known here, so that the tests check it never shows.
enum CLIPostgres {
    static let url = ProcessInfo.processInfo.environment["OFFERKIT_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// The test server's password (given to every run in `PGPASSWORD`).
    static let password = url.flatMap { URLComponents(string: $0)?.password }

    /// The test server's URL without its password.
    static let urlWithoutPassword: String? = url.map { url in
        guard var components = URLComponents(string: url) else { return url }
        components.password = nil
        return components.string ?? url
    }

    /// `url` (of the test server) with the server's password, for tools that take it only there (psql).
    static func withPassword(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password == nil, let password else { return url }
        components.password = password
        return components.string ?? url
    }

    /// The ledger a test gets on `backend` (`sqlite`: the folder's file; `postgres`: a new schema
    /// on the test server, its URL without the password), or `nil` for PostgreSQL without a server.
    static func ledger(_ backend: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> CampaignFiles.LedgerChoice?
    {
        guard backend == "postgres" else { return .folder }
        guard let url = urlWithoutPassword else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("OFFERKIT_TEST_POSTGRES_URL is unset in CI", sourceLocation: sourceLocation)
            }
            return nil
        }
        let schema = "cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        return .at(url + (url.contains("?") ? "&" : "?") + "schema=" + schema)
    }

    /// `psql` against the test server, or `nil` when it is not installed (an issue in CI).
    static func psql(_ url: String, _ sql: String) async throws -> String? {
        let base = String(CLIPostgres.withPassword(url).prefix { $0 != "?" }) + "?sslmode=disable"
        let result = try await ExternalProcess.run("psql", [base, "-Atc", sql])
        guard result.status == 0 else {
            if InteropEnvironment.isCI { Issue.record("psql failed: \(result.stderr)") }
            return nil
        }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The schema named in a test URL.
    static func schema(of url: String) -> String {
        String(url.split(separator: "schema=").last ?? "")
    }
}
