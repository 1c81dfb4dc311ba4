import Logging
import OfferCodes
import OfferLedger
import PostgresNIO
import Testing

@testable import LedgerTestSupport
@testable import OfferLedgerPostgres

/// A PostgreSQL ledger's connections: the smallest pool there is, and the TCP keep-alives every
/// connection asks the server for. Without a test server these return at once (see
/// `PostgresTestServerTests`).
@Suite("PostgreSQL ledger: connections")
struct PostgresConnectionsTests {
    typealias F = LedgerFixtures

    static let scope = AssignmentScope(
        campaign: "pool", offer: "One", environment: .production, today: CalendarDate("2027-02-01")!)

    /// With `maximumConnections` 1 the pool's one connection is also the one it keeps open for as
    /// long as the ledger is: claims one after another, then claims under way together (waiting
    /// for that connection in turn), each get a code of their own.
    @Test(.timeLimit(.minutes(1)))
    func aPoolOfOneServesClaimsOneAtATimeAndTogether() async throws {
        guard case .postgres(let location)? = LedgerBackend.postgres.newPlace() else { return }
        try await CodeLedger.withPostgres(location, maximumConnections: 1) { ledger in
            let codes = F.numberedCodes("P", 40)
            try await F.record(
                ledger, F.batch("pool", "One", codeCount: 40), of: F.campaign("pool", offers: ["One"]), codes: codes)
            for index in 0..<20 {
                let claim = try await ledger.claim(recipient: "alone-\(index)", scope: Self.scope)
                #expect(claim.isNew)
            }
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<20 {
                    group.addTask { try await ledger.claim(recipient: "together-\(index)", scope: Self.scope).isNew }
                }
                for try await isNew in group { #expect(isNew) }
            }
            let assignments = try await F.assignments(ledger, campaign: "pool")
            let handedOut: Set<String> = Set(assignments.map(\.code.code))
            let recipients: Set<String> = Set(assignments.map(\.recipient))
            #expect(assignments.count == 40)
            #expect(handedOut == Set(codes))
            #expect(recipients.count == 40)
        }
    }

    /// The connection that watches the server and the pool's connections stay open while idle, so
    /// each asks the server for TCP keep-alives (a NAT or firewall on the way would otherwise drop
    /// it after a few minutes of silence). The test server listens on TCP, where they apply.
    @Test(.timeLimit(.minutes(1)))
    func everyConnectionAsksTheServerForKeepAlives() async throws {
        guard case .postgres(let location)? = LedgerBackend.postgres.newPlace() else { return }
        // Quiet: the lease below may come before the client's `run()` has started (it then waits).
        var logger = Logger(label: "PostgresConnectionsTests")
        logger.logLevel = .error
        let connector = PostgresConnector(location: location, logger: logger, maximumConnections: 1)
        let expected = ["60", "10", "6"]  // what the docs promise: 60 s idle, then every 10 s, 6 probes
        let sentinel = try await connector.connect(timeout: .seconds(10))
        let watching = try await Self.keepAliveSettings(sentinel)
        try await sentinel.close()
        #expect(watching == expected)
        let (client, _) = connector.start()
        let pooled = try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await client.withConnection { try await Self.keepAliveSettings($0) }
        }
        #expect(pooled == expected)
    }

    /// The session's `tcp_keepalives_idle`, `tcp_keepalives_interval` and `tcp_keepalives_count`.
    static func keepAliveSettings(_ connection: PostgresConnection) async throws -> [String] {
        let rows = try await connection.query(
            """
            SELECT current_setting('tcp_keepalives_idle'), current_setting('tcp_keepalives_interval'),
                current_setting('tcp_keepalives_count')
            """, logger: Logger(label: "PostgresConnectionsTests"))
        var settings: [String] = []
        for try await (idle, interval, count) in rows.decode((String, String, String).self) {
            settings += [idle, interval, count]
        }
        return settings
    }
}
