import Foundation
import OfferCodes
import OfferLedger
import OfferLedgerPostgres
import Testing

/// The PostgreSQL server for the tests.
@Suite("PostgreSQL test server")
struct PostgresTestServer {
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

    @Test(
        .enabled(
            if: url != nil || inCI,
            "OFFERKIT_TEST_POSTGRES_URL is unset: the ledger tests ran against SQLite only, NOT against PostgreSQL (eval \"$(.ci/postgres start)\" starts a server)"
        ))
    func configured() async throws {
        let location = try #require(Self.location(sourceLocation: #_sourceLocation))
        try await CodeLedger.withPostgres(location) { ledger throws in
            #expect(try await ledger.batches(campaign: "none").isEmpty)
        }
    }
}
