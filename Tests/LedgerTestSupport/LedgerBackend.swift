import Foundation
import OfferCodes
import OfferLedger
import OfferLedgerPostgres
import Testing

/// The ledger implementations the ledger tests run against: each such test takes one as its
/// argument and runs once per backend.
///
/// PostgreSQL runs use the server at `OFFERKIT_TEST_POSTGRES_URL` (`.ci/postgres start` starts
/// one), each test in a schema of its own, so tests run in parallel. Without that variable a
/// PostgreSQL run returns at once, and the test `PostgresTestServerTests/configured()` is reported
/// as skipped, saying so; in CI (`CI=true`) both fail instead.
enum LedgerBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// A place for a new, empty ledger, or `nil` for PostgreSQL without a server (an issue in CI).
    func newPlace(sourceLocation: SourceLocation = #_sourceLocation) -> LedgerPlace? {
        switch self {
        case .sqlite:
            return .sqliteMemory
        case .postgres:
            guard var location = PostgresTestServer.location(sourceLocation: sourceLocation) else { return nil }
            location.schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            return .postgres(location)
        }
    }

    /// Runs `body` with a new, empty ledger; `nil` for PostgreSQL without a server (an issue in CI).
    @discardableResult
    func withNewLedger<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: (CodeLedger) async throws -> T)
        async throws -> T?
    {
        guard let place = newPlace(sourceLocation: sourceLocation) else { return nil }
        return try await place.withLedger(body)
    }

    /// A place for a new ledger that several connections (as processes would) open: a file for
    /// SQLite, a schema for PostgreSQL. `body` runs with it; a file is removed afterwards.
    @discardableResult
    func withSharedPlace<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: (LedgerPlace) async throws -> T)
        async throws -> T?
    {
        switch self {
        case .sqlite:
            return try await LedgerFixtures.withTemporaryFolder { folder in
                try await body(.sqliteFile(folder.appendingPathComponent("ledger.sqlite").path))
            }
        case .postgres:
            guard let place = newPlace(sourceLocation: sourceLocation) else { return nil }
            return try await body(place)
        }
    }
}

/// Where a test's ledger lives.
enum LedgerPlace: Sendable {
    /// A new in-memory SQLite ledger at each ``withLedger(access:_:)``.
    case sqliteMemory
    case sqliteFile(String)
    case postgres(PostgresLocation)

    /// Opens (creating it when new, unless read-only) the ledger and runs `body` with it; a SQLite
    /// file is closed before this returns (`withSQLite`), as `offerkit` closes it, so that what
    /// comes next (another connection, a copy, a look at the file) finds it whole.
    func withLedger<T>(access: LedgerAccess = .readWrite, _ body: (CodeLedger) async throws -> T) async throws -> T {
        switch self {
        case .sqliteMemory: try await body(try await CodeLedger.inMemory())
        case .sqliteFile(let path): try await CodeLedger.withSQLite(path: path, access: access, body)
        case .postgres(let location): try await CodeLedger.withPostgres(location, access: access, body)
        }
    }

    /// How another process names this ledger (`--ledger`, `OFFERKIT_LEDGER`): the file's path, or
    /// the test server's URL with the schema; `nil` for an in-memory ledger.
    var locator: String? {
        switch self {
        case .sqliteMemory: return nil
        case .sqliteFile(let path): return path
        case .postgres(let location):
            guard let url = PostgresTestServer.url else { return nil }
            return url + (url.contains("?") ? "&" : "?") + "schema=" + location.schema
        }
    }

    /// The ledger a ``locator`` names.
    init(locator: String) throws {
        switch try LedgerLocation(parsing: locator) {
        case .sqlite(let path): self = .sqliteFile(path)
        case .postgres(let location): self = .postgres(location)
        }
    }
}
