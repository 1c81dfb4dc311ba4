import Foundation
import GRDB

/// The ledger's tables and the migrations that create and update them: add new migrations at the
/// end of ``migrations``, never edit one.
///
/// - `campaigns`: one row per campaign name, with its app.
/// - `offers`: the offers of each campaign and App Store Connect's `active` switch.
/// - `batches`: one row per batch of codes, with what the quarterly limits count. Since v2 also
///   `stored_codes` (its rows in `codes`), `codes_digest` (SHA-256 of those codes in order) and
///   `checksum` (SHA-256 of the row), see ``BatchDigest``: reading a batch recomputes them.
/// - `apps`: the App Apple IDs, numbered so that the code index holds a small integer per code.
/// - `codes`: every code issued, stored in batch order (`seq` is the code's position in its
///   batch), unique per app by `code_key` (the code upper-cased); `code` holds the code as issued
///   only when it differs from `code_key` (it is `NULL` for upper-case codes). `app_id` is the
///   batch's campaign's app; it has no foreign key, which would cost a lookup per code.
/// - `assignments` (since v3): every code handed out, to whom (`recipient`), how (`channel`) and
///   when (`assigned_at`, ISO 8601 UTC); at most one per recipient, campaign, offer and
///   environment. A personal code (`shared` 0) appears once (a partial unique index until v8); a
///   shared code once per recipient.
/// - `connect_resources` (since v4): the App Store Connect resources `codes apply` sent, one per
///   campaign, offer, `kind` and `key` (see ``ConnectResource``), with their `state`, App Store
///   Connect's id (`asc_id`) and the digest of the planned body; `id` keeps the plan's order.
/// - Since v5: `codes.digest` (each row's ``CodeDigest``, filled in for the codes a v4 ledger
///   holds once their batches' digests are checked), `offers.revision` (counts the changes of
///   the offer's batches and switch, for claims that remember them) and `code_lanes` (each
///   batch's ``CodeLane``s, which the ledger builds after opening from the assignments).
/// - Since v6: `connect_resources.offer_kind`, the campaign list the resource's offer comes from
///   (`offerCode`, `promotionalOffer`, `introductoryOffer`, `winBackOffer`; see
///   ``ConnectResource/offerKind``), part of its identity. The table was rebuilt for it: its
///   foreign key names the campaign only, since promotional, introductory and win-back offers
///   have no `offers` row (the ledger checks an offer code's offer before recording its resource).
/// - `price_points` (since v7): the customer prices `codes plan` and `codes apply` resolved to
///   App Store Connect price points (`ResolvedPrice`), one per campaign, product, territory and
///   customer price (its number without leading or trailing zeros), kept once recorded, so that
///   every later plan of the campaign sends the same price point.
/// - Since v8: one index of `assignments` by code instead of two. It is unique on `batch_id`,
///   `seq`, `shared` and a value that is 0 for a personal code and `NULL` for a shared one
///   (SQLite's unique indexes let `NULL`s repeat): a personal code appears once, a shared code
///   once per recipient, as the partial unique index of v3 had it. A claim then writes four
///   pages to the log rather than five (a bare loop of a claim's statements: +6 % a second).
///
/// Applied migrations are listed in `grdb_migrations`, the table of GRDB's `DatabaseMigrator`
/// (which created the ledgers of earlier OfferKit versions). OfferKit runs the migrations itself,
/// all in one `BEGIN IMMEDIATE` transaction that also decides which ones are missing, so that
/// processes opening a new ledger at the same time cannot both apply the same migration.
enum SQLiteLedgerSchema {
    /// One schema version.
    struct Migration: Sendable {
        let identifier: String
        /// Changes the schema; the path names the ledger in errors.
        let apply: @Sendable (Database, _ path: String) throws -> Void
    }

    /// What every migration identifier of the ledger starts with (another program's GRDB
    /// migrations do not).
    static let migrationPrefix = "offerkit-ledger-"

    /// The table that lists the applied migrations.
    static let migrationsTable = "grdb_migrations"

    /// Every migration, oldest first.
    static let migrations: [Migration] = [
        Migration(identifier: migrationPrefix + "v1") { db, _ in try db.execute(sql: version1) },
        Migration(identifier: migrationPrefix + "v2") { db, path in
            try db.execute(sql: version2)
            try sealAll(db, path: path)
        },
        Migration(identifier: migrationPrefix + "v3") { db, _ in try db.execute(sql: version3) },
        Migration(identifier: migrationPrefix + "v4") { db, _ in try db.execute(sql: version4) },
        Migration(identifier: migrationPrefix + "v5") { db, path in
            try db.execute(sql: version5)
            try digestAll(db, path: path)
        },
        Migration(identifier: migrationPrefix + "v6") { db, _ in try db.execute(sql: version6) },
        Migration(identifier: migrationPrefix + "v7") { db, _ in try db.execute(sql: version7) },
        Migration(identifier: migrationPrefix + "v8") { db, _ in try db.execute(sql: version8) },
    ]

    /// The first migrations a read-only open needs applied: what the ledger reads (the digests of
    /// batches and codes, assignments, App Store Connect resources, lanes) is all in place.
    static let readableMigrations = migrations.count

    /// Seals every batch as it is now (the migration that added the batches' digests).
    private static func sealAll(_ db: Database, path: String) throws {
        let codes = try db.makeStatement(
            sql: "SELECT COALESCE(code, code_key) FROM codes WHERE batch_id = ? ORDER BY seq")
        for values in try SQLiteRows.all(db, "SELECT \(StoredBatch.columns) FROM batches ORDER BY id") {
            let stored = try StoredBatch(values, path: path, verifyingChecksum: false)
            var digest = BatchDigest()
            try SQLiteRows.step(db, codes, [stored.id]) { row in
                guard case .text(let code) = row[0] else {
                    throw LedgerError.corrupt(
                        path: path, reason: "a codes row of \(StoredBatch.describe(stored.batch)) is unreadable")
                }
                digest.add(code)
                return true
            }
            let codesDigest = digest.finalized()
            let checksum = BatchDigest.checksum(of: stored.batch, storedCodes: digest.count, codesDigest: codesDigest)
            try db.execute(
                sql: "UPDATE batches SET stored_codes = ?, codes_digest = ?, checksum = ? WHERE id = ?",
                arguments: [digest.count, Data(codesDigest), Data(checksum), stored.id])
        }
    }

    /// Gives every code row its digest (the migration that added them), once each batch's codes
    /// match the batch's digest: damage found now is refused, never sealed into new digests.
    private static func digestAll(_ db: Database, path: String) throws {
        let update = try db.makeStatement(sql: "UPDATE codes SET digest = ? WHERE batch_id = ? AND seq = ?")
        for values in try SQLiteRows.all(db, "SELECT \(StoredBatch.columns) FROM batches ORDER BY id") {
            let stored = try StoredBatch(values, path: path)
            var check = StoredBatch.CodeCheck(stored, path: path)
            var digests: [(Int64, [UInt8])] = []
            try SQLiteRows.step(
                db, "SELECT seq, COALESCE(code, code_key) FROM codes WHERE batch_id = ? ORDER BY seq", [stored.id]
            ) { values in
                guard case .integer(let seq) = values[0], case .text(let code) = values[1] else {
                    throw LedgerError.corrupt(
                        path: path, reason: "a codes row of \(StoredBatch.describe(stored.batch)) is unreadable")
                }
                let digest = CodeDigest.of(batchId: stored.id, seq: seq, code: code)
                _ = try check.add([.integer(seq), .text(code), .blob(digest)])
                digests.append((seq, digest))
                return true
            }
            try check.finish(extraRows: 0)
            for (seq, digest) in digests { try update.execute(arguments: [Data(digest), stored.id, seq]) }
        }
    }

    /// The tables of the first schema.
    static let version1Tables: Set<String> = ["apps", "campaigns", "offers", "batches", "codes"]

    /// The number of migrations applied to `db`, after checking that `db` is empty or a ledger
    /// whose schema is exactly the one those migrations create.
    ///
    /// - Throws: ``LedgerError/notALedger(path:)`` for another program's database,
    ///   ``LedgerError/newerSchema(path:unknownMigrations:)`` for a ledger of a newer OfferKit,
    ///   and ``LedgerError/corrupt(path:reason:)`` when the schema or its list of migrations is
    ///   damaged.
    static func appliedMigrations(_ db: Database, path: String) throws -> Int {
        let tables = Set(
            try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
        let applied =
            tables.contains(migrationsTable)
            ? try String.fetchAll(db, sql: "SELECT identifier FROM \(migrationsTable)") : nil
        let count = try LedgerMigrations.appliedCount(
            tables: tables, ledgerTables: version1Tables, migrationsTable: migrationsTable, applied: applied,
            known: migrations.map(\.identifier), prefix: migrationPrefix, path: path)
        if tables.isEmpty { return 0 }
        let schema = try objects(db)
        let expected = expectedSchemas[count]
        if schema != expected {
            let names = Set(schema.keys).union(expected.keys).filter { schema[$0] != expected[$0] }.sorted()
            throw LedgerError.corrupt(
                path: path,
                reason: "the definition of \(names.joined(separator: ", ")) differs from the one OfferKit created")
        }
        return count
    }

    /// Applies the migrations after the first `applied` ones, inside the caller's transaction.
    static func migrate(_ db: Database, from applied: Int, path: String) throws {
        try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(migrationsTable) (identifier TEXT NOT NULL PRIMARY KEY)")
        for migration in migrations.dropFirst(applied) {
            try migration.apply(db, path)
            try db.execute(
                sql: "INSERT INTO \(migrationsTable) (identifier) VALUES (?)", arguments: [migration.identifier])
        }
    }

    /// The ledger's own tables, indexes and triggers: name to `type` and SQL (the migrations
    /// table, which GRDB creates, and SQLite's statistics tables are left out).
    private static func objects(_ db: Database) throws -> [String: String] {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT name, type || ' ' || tbl_name || ': ' || IFNULL(sql, '') FROM sqlite_master
                WHERE tbl_name <> '\(migrationsTable)' AND tbl_name NOT LIKE 'sqlite_stat%'
                """)
        var objects: [String: String] = [:]
        for row in rows {
            guard case .string(let name) = (row[0] as DatabaseValue).storage,
                case .string(let definition) = (row[1] as DatabaseValue).storage
            else {
                objects["(an unreadable schema entry)"] = ""
                continue
            }
            objects[name] = definition
        }
        return objects
    }

    /// The schema after the first `n` migrations, for each `n`: built once, in memory.
    private static let expectedSchemas: [[String: String]] = {
        do {
            let queue = try DatabaseQueue()
            return try queue.write { db in
                var schemas = [try objects(db)]
                for applied in migrations.indices {
                    try migrations[applied].apply(db, ":memory:")
                    schemas.append(try objects(db))
                }
                return schemas
            }
        } catch {
            fatalError("OfferKit cannot build its ledger schema in memory: \(error)")
        }
    }()

    /// The first schema.
    private static let version1 = """
        CREATE TABLE apps (
            id INTEGER PRIMARY KEY,
            app_apple_id TEXT NOT NULL UNIQUE
        );
        CREATE TABLE campaigns (
            name TEXT NOT NULL PRIMARY KEY,
            app_id INTEGER NOT NULL REFERENCES apps(id),
            bundle_id TEXT NOT NULL,
            recorded_at TEXT NOT NULL
        );
        CREATE INDEX campaigns_by_app ON campaigns(app_id);
        CREATE TABLE offers (
            campaign TEXT NOT NULL REFERENCES campaigns(name),
            name TEXT NOT NULL,
            product_type TEXT NOT NULL,
            product_asc_id TEXT NOT NULL,
            product_id TEXT NOT NULL,
            active INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
            PRIMARY KEY (campaign, name)
        );
        CREATE TABLE batches (
            id INTEGER PRIMARY KEY,
            campaign TEXT NOT NULL,
            offer TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('custom', 'oneTimeUse')),
            idx INTEGER NOT NULL CHECK (idx >= 0),
            quarter TEXT NOT NULL,
            redemption_limit INTEGER NOT NULL CHECK (redemption_limit >= 1),
            code_count INTEGER NOT NULL CHECK (code_count >= 0),
            expiration_date TEXT,
            environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
            recorded_at TEXT NOT NULL,
            FOREIGN KEY (campaign, offer) REFERENCES offers(campaign, name),
            UNIQUE (campaign, offer, kind, idx)
        );
        CREATE TABLE codes (
            batch_id INTEGER NOT NULL REFERENCES batches(id),
            seq INTEGER NOT NULL,
            app_id INTEGER NOT NULL,
            code_key TEXT NOT NULL,
            code TEXT,
            PRIMARY KEY (batch_id, seq),
            UNIQUE (app_id, code_key)
        ) WITHOUT ROWID;
        """

    /// Who received which code.
    private static let version3 = """
        CREATE TABLE assignments (
            id INTEGER PRIMARY KEY,
            batch_id INTEGER NOT NULL,
            seq INTEGER NOT NULL,
            campaign TEXT NOT NULL,
            offer TEXT NOT NULL,
            environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
            recipient TEXT NOT NULL CHECK (length(CAST(recipient AS BLOB)) BETWEEN 1 AND 256),
            shared INTEGER NOT NULL CHECK (shared IN (0, 1)),
            channel TEXT NOT NULL CHECK (channel IN ('export', 'claim')),
            assigned_at TEXT NOT NULL,
            FOREIGN KEY (batch_id, seq) REFERENCES codes(batch_id, seq),
            UNIQUE (campaign, offer, environment, recipient)
        );
        CREATE UNIQUE INDEX assignments_personal ON assignments(batch_id, seq) WHERE shared = 0;
        CREATE INDEX assignments_by_code ON assignments(batch_id, seq, shared);
        """

    /// What `codes apply` sent to App Store Connect.
    private static let version4 = """
        CREATE TABLE connect_resources (
            id INTEGER PRIMARY KEY,
            campaign TEXT NOT NULL,
            offer TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('offer', 'oneTimeUse', 'customCode')),
            key TEXT NOT NULL,
            request_id TEXT NOT NULL,
            resource_type TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('planned', 'sent', 'created', 'failed')),
            asc_id TEXT CHECK (state <> 'created' OR asc_id IS NOT NULL),
            body_digest TEXT NOT NULL CHECK (length(body_digest) = 64),
            error TEXT,
            updated_at TEXT NOT NULL,
            FOREIGN KEY (campaign, offer) REFERENCES offers(campaign, name),
            UNIQUE (campaign, offer, kind, key)
        );
        """

    /// The campaign list each App Store Connect resource's offer comes from. SQLite cannot drop a
    /// foreign key or a unique constraint, so the table is made anew and its rows copied, ids and all.
    /// The index finds the promotional offers a signature may name without reading every custom code.
    private static let version6 = """
        CREATE TABLE connect_resources_v6 (
            id INTEGER PRIMARY KEY,
            campaign TEXT NOT NULL REFERENCES campaigns(name),
            offer TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('offer', 'oneTimeUse', 'customCode')),
            key TEXT NOT NULL,
            request_id TEXT NOT NULL,
            resource_type TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('planned', 'sent', 'created', 'failed')),
            asc_id TEXT CHECK (state <> 'created' OR asc_id IS NOT NULL),
            body_digest TEXT NOT NULL CHECK (length(body_digest) = 64),
            error TEXT,
            updated_at TEXT NOT NULL,
            offer_kind TEXT NOT NULL DEFAULT 'offerCode'
                CHECK (offer_kind IN ('offerCode', 'promotionalOffer', 'introductoryOffer', 'winBackOffer')),
            CHECK (offer_kind = 'offerCode' OR kind = 'offer'),
            UNIQUE (campaign, offer_kind, offer, kind, key)
        );
        INSERT INTO connect_resources_v6 (id, campaign, offer, kind, key, request_id, resource_type, state, asc_id,
            body_digest, error, updated_at, offer_kind)
        SELECT id, campaign, offer, kind, key, request_id, resource_type, state, asc_id, body_digest, error,
            updated_at, 'offerCode'
        FROM connect_resources ORDER BY id;
        DROP TABLE connect_resources;
        ALTER TABLE connect_resources_v6 RENAME TO connect_resources;
        CREATE INDEX connect_resources_by_offer_kind ON connect_resources(offer_kind, state);
        """

    /// One unique index of the assignments by code, for v3's two (see the type's comment).
    private static let version8 = """
        DROP INDEX assignments_personal;
        DROP INDEX assignments_by_code;
        CREATE UNIQUE INDEX assignments_by_code ON assignments(batch_id, seq, shared, (CASE WHEN shared = 0 THEN 0 END));
        """

    /// The customer prices resolved to price points.
    private static let version7 = """
        CREATE TABLE price_points (
            id INTEGER PRIMARY KEY,
            campaign TEXT NOT NULL REFERENCES campaigns(name),
            product_type TEXT NOT NULL CHECK (product_type IN ('subscription', 'inAppPurchase')),
            product_id TEXT NOT NULL CHECK (length(product_id) > 0),
            territory TEXT NOT NULL CHECK (length(territory) = 3),
            customer_price TEXT NOT NULL CHECK (length(customer_price) > 0),
            price_point TEXT NOT NULL CHECK (length(price_point) > 0),
            recorded_at TEXT NOT NULL,
            UNIQUE (campaign, product_type, product_id, territory, customer_price)
        );
        """

    /// The digest of each code row, the revision of each offer, and the code lanes.
    private static let version5 = """
        ALTER TABLE codes ADD COLUMN digest BLOB;
        ALTER TABLE offers ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE code_lanes (
            batch_id INTEGER NOT NULL REFERENCES batches(id),
            lane INTEGER NOT NULL CHECK (lane >= 0),
            shared INTEGER NOT NULL CHECK (shared IN (0, 1)),
            taken INTEGER NOT NULL CHECK (taken >= 0),
            capacity INTEGER NOT NULL CHECK (taken <= capacity),
            step INTEGER NOT NULL CHECK (step >= 1),
            PRIMARY KEY (batch_id, lane)
        ) WITHOUT ROWID;
        """

    /// Each batch's code count and digests (filled in for the batches a v1 ledger holds).
    private static let version2 = """
        ALTER TABLE batches ADD COLUMN stored_codes INTEGER NOT NULL DEFAULT 0 CHECK (stored_codes >= 0);
        ALTER TABLE batches ADD COLUMN codes_digest BLOB;
        ALTER TABLE batches ADD COLUMN checksum BLOB;
        """
}
