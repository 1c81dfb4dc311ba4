import OfferLedger
import OfferLedgerPostgres
import Testing

@testable import LedgerTestSupport

/// The ledger tests' PostgreSQL server answers: without one they run on SQLite only, which this test says
/// loudly (and, in CI, fails).
@Suite("PostgreSQL test server")
struct PostgresTestServerTests {
    @Test(
        .enabled(
            if: PostgresTestServer.url != nil || PostgresTestServer.inCI,
            "OFFERKIT_TEST_POSTGRES_URL is unset: the ledger tests ran against SQLite only, NOT against PostgreSQL (eval \"$(.ci/postgres start)\" starts a server)"
        ))
    func configured() async throws {
        let location = try #require(PostgresTestServer.location(sourceLocation: #_sourceLocation))
        try await CodeLedger.withPostgres(location) { ledger throws in
            #expect(try await ledger.batches(campaign: "none").isEmpty)
        }
    }
}
