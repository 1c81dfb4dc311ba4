import Foundation
import Testing

/// The PostgreSQL server for the CLI tests that run on both ledger backends: `OFFERKIT_TEST_POSTGRES_URL`
/// (`.ci/postgres start`). Without it a PostgreSQL run does nothing (and fails in CI, `CI=true`).
enum CLIPostgres {
    static let url = ProcessInfo.processInfo.environment["OFFERKIT_TEST_POSTGRES_URL"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// The ledger a test gets on `backend` (`sqlite`: the folder's file; `postgres`: a new schema
    /// on the test server), or `nil` for PostgreSQL without a server.
    static func ledger(_ backend: String, sourceLocation: SourceLocation = #_sourceLocation)
        -> CampaignFiles.LedgerChoice?
    {
        guard backend == "postgres" else { return .folder }
        guard let url else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record("OFFERKIT_TEST_POSTGRES_URL is unset in CI", sourceLocation: sourceLocation)
            }
            return nil
        }
        let schema = "cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        return .at(url + (url.contains("?") ? "&" : "?") + "schema=" + schema)
    }
}
