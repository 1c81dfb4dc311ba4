import Foundation
import OfferCodes
import OfferLedgerPostgres
import Testing

/// The ledger implementations the ledger tests run against: each such test takes one as its
/// argument and runs once per backend.
///
/// PostgreSQL runs use the server at `OFFERKIT_TEST_POSTGRES_URL` (`.ci/postgres start` starts
/// one), each test in a schema of its own, so tests run in parallel. Without that variable a
/// PostgreSQL run returns at once, and the test ``PostgresTestServer/configured()`` is reported
/// as skipped, saying so; in CI (`CI=true`) both fail instead.
enum LedgerBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    /// A place for a new, empty ledger, or `nil` for PostgreSQL without a server (an issue in CI).
    func newStore(sourceLocation: SourceLocation = #_sourceLocation) -> LedgerStore? {
        switch self {
        case .sqlite:
            return .sqliteMemory
        case .postgres:
            guard var location = PostgresTestServer.location(sourceLocation: sourceLocation) else { return nil }
            location.schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            return .postgres(location)
        }
    }

    /// A new, empty ledger, or `nil` for PostgreSQL without a server (an issue in CI).
    func newLedger(sourceLocation: SourceLocation = #_sourceLocation) throws -> (any CodeLedger)? {
        try newStore(sourceLocation: sourceLocation)?.open()
    }

    /// A place for a new ledger that several connections (as processes would) open: a file for
    /// SQLite, a schema for PostgreSQL. `body` runs with it; a file is removed afterwards.
    func withSharedStore<T>(sourceLocation: SourceLocation = #_sourceLocation, _ body: (LedgerStore) throws -> T)
        throws -> T?
    {
        switch self {
        case .sqlite:
            return try LedgerFixtures.withTemporaryFolder { folder in
                try body(.sqliteFile(folder.appendingPathComponent("ledger.sqlite").path))
            }
        case .postgres:
            guard let store = newStore(sourceLocation: sourceLocation) else { return nil }
            return try body(store)
        }
    }

    /// ``withSharedStore(sourceLocation:_:)`` for a body that awaits.
    func withSharedStore<T>(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: (LedgerStore) async throws -> T
    ) async throws -> T? {
        switch self {
        case .sqlite:
            return try await LedgerFixtures.withTemporaryFolderAwaiting { folder in
                try await body(.sqliteFile(folder.appendingPathComponent("ledger.sqlite").path))
            }
        case .postgres:
            guard let store = newStore(sourceLocation: sourceLocation) else { return nil }
            return try await body(store)
        }
    }
}

/// Where a test's ledger lives.
enum LedgerStore: Sendable {
    /// A new in-memory SQLite ledger at each ``open()``.
    case sqliteMemory
    case sqliteFile(String)
    case postgres(PostgresLocation)

    /// Opens (creating it when new) the ledger.
    func open() throws -> any CodeLedger {
        switch self {
        case .sqliteMemory: try SQLiteLedger.inMemory()
        case .sqliteFile(let path): try SQLiteLedger(path: path)
        case .postgres(let location): try PostgresLedger(location)
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
