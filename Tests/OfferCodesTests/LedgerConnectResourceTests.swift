import Foundation
import GRDB
import Testing

@testable import LedgerTestSupport
@testable import OfferCodes
@testable import OfferLedger

/// What `codes apply` records about App Store Connect resources: each test runs on SQLite and on
/// PostgreSQL.
@Suite("Ledger: App Store Connect resources")
struct LedgerConnectResourceTests {
    typealias F = LedgerFixtures

    static let digest = String(repeating: "ab", count: 32)
    static let otherDigest = String(repeating: "cd", count: 32)
    static let time = Date(timeIntervalSince1970: 1_800_000_000.1234)

    /// Runs `body` with a ledger of campaign "spring" (offers "Half" and "Gems").
    static func withLedger(_ backend: LedgerBackend, _ body: (CodeLedger) async throws -> Void) async throws {
        try await backend.withNewLedger { ledger in
            let campaign = F.campaign("spring", offers: ["Half", "Gems"])
            try await F.record(
                ledger, F.batch("spring", "Half", codeCount: 2), of: campaign, codes: F.numberedCodes("HALF", 2))
            try await body(ledger)
        }
    }

    static func resource(
        _ kind: ConnectResource.Kind = .offer, offer: String = "Half", key: String = "", state: ConnectResource.State,
        id: String? = nil, digest: String = digest, error: String? = nil
    ) -> ConnectResource {
        ConnectResource(
            campaign: "spring", offer: offer, kind: kind, key: key, requestId: "offer-1",
            resourceType: "subscriptionOfferCodes", state: state, id: id, bodyDigest: digest, error: error,
            updatedAt: time)
    }

    @Test(arguments: LedgerBackend.allCases)
    func resourcesAreKeptInPlanOrderAndMoveThroughTheirStates(backend: LedgerBackend) async throws {
        try await Self.withLedger(backend) { ledger in
            let planned = [
                Self.resource(state: .planned),
                Self.resource(.customCode, key: "HALF1", state: .planned),
                Self.resource(.customCode, key: "HALF0", state: .planned),
                Self.resource(.oneTimeUse, offer: "Gems", key: "0", state: .planned),
            ]
            try await ledger.recordConnectResources(planned)
            #expect(try await ledger.connectResources(campaign: "spring") == planned)
            #expect(try await ledger.connectResources(campaign: "other").isEmpty)

            let sent = planned[0].with(state: .sent, at: Self.time)
            try await ledger.recordConnectResources([sent])
            let created = planned[0].with(state: .created, id: "6500000001", at: Self.time.addingTimeInterval(1))
            let failed = planned[1].with(state: .failed, error: "409 STATE_ERROR: no", at: Self.time)
            try await ledger.recordConnectResources([created, failed])
            let read = try await ledger.connectResources(campaign: "spring")
            #expect(read.map(\.key) == ["", "HALF1", "HALF0", "0"])  // the first recorded order stays
            #expect(read[0] == created && read[1] == failed)
            #expect(LedgerTimestamp.text(read[0].updatedAt) == "2027-01-15T08:00:01.123Z")
            // Recording a created resource again, as it is, changes nothing.
            try await ledger.recordConnectResources([created])
            #expect(try await ledger.connectResources(campaign: "spring")[0] == created)
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func aCreatedResourceKeepsItsIdItsStateAndItsBody(backend: LedgerBackend) async throws {
        try await Self.withLedger(backend) { ledger in
            let created = Self.resource(state: .created, id: "6500000001")
            try await ledger.recordConnectResources([created])
            let changes = [
                Self.resource(state: .created, id: "6500000002"),
                Self.resource(state: .sent),
                Self.resource(state: .planned),
                Self.resource(state: .failed, error: "500"),
                Self.resource(state: .created, id: "6500000001", digest: Self.otherDigest),
            ]
            for change in changes {
                // Together with a valid resource: nothing of the call is recorded.
                let other = Self.resource(.customCode, key: "HALF0", state: .planned)
                await #expect(throws: LedgerError.self) { try await ledger.recordConnectResources([other, change]) }
                #expect(try await ledger.connectResources(campaign: "spring") == [created])
            }
        }
    }

    @Test(arguments: LedgerBackend.allCases)
    func resourcesThatBreakTheRulesAreRefused(backend: LedgerBackend) async throws {
        try await Self.withLedger(backend) { ledger throws in
            let refused: [(ConnectResource, String)] = [
                (Self.resource(state: .created), "it is created but has no App Store Connect id"),
                (Self.resource(state: .failed), "it failed but records no error"),
                (Self.resource(state: .sent, digest: "abc"), "its body digest is not 64 lower-case hex digits"),
                (
                    Self.resource(state: .created, id: "65 01"),
                    "its App Store Connect id is not 1 to 256 printable bytes without spaces"
                ),
                (
                    Self.resource(state: .created, id: String(repeating: "7", count: 257)),
                    "its App Store Connect id is not 1 to 256 printable bytes without spaces"
                ),
            ]
            for (resource, problem) in refused {
                await #expect(throws: LedgerError.connectResourceConflict(resource: resource.label, problem: problem)) {
                    try await ledger.recordConnectResources([resource])
                }
            }
            await #expect(throws: LedgerError.unknownOffer(offer: "Nope", campaign: "spring")) {
                try await ledger.recordConnectResources([Self.resource(offer: "Nope", state: .planned)])
            }
            #expect(try await ledger.connectResources(campaign: "spring").isEmpty)
        }
    }

    // MARK: The run lock of codes apply, and the ids of every campaign (after the hostile review)

    /// The lock of `codes apply` and `codes fetch`: one holder per campaign and ledger, whichever
    /// connection or ledger object asks (a second process opens a second ledger object: a second file
    /// descriptor, or a second PostgreSQL connection); released by `release()` or when the lock is
    /// dropped.
    @Test(arguments: LedgerBackend.allCases)
    func theRunLockHasOneHolderPerCampaign(backend: LedgerBackend) async throws {
        try await backend.withSharedPlace { place in
            try await place.withLedger { first in
                try await place.withLedger { second in
                    try await Self.runLockChecks(first, second)
                }
            }
        }
    }

    private static func runLockChecks(_ first: CodeLedger, _ second: CodeLedger) async throws {
        do {
            let lock = try await first.lockConnectRun(campaign: "spring")
            await #expect(throws: LedgerError.connectRunInProgress(campaign: "spring")) {
                try await first.lockConnectRun(campaign: "spring")
            }
            await #expect(throws: LedgerError.connectRunInProgress(campaign: "spring")) {
                try await second.lockConnectRun(campaign: "spring")
            }
            // Per campaign: another campaign's run goes on.
            let autumn = try await second.lockConnectRun(campaign: "autumn")
            await #expect(throws: LedgerError.connectRunInProgress(campaign: "autumn")) {
                try await first.lockConnectRun(campaign: "autumn")
            }
            // Released: the other ledger object takes it at once (on PostgreSQL, release() waits for
            // the server's unlock, which a closed connection alone does not).
            await lock.release()
            await lock.release()  // a second release does nothing
            let again = try await second.lockConnectRun(campaign: "spring")
            await #expect(throws: LedgerError.connectRunInProgress(campaign: "spring")) {
                try await first.lockConnectRun(campaign: "spring")
            }
            await again.release()
            await autumn.release()
            // A lock that is dropped without release() is released too: at once on SQLite, on
            // PostgreSQL once the server has seen its connection end.
            do { _ = try await first.lockConnectRun(campaign: "spring") }
            try await Self.lockSoon(second, campaign: "spring").release()
            try await first.lockConnectRun(campaign: "autumn").release()
            let message = LedgerError.connectRunInProgress(campaign: "spring").localizedDescription
            #expect(
                message.hasPrefix("Another `offerkit codes apply` or `codes fetch` is working on campaign \"spring\""))
        }
    }

    /// The lock of `campaign`, taken as soon as its holder's end lets it (within 10 s).
    private static func lockSoon(_ ledger: CodeLedger, campaign: String) async throws -> ConnectRunLock {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            do {
                return try await ledger.lockConnectRun(campaign: campaign)
            } catch LedgerError.connectRunInProgress where ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// An in-memory ledger (no file to lock) locks within the process, per ledger object.
    @Test func inMemoryLedgersLockWithinTheProcess() async throws {
        let ledger = try await CodeLedger.inMemory()
        let other = try await CodeLedger.inMemory()
        let lock = try await ledger.lockConnectRun(campaign: "spring")
        await #expect(throws: LedgerError.connectRunInProgress(campaign: "spring")) {
            try await ledger.lockConnectRun(campaign: "spring")
        }
        try await other.lockConnectRun(campaign: "spring").release()  // another ledger altogether
        try await ledger.lockConnectRun(campaign: "autumn").release()
        await lock.release()
        try await ledger.lockConnectRun(campaign: "spring").release()
    }

    /// A lookup never takes an id the ledger records as created, for any campaign: the ids of the
    /// kinds asked, created only.
    @Test(arguments: LedgerBackend.allCases)
    func createdIdsOfEveryCampaignAreListed(backend: LedgerBackend) async throws {
        try await Self.withLedger(backend) { ledger in
            let autumn = F.campaign("autumn", offers: ["Half"])
            try await F.record(ledger, F.batch("autumn", "Half", codeCount: 1), of: autumn, codes: ["AUTUMN1"])
            func resource(
                _ campaign: String, _ kind: ConnectResource.Kind, key: String, id: String?, state: ConnectResource.State
            )
                -> ConnectResource
            {
                ConnectResource(
                    campaign: campaign, offer: "Half", kind: kind, key: key, requestId: "r-\(campaign)-\(key)",
                    resourceType: "subscriptionOfferCodes", state: state, id: id, bodyDigest: Self.digest,
                    error: state == .failed ? "409" : nil, updatedAt: Self.time)
            }
            #expect(try await ledger.createdConnectIds(kinds: [.offer, .oneTimeUse]).isEmpty)
            try await ledger.recordConnectResources([
                resource("spring", .offer, key: "", id: "6500000001", state: .created),
                resource("spring", .oneTimeUse, key: "0", id: "6500000002", state: .created),
                resource("spring", .customCode, key: "HALF0", id: "6500000003", state: .created),
                resource("spring", .oneTimeUse, key: "1", id: nil, state: .sent),
                resource("autumn", .offer, key: "", id: "6500000011", state: .created),
                resource("autumn", .oneTimeUse, key: "0", id: nil, state: .failed),
            ])
            #expect(
                try await ledger.createdConnectIds(kinds: [.offer, .oneTimeUse]) == [
                    "6500000001", "6500000002", "6500000011",
                ])
            #expect(try await ledger.createdConnectIds(kinds: [.offer]) == ["6500000001", "6500000011"])
            #expect(try await ledger.createdConnectIds(kinds: [.customCode]) == ["6500000003"])
            #expect(try await ledger.createdConnectIds(kinds: []).isEmpty)
        }
    }

    @Test func longErrorsAreCutOnACharacterBoundary() {
        let resource = Self.resource(state: .planned).with(
            state: .failed, error: String(repeating: "é", count: 5_000), at: Self.time)
        #expect(resource.error!.utf8.count <= ConnectResource.maximumErrorBytes)
        #expect(resource.error!.hasSuffix("…"))
    }

    /// A ledger from before offer kinds (SQLite v5, PostgreSQL v4) keeps its resources through the
    /// migrations, each an offer code's; then a promotional offer named like an offer code is a
    /// resource of its own, and price points (SQLite v7, PostgreSQL v6) are recorded. The
    /// constraints the PostgreSQL migration drops are found by what they are: the downgraded
    /// ledger names them unlike PostgreSQL's defaults.
    @Test(arguments: LedgerBackend.allCases)
    func anOlderLedgerKeepsItsResourcesAndGetsOfferKinds(backend: LedgerBackend) async throws {
        try await backend.withSharedPlace { place in
            let created = Self.resource(state: .created, id: "6500000001")
            try await place.withLedger { ledger in
                let campaign = F.campaign("spring", offers: ["Half", "Gems"])
                try await F.record(
                    ledger, F.batch("spring", "Half", codeCount: 2), of: campaign, codes: F.numberedCodes("HALF", 2))
                try await ledger.recordConnectResources([created])
                if case .postgres = place {
                    for statement in Self.postgresDowngrade { try await ledger.store.executeUnchecked(statement) }
                }
            }
            if case .sqliteFile(let path) = place {
                let queue = try DatabaseQueue(path: path)
                try await queue.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA foreign_keys = OFF")
                    try db.inTransaction {
                        try db.execute(sql: "ALTER TABLE connect_resources RENAME TO resources_v6")
                        try SQLiteLedgerSchema.migrations[3].apply(db, path)  // connect_resources as v4 made it
                        try db.execute(
                            sql: """
                                INSERT INTO connect_resources SELECT id, campaign, offer, kind, key, request_id,
                                    resource_type, state, asc_id, body_digest, error, updated_at FROM resources_v6;
                                DROP TABLE resources_v6;
                                DROP TABLE price_points;
                                DROP INDEX assignments_by_code;
                                CREATE UNIQUE INDEX assignments_personal ON assignments(batch_id, seq) WHERE shared = 0;
                                CREATE INDEX assignments_by_code ON assignments(batch_id, seq, shared);
                                DELETE FROM grdb_migrations
                                WHERE identifier IN ('offerkit-ledger-v6', 'offerkit-ledger-v7', 'offerkit-ledger-v8');
                                """)
                        return .commit
                    }
                }
                try queue.close()
            }
            try await place.withLedger { ledger in
                #expect(try await ledger.connectResources(campaign: "spring") == [created])
                let promotional = ConnectResource(
                    campaign: "spring", offerKind: .promotionalOffer, offer: "Half", kind: .offer,
                    key: "com.example.monthly",
                    requestId: "promotional-offer-1", resourceType: "subscriptionPromotionalOffers", state: .planned,
                    bodyDigest: Self.otherDigest, updatedAt: Self.time)
                try await ledger.recordConnectResources([promotional])
                #expect(try await ledger.connectResources(campaign: "spring") == [created, promotional])
                // A promotional offer's campaign must be recorded (it has no offers row to check).
                var elsewhere = promotional
                elsewhere.campaign = "autumn"
                await #expect(throws: LedgerError.unknownCampaign(campaign: "autumn")) {
                    try await ledger.recordConnectResources([elsewhere])
                }
                // The later migrations ran too: price points are recorded in the migrated ledger.
                let price = ResolvedPrice(
                    query: PricePointQuery(product: .subscription(id: "6450000001"), territory: "USA"),
                    customerPrice: "4.99", pricePoint: "pp-usa-499")
                #expect(try await ledger.recordPricePoints([price], campaign: "spring") == [price])
            }
        }
    }

    /// `connect_resources` as PostgreSQL migration v3 made it, with constraint names of its own.
    static let postgresDowngrade = [
        "ALTER TABLE connect_resources DROP COLUMN offer_kind",
        """
        DO $$
        DECLARE
            found text;
        BEGIN
            FOR found IN
                SELECT conname FROM pg_constraint WHERE conrelid = 'connect_resources'::regclass AND contype = 'f'
            LOOP
                EXECUTE format('ALTER TABLE connect_resources DROP CONSTRAINT %I', found);
            END LOOP;
        END
        $$
        """,
        """
        ALTER TABLE connect_resources ADD CONSTRAINT resources_of_offers FOREIGN KEY (campaign, offer)
            REFERENCES offers(campaign, name)
        """,
        "ALTER TABLE connect_resources ADD CONSTRAINT one_resource_each UNIQUE (campaign, offer, kind, key)",
        "DROP TABLE price_points",
        """
        DELETE FROM offerkit_migrations
        WHERE identifier IN ('offerkit-ledger-postgres-v5', 'offerkit-ledger-postgres-v6')
        """,
    ]
}
