import Foundation
import OfferLedger
import Testing

/// The PostgreSQL server for the tests (`PostgresTestServerTests` checks that it answers).
enum PostgresTestServer {
    static let variable = "OFFERKIT_TEST_POSTGRES_URL"
    static let url = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    static let inCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The server's location, or `nil` without one; in CI a missing server is a test failure.
    static func location(sourceLocation: SourceLocation) -> PostgresLocation? {
        guard let url else {
            if inCI {
                Issue.record(
                    Comment(
                        rawValue: "\(variable) is unset, and CI must run the ledger tests against PostgreSQL "
                            + "(.ci/run starts a server)"), sourceLocation: sourceLocation)
            }
            return nil
        }
        do {
            guard case .postgres(let location) = try LedgerLocation(parsing: url) else {
                Issue.record("\(variable) is not a postgres:// URL", sourceLocation: sourceLocation)
                return nil
            }
            return location
        } catch {
            Issue.record(error, sourceLocation: sourceLocation)
            return nil
        }
    }
}
