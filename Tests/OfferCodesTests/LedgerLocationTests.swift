import Foundation
import OfferCodes
import OfferLedger
import OfferLedgerPostgres
import Testing

@testable import LedgerTestSupport

@Suite("Ledger locators")
struct LedgerLocationTests {
    @Test func pathsAndSqliteLocatorsSelectSQLite() throws {
        #expect(try LedgerLocation(parsing: "offerkit-ledger.sqlite") == .sqlite(path: "offerkit-ledger.sqlite"))
        #expect(try LedgerLocation(parsing: "/var/lib/ledger.sqlite") == .sqlite(path: "/var/lib/ledger.sqlite"))
        #expect(try LedgerLocation(parsing: "sqlite:data/l.sqlite") == .sqlite(path: "data/l.sqlite"))
        #expect(try LedgerLocation(parsing: "sqlite:///tmp/l.sqlite") == .sqlite(path: "/tmp/l.sqlite"))
        #expect(try LedgerLocation(parsing: "C:ledger") == .sqlite(path: "C:ledger"))
        #expect(throws: LedgerLocationError.empty) { try LedgerLocation(parsing: "") }
        #expect(throws: LedgerLocationError.missingPath(locator: "sqlite:")) { try LedgerLocation(parsing: "sqlite:") }
    }

    @Test func postgresURLsAreParsedWithDefaults() throws {
        let location = try LedgerLocation(parsing: "postgres://team@db.example.com/offers")
        #expect(
            location
                == .postgres(
                    try PostgresLocation(
                        user: "team", password: ProcessInfo.processInfo.environment["PGPASSWORD"],
                        host: "db.example.com", port: 5432, database: "offers")))
        let full = try LedgerLocation(
            parsing: "postgresql://te%40m:p%2Fss@127.0.0.1:6543/offers?schema=ledger_2&sslmode=require")
        #expect(
            full
                == .postgres(
                    try PostgresLocation(
                        user: "te@m", password: "p/ss", host: "127.0.0.1", port: 6543, database: "offers",
                        schema: "ledger_2", tls: .require)))
        #expect(full.description == "postgres://te%40m:***@127.0.0.1:6543/offers?schema=ledger_2&sslmode=require")
    }

    @Test(arguments: [
        ("postgres://host/db", "no user"),
        ("postgres://u@/db", "no host"),
        ("postgres://u:pw@h:0/db", "port 0"),
        ("postgres://u:pw@h:5432", "no database"),
        ("postgres://u:pw@h/db?schema=Bad-Name", "schema"),
        ("postgres://u:pw@h/db?sslmode=verify-full", "sslmode"),
        ("postgres://u:pw@h/db?password=x", "option \"password\""),
        ("mysql://u:pw@h/db", "scheme \"mysql\""),
    ])
    func badLocatorsAreRefusedWithoutThePassword(locator: String, words: String) {
        let error = #expect(throws: LedgerLocationError.self) { try LedgerLocation(parsing: locator) }
        let message = error?.localizedDescription ?? ""
        #expect(message.contains(words), "\(message)")
        #expect(!message.contains(":pw@"), "\(message)")
    }

    @Test func redactionReplacesOnlyThePassword() {
        #expect(LedgerLocation.redacted("postgres://u:secret@h:1/db") == "postgres://u:***@h:1/db")
        #expect(LedgerLocation.redacted("postgres://u:se:cr@et@h/db?x=@") == "postgres://u:***@h/db?x=@")
        #expect(LedgerLocation.redacted("postgres://u@h/db") == "postgres://u@h/db")
        // A password holding a raw `/`, and a second URL pasted into the first (found by fuzzing).
        #expect(!LedgerLocation.redacted("postgres://u:pa/ss@h/db").contains("pa/ss"))
        // A mistyped scheme is not taken as a file name that shows the password.
        #expect(throws: LedgerLocationError.self) { try LedgerLocation(parsing: "x\u{6}postgres://u:pw@h/db") }
        #expect(
            (try? LedgerLocation(parsing: "sqlite:a://u:pw@h"))?.description.contains(":pw@") == false)
        #expect(
            LedgerLocation.redacted("postgres://u:one@h:postgres://u:two@h2")
                == "postgres://u:***@h:postgres://u:***@h2")
        #expect(LedgerLocation.redacted("not a url:secret@x") == "not a url:secret@x")
    }

    /// A number of connections out of range is refused before anything is sent: no server is needed.
    @Test(arguments: [0, -1, CodeLedger.maximumPostgresConnections + 1, Int.max, Int.min])
    func connectionsOutOfRangeAreRefused(count: Int) async throws {
        let reason = try await Self.openingRefusal(maximumConnections: count)
        #expect(reason == "maximumConnections is \(count): expected 1 to 1000")
    }

    /// The ends of the range pass the check: opening then fails only because nothing listens on port 1.
    @Test(arguments: [1, CodeLedger.maximumPostgresConnections])
    func connectionsInRangeAreTried(count: Int) async throws {
        let reason = try await Self.openingRefusal(maximumConnections: count)
        #expect(reason?.contains("maximumConnections") == false, "\(String(describing: reason))")
    }

    /// The reason `CodeLedger.withPostgres` gives for not opening a ledger on port 1 of the loopback
    /// (where nothing listens) with `maximumConnections`; `nil`, with an issue recorded, for any
    /// other outcome.
    static func openingRefusal(maximumConnections: Int) async throws -> String? {
        let postgres = try PostgresLocation(
            parsing: "postgresql://offerkit@127.0.0.1:1/offerkit?schema=s", environment: [:])
        var error: LedgerError?
        do {
            try await CodeLedger.withPostgres(postgres, maximumConnections: maximumConnections, environment: [:]) {
                (_: CodeLedger) -> Void in
            }
        } catch let thrown as LedgerError {
            error = thrown
        }
        guard case .cannotOpen(_, let reason)? = error else {
            Issue.record("expected cannotOpen, got \(String(describing: error))")
            return nil
        }
        return reason
    }

    /// Against the test server: failing to log in, or to find the database, names the ledger
    /// without the password.
    @Test func serverErrorsNeverShowThePassword() async throws {
        guard let server = PostgresTestServer.location(sourceLocation: #_sourceLocation) else { return }
        var wrong = server
        wrong.password = "wrong-\(UUID().uuidString)"
        var missing = server
        missing.database = "missing_\(UUID().uuidString.prefix(8).lowercased())"
        for (location, words) in [(wrong, "password authentication failed"), (missing, "does not exist")] {
            var error: LedgerError?
            do {
                try await CodeLedger.withPostgres(location) { (_: CodeLedger) -> Void in }
            } catch let thrown as LedgerError {
                error = thrown
            }
            guard case .cannotOpen(let path, _)? = error else {
                Issue.record("expected cannotOpen, got \(String(describing: error))")
                continue
            }
            let message = error?.localizedDescription ?? ""
            #expect(message.contains(words), "\(message)")
            #expect(path.contains(":***@"))
            for secret in [location.password, server.password].compactMap({ $0 }) {
                #expect(!message.contains(secret) && !"\(String(describing: error))".contains(secret))
            }
        }
    }
}
