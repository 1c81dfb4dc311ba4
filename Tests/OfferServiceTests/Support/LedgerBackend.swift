import Foundation
import OfferCodes
import OfferLedger
import OfferLedgerPostgres
import Testing

/// The ledgers the claim and status operations are tested on: each such test takes one as its
/// argument and runs once per backend.
///
/// PostgreSQL runs use the server at `OFFERKIT_TEST_POSTGRES_URL`, each test in a schema of its
/// own. Without that variable a PostgreSQL run returns at once (`PostgresTestServerTests` in
/// `OfferCodesTests` reports the server as missing); in CI (`CI=true`) it fails instead.
enum LedgerBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static let postgresVariable = "OFFERKIT_TEST_POSTGRES_URL"
    static let postgresURL = ProcessInfo.processInfo.environment[postgresVariable].flatMap { $0.isEmpty ? nil : $0 }

    var testDescription: String { rawValue }

    /// Runs `body` with a new, empty ledger; nothing for PostgreSQL without a server (an issue in CI).
    func withNewLedger(sourceLocation: SourceLocation = #_sourceLocation, _ body: (CodeLedger) async throws -> Void)
        async throws
    {
        switch self {
        case .sqlite:
            try await body(try await CodeLedger.inMemory())
        case .postgres:
            guard var location = try Self.postgresLocation(sourceLocation: sourceLocation) else { return }
            location.schema = Self.newSchemaName()
            try await CodeLedger.withPostgres(location, body)
        }
    }

    /// The test server's location (schema `offerkit`), or `nil` without one.
    static func postgresLocation(sourceLocation: SourceLocation = #_sourceLocation) throws -> PostgresLocation? {
        guard let postgresURL else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                Issue.record(
                    "\(postgresVariable) is unset, and CI must test the ledger operations on PostgreSQL",
                    sourceLocation: sourceLocation)
            }
            return nil
        }
        guard case .postgres(let location) = try LedgerLocation(parsing: postgresURL) else {
            Issue.record("\(postgresVariable) is not a postgres:// URL", sourceLocation: sourceLocation)
            return nil
        }
        return location
    }

    /// A schema name no other test uses.
    static func newSchemaName() -> String {
        "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }
}
