import OfferCodes
import PostgresNIO

/// The PostgreSQL ledger's tables, in the location's schema, and the migrations that create
/// them: add new migrations at the end of ``migrations``, never edit one.
///
/// The tables hold what ``SQLiteLedger``'s do (see its schema), with PostgreSQL's types:
/// `apps`, `campaigns` and `offers` (each with a `seq` identity that keeps the order they were
/// first recorded), `batches` (with `stored_codes`, `codes_digest` and `checksum`, see the
/// digests of the SQLite ledger) and `codes`, unique per app by `code_key`. Applied migrations
/// are listed in `offerkit_migrations`.
enum PostgresLedgerSchema {
    /// One schema version: SQL statements, separated by `;` (none holds one otherwise), run in
    /// the ledger's schema.
    struct Migration: Sendable {
        let identifier: String
        let sql: String
        /// Statements run after `sql`'s, each whole (a function body holds `;`).
        var wholeStatements: [String] = []
    }

    /// What every migration identifier of the ledger starts with.
    static let migrationPrefix = "offerkit-ledger-"

    /// The table that lists the applied migrations.
    static let migrationsTable = "offerkit_migrations"

    /// Every migration, oldest first.
    static let migrations: [Migration] = [
        Migration(identifier: migrationPrefix + "postgres-v1", sql: version1),
        Migration(identifier: migrationPrefix + "postgres-v2", sql: version2, wholeStatements: [claimFunction]),
        Migration(identifier: migrationPrefix + "postgres-v3", sql: version3),
    ]

    /// The ledger's tables and their columns (`name type` with `not null` where it applies), in
    /// column order, after each number of migrations (from 1): opening compares the schema with them.
    static func expectedColumns(applied: Int) -> [String: [String]] {
        var columns = version1Columns
        if applied >= 2 { columns["assignments"] = version2AssignmentColumns }
        if applied >= 3 { columns["connect_resources"] = version3ConnectResourceColumns }
        return columns
    }

    /// Every table of the ledger, after all migrations.
    static var allTables: Set<String> { Set(expectedColumns(applied: migrations.count).keys) }

    private static let version2AssignmentColumns = [
        "id bigint not null", "batch_id bigint not null", "seq bigint not null", "campaign text not null",
        "offer text not null", "environment text not null", "recipient text not null", "shared boolean not null",
        "channel text not null", "assigned_at timestamp with time zone not null",
    ]

    private static let version3ConnectResourceColumns = [
        "id bigint not null", "campaign text not null", "offer text not null", "kind text not null",
        "key text not null", "request_id text not null", "resource_type text not null", "state text not null",
        "asc_id text", "body_digest text not null", "error text", "updated_at timestamp with time zone not null",
    ]

    private static let version1Columns: [String: [String]] = [
        "apps": ["id bigint not null", "app_apple_id text not null"],
        "campaigns": [
            "name text not null", "app_id bigint not null", "bundle_id text not null",
            "recorded_at timestamp with time zone not null", "seq bigint not null",
        ],
        "offers": [
            "campaign text not null", "name text not null", "product_type text not null",
            "product_asc_id text not null", "product_id text not null", "active boolean not null",
            "seq bigint not null",
        ],
        "batches": [
            "id bigint not null", "campaign text not null", "offer text not null", "kind text not null",
            "idx bigint not null", "quarter text not null", "redemption_limit bigint not null",
            "code_count bigint not null", "expiration_date text", "environment text not null",
            "recorded_at timestamp with time zone not null", "stored_codes bigint not null", "codes_digest bytea",
            "checksum bytea",
        ],
        "codes": [
            "batch_id bigint not null", "seq bigint not null", "app_id bigint not null", "code_key text not null",
            "code text",
        ],
    ]

    /// The first schema.
    private static let version1 = """
        CREATE TABLE apps (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            app_apple_id TEXT NOT NULL UNIQUE
        );
        CREATE TABLE campaigns (
            name TEXT NOT NULL PRIMARY KEY,
            app_id BIGINT NOT NULL REFERENCES apps(id),
            bundle_id TEXT NOT NULL,
            recorded_at TIMESTAMPTZ NOT NULL DEFAULT now(),
            seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE
        );
        CREATE INDEX campaigns_by_app ON campaigns(app_id);
        CREATE TABLE offers (
            campaign TEXT NOT NULL REFERENCES campaigns(name),
            name TEXT NOT NULL,
            product_type TEXT NOT NULL,
            product_asc_id TEXT NOT NULL,
            product_id TEXT NOT NULL,
            active BOOLEAN NOT NULL DEFAULT TRUE,
            seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
            PRIMARY KEY (campaign, name)
        );
        CREATE TABLE batches (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            campaign TEXT NOT NULL,
            offer TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('custom', 'oneTimeUse')),
            idx BIGINT NOT NULL CHECK (idx >= 0),
            quarter TEXT NOT NULL,
            redemption_limit BIGINT NOT NULL CHECK (redemption_limit >= 1),
            code_count BIGINT NOT NULL CHECK (code_count >= 0),
            expiration_date TEXT,
            environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
            recorded_at TIMESTAMPTZ NOT NULL DEFAULT now(),
            stored_codes BIGINT NOT NULL DEFAULT 0 CHECK (stored_codes >= 0),
            codes_digest BYTEA,
            checksum BYTEA,
            FOREIGN KEY (campaign, offer) REFERENCES offers(campaign, name),
            UNIQUE (campaign, offer, kind, idx)
        );
        CREATE TABLE codes (
            batch_id BIGINT NOT NULL REFERENCES batches(id),
            seq BIGINT NOT NULL,
            app_id BIGINT NOT NULL,
            code_key TEXT NOT NULL,
            code TEXT,
            PRIMARY KEY (batch_id, seq),
            UNIQUE (app_id, code_key)
        );
        """

    /// Who received which code (see the SQLite ledger's `assignments`).
    private static let version2 = """
        CREATE TABLE assignments (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            batch_id BIGINT NOT NULL,
            seq BIGINT NOT NULL,
            campaign TEXT NOT NULL,
            offer TEXT NOT NULL,
            environment TEXT NOT NULL CHECK (environment IN ('PRODUCTION', 'SANDBOX')),
            recipient TEXT NOT NULL CHECK (octet_length(recipient) BETWEEN 1 AND 256),
            shared BOOLEAN NOT NULL,
            channel TEXT NOT NULL CHECK (channel IN ('export', 'claim')),
            assigned_at TIMESTAMPTZ NOT NULL,
            FOREIGN KEY (batch_id, seq) REFERENCES codes(batch_id, seq),
            UNIQUE (campaign, offer, environment, recipient)
        );
        CREATE UNIQUE INDEX assignments_personal ON assignments(batch_id, seq) WHERE NOT shared;
        CREATE INDEX assignments_by_code ON assignments(batch_id, seq, shared)
        """

    /// What `codes apply` sent to App Store Connect (see the SQLite ledger's `connect_resources`).
    private static let version3 = """
        CREATE TABLE connect_resources (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
            updated_at TIMESTAMPTZ NOT NULL,
            FOREIGN KEY (campaign, offer) REFERENCES offers(campaign, name),
            UNIQUE (campaign, offer, kind, key)
        )
        """

    /// One claim in one round trip, for ``PostgresLedger/claim(recipient:scope:)``: takes the
    /// offer's assignment lock (the key ``PostgresLedger`` uses), then returns the recipient's
    /// code when they have one (`is_new` false), else assigns the first free code of the first
    /// of `p_batches` (the personal batches the caller chose, in order, see
    /// ``AssignmentRun/personalCandidates(_:scope:)``) that has one. No row: the offer is not
    /// active, or no batch has a free code; the caller then runs the general assignment, which
    /// says why. It decides nothing the general assignment would decide otherwise; it only
    /// saves the round trips of a transaction (the lock is held for the function alone).
    /// `search_path` is the ledger's schema, fixed when the function is created.
    private static let claimFunction = """
        CREATE FUNCTION offerkit_claim(
            p_lock_key TEXT, p_lock_timeout TEXT, p_campaign TEXT, p_offer TEXT, p_environment TEXT,
            p_recipient TEXT, p_channel TEXT, p_now TIMESTAMPTZ, p_batches BIGINT[])
        RETURNS TABLE (batch_id BIGINT, seq BIGINT, code TEXT, channel TEXT, assigned_at TIMESTAMPTZ, is_new BOOLEAN)
        LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
        DECLARE
            b BIGINT;
            s BIGINT;
            c TEXT;
        BEGIN
            PERFORM set_config('lock_timeout', p_lock_timeout, true);
            PERFORM pg_advisory_xact_lock(hashtextextended(p_lock_key, 0));
            RETURN QUERY
                SELECT a.batch_id, a.seq, COALESCE(k.code, k.code_key), a.channel, a.assigned_at, false
                FROM assignments a JOIN codes k ON k.batch_id = a.batch_id AND k.seq = a.seq
                WHERE a.campaign = p_campaign AND a.offer = p_offer AND a.environment = p_environment
                    AND a.recipient = p_recipient;
            IF FOUND THEN
                RETURN;
            END IF;
            IF NOT COALESCE((SELECT o.active FROM offers o WHERE o.campaign = p_campaign AND o.name = p_offer), false)
            THEN
                RETURN;
            END IF;
            FOREACH b IN ARRAY p_batches LOOP
                SELECT k.seq, COALESCE(k.code, k.code_key) INTO s, c FROM codes k
                WHERE k.batch_id = b AND k.seq > COALESCE(
                    (SELECT max(a.seq) FROM assignments a WHERE a.batch_id = b AND NOT a.shared), -1)
                ORDER BY k.seq LIMIT 1;
                IF FOUND THEN
                    INSERT INTO assignments (batch_id, seq, campaign, offer, environment, recipient, shared, channel,
                        assigned_at)
                    VALUES (b, s, p_campaign, p_offer, p_environment, p_recipient, false, p_channel, p_now);
                    RETURN QUERY SELECT b, s, c, p_channel, p_now, true;
                    RETURN;
                END IF;
            END LOOP;
        END
        $$
        """

    /// Brings the schema up to date, inside the caller's transaction, which holds the migration
    /// lock (see ``PostgresLedger``).
    ///
    /// - Throws: ``LedgerError/notALedger(path:)`` for a schema with tables of another program,
    ///   ``LedgerError/newerSchema(path:unknownMigrations:)`` for a ledger of a newer OfferKit,
    ///   and ``LedgerError/corrupt(path:reason:)`` when the tables or the list of migrations
    ///   differ from what OfferKit created.
    static func migrate(_ session: PostgresSession, schema: String, label: String) throws {
        let schemaExists = try session.query("SELECT 1 FROM pg_namespace WHERE nspname = \(schema)").count == 1
        if !schemaExists {
            try session.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"))
        }
        let applied = try appliedMigrations(session, schema: schema, label: label)
        if applied == 0 {
            try session.query(
                PostgresQuery(
                    unsafeSQL: """
                        CREATE TABLE \(migrationsTable) (
                            identifier TEXT NOT NULL PRIMARY KEY,
                            applied_at TIMESTAMPTZ NOT NULL DEFAULT now())
                        """))
        }
        for migration in migrations.dropFirst(applied) {
            // One statement at a time: the extended protocol runs one per query.
            for statement in migration.sql.split(separator: ";") where !statement.allSatisfy(\.isWhitespace) {
                try session.query(PostgresQuery(unsafeSQL: String(statement)))
            }
            for statement in migration.wholeStatements {
                try session.query(PostgresQuery(unsafeSQL: statement))
            }
            try session.query("INSERT INTO offerkit_migrations (identifier) VALUES (\(migration.identifier))")
        }
    }

    /// The number of migrations applied (0 for a missing or empty schema), after checking that the
    /// schema is empty or exactly a ledger's. Reads only.
    static func appliedMigrations(_ session: PostgresSession, schema: String, label: String) throws -> Int {
        let tables = Set(
            try session.query(
                """
                SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = \(schema) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                """
            ).map { try $0.decode(String.self) })
        if tables.isEmpty { return 0 }
        let ours = tables.intersection(allTables)
        guard tables.contains(migrationsTable) else {
            if ours.isEmpty { throw LedgerError.notALedger(path: label) }
            throw LedgerError.corrupt(
                path: label, reason: "its table \(migrationsTable) (the schema versions) is missing")
        }
        let applied = try session.query("SELECT identifier FROM offerkit_migrations").map {
            try $0.decode(String.self)
        }
        let known = migrations.map(\.identifier)
        let unknown = Set(applied).subtracting(known).sorted()
        guard unknown.allSatisfy({ $0.hasPrefix(migrationPrefix) }) else {
            if ours.isEmpty { throw LedgerError.notALedger(path: label) }
            throw LedgerError.corrupt(path: label, reason: "its list of schema versions holds unknown entries")
        }
        let count = known.prefix { applied.contains($0) }.count
        guard Set(applied).subtracting(unknown) == Set(known.prefix(count)) else {
            throw LedgerError.corrupt(path: label, reason: "its list of schema versions has gaps")
        }
        if !unknown.isEmpty {
            guard count == known.count else {
                throw LedgerError.corrupt(path: label, reason: "its list of schema versions has gaps")
            }
            throw LedgerError.newerSchema(path: label, unknownMigrations: unknown)
        }
        if count == 0 {
            if !tables.subtracting([migrationsTable]).isEmpty {
                if ours.isEmpty { throw LedgerError.notALedger(path: label) }
                throw LedgerError.corrupt(path: label, reason: "it has tables but no schema version")
            }
            return 0
        }
        let rows = try session.query(
            """
            SELECT c.relname, a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
                || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
            FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = \(schema) AND c.relkind = 'r' AND c.relname <> 'offerkit_migrations'
                AND a.attnum > 0 AND NOT a.attisdropped
            ORDER BY c.relname, a.attnum
            """)
        var columns: [String: [String]] = [:]
        for row in rows {
            let (table, column) = try row.decode((String, String).self)
            columns[table, default: []].append(column)
        }
        let expected = expectedColumns(applied: count)
        if columns != expected {
            let names = Set(columns.keys).union(expected.keys).filter { columns[$0] != expected[$0] }
            throw LedgerError.corrupt(
                path: label,
                reason: "the definition of \(names.sorted().joined(separator: ", ")) differs from the one OfferKit "
                    + "created")
        }
        return count
    }
}
