import Logging
import OfferCodes
import OfferLedger
import PostgresNIO

/// The PostgreSQL ledger's tables, in the location's schema, and the migrations that create
/// them: add new migrations at the end of ``migrations``, never edit one.
///
/// The tables hold what the SQLite ledger's do (see its schema), with PostgreSQL's types:
/// `apps`, `campaigns` and `offers` (each with a `seq` identity that keeps the order they were
/// first recorded), `batches` (with `stored_codes`, `codes_digest` and `checksum`, see the
/// batch digests), `codes` (unique per app by `code_key`; since v4 with each row's `digest`),
/// `assignments`, `connect_resources`, since v4 `code_lanes` and `offers.revision`, and since v5
/// `connect_resources.offer_kind` (its foreign key then names the campaign only, as the SQLite
/// ledger's v6 does), and since v6 `price_points` (the SQLite ledger's v7). Applied migrations are
/// listed in `offerkit_migrations`.
///
/// Since v4 the schema also holds the claim's statement, `offerkit_claim_code` (see
/// ``claimFunction4``), and `offerkit_check_code`, which checks a code against its digest.
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
        Migration(
            identifier: migrationPrefix + "postgres-v4", sql: version4,
            wholeStatements: [checkFunction4, claimFunction4]),
        Migration(identifier: migrationPrefix + "postgres-v5", sql: "", wholeStatements: version5),
        Migration(identifier: migrationPrefix + "postgres-v6", sql: version6),
    ]

    /// The ledger's tables and their columns (`name type` with `not null` where it applies), in
    /// column order, after each number of migrations (from 1): opening compares the schema with them.
    static func expectedColumns(applied: Int) -> [String: [String]] {
        var columns = version1Columns
        if applied >= 2 { columns["assignments"] = version2AssignmentColumns }
        if applied >= 3 { columns["connect_resources"] = version3ConnectResourceColumns }
        if applied >= 4 {
            columns["codes"]?.append("digest bytea")
            columns["offers"]?.append("revision bigint not null")
            columns["code_lanes"] = version4LaneColumns
        }
        if applied >= 5 { columns["connect_resources"]?.append("offer_kind text not null") }
        if applied >= 6 { columns["price_points"] = version6PricePointColumns }
        return columns
    }

    /// Every table of the ledger, after all migrations.
    static var allTables: Set<String> { Set(expectedColumns(applied: migrations.count).keys) }

    /// The campaign list each App Store Connect resource's offer comes from, part of its identity;
    /// the foreign key to `offers` goes (promotional, introductory and win-back offers have no
    /// `offers` row). The constraints to drop are found by what they are, in the catalog, not by
    /// the names PostgreSQL gave them: a ledger's names need not be the default ones.
    private static let version5 = [
        """
        DO $$
        DECLARE
            found text;
        BEGIN
            FOR found IN
                SELECT conname FROM pg_constraint
                WHERE conrelid = 'connect_resources'::regclass AND contype IN ('f', 'u')
            LOOP
                EXECUTE format('ALTER TABLE connect_resources DROP CONSTRAINT %I', found);
            END LOOP;
        END
        $$
        """,
        """
        ALTER TABLE connect_resources ADD COLUMN offer_kind TEXT NOT NULL DEFAULT 'offerCode'
            CHECK (offer_kind IN ('offerCode', 'promotionalOffer', 'introductoryOffer', 'winBackOffer'))
        """,
        "ALTER TABLE connect_resources ADD CHECK (offer_kind = 'offerCode' OR kind = 'offer')",
        "ALTER TABLE connect_resources ADD FOREIGN KEY (campaign) REFERENCES campaigns(name)",
        "ALTER TABLE connect_resources ADD UNIQUE (campaign, offer_kind, offer, kind, key)",
        "CREATE INDEX connect_resources_by_offer_kind ON connect_resources(offer_kind, state)",
    ]

    /// The customer prices resolved to price points (see the SQLite ledger's `price_points`).
    private static let version6 = """
        CREATE TABLE price_points (
            id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            campaign TEXT NOT NULL REFERENCES campaigns(name),
            product_type TEXT NOT NULL CHECK (product_type IN ('subscription', 'inAppPurchase')),
            product_id TEXT NOT NULL CHECK (length(product_id) > 0),
            territory TEXT NOT NULL CHECK (length(territory) = 3),
            customer_price TEXT NOT NULL CHECK (length(customer_price) > 0),
            price_point TEXT NOT NULL CHECK (length(price_point) > 0),
            recorded_at TIMESTAMPTZ NOT NULL,
            UNIQUE (campaign, product_type, product_id, territory, customer_price)
        )
        """

    private static let version6PricePointColumns = [
        "id bigint not null", "campaign text not null", "product_type text not null", "product_id text not null",
        "territory text not null", "customer_price text not null", "price_point text not null",
        "recorded_at timestamp with time zone not null",
    ]

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

    private static let version4LaneColumns = [
        "batch_id bigint not null", "lane bigint not null", "shared boolean not null", "taken bigint not null",
        "capacity bigint not null", "step bigint not null",
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

    /// The digest of each code row, the revision of each offer, the code lanes (built by the
    /// ledger after opening), and the claim's new statement.
    private static let version4 = """
        DROP FUNCTION offerkit_claim(TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, TIMESTAMPTZ, BIGINT[]);
        ALTER TABLE codes ADD COLUMN digest BYTEA;
        UPDATE codes SET digest = \(CodeDigest.sql(batchId: "batch_id", seq: "seq", code: "COALESCE(code, code_key)"));
        ALTER TABLE offers ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;
        CREATE TABLE code_lanes (
            batch_id BIGINT NOT NULL REFERENCES batches(id),
            lane BIGINT NOT NULL CHECK (lane >= 0),
            shared BOOLEAN NOT NULL,
            taken BIGINT NOT NULL CHECK (taken >= 0),
            capacity BIGINT NOT NULL CHECK (taken <= capacity),
            step BIGINT NOT NULL CHECK (step >= 1),
            PRIMARY KEY (batch_id, lane)
        )
        """

    /// Checks a code against its digest (``CodeDigest``): raises `XX001` (data corrupted),
    /// naming the code by its position, never its text.
    private static let checkFunction4 = """
        CREATE FUNCTION offerkit_check_code(p_batch BIGINT, p_seq BIGINT, p_code TEXT, p_digest BYTEA)
        RETURNS void LANGUAGE plpgsql IMMUTABLE AS $$
        BEGIN
            IF p_digest IS DISTINCT FROM \(CodeDigest.sql(batchId: "p_batch", seq: "p_seq", code: "p_code")) THEN
                RAISE EXCEPTION 'code number % of batches row % does not match its digest: it changed after OfferKit '
                    'recorded it', p_seq + 1, p_batch USING ERRCODE = 'XX001';
            END IF;
        END
        $$
        """

    /// One claim in one statement (see ``ClaimRequest``): the recipient's code when they hold one
    /// (`held`); else, after checking the offer's revision (`stale`) and switch (`inactive`), the
    /// next code of the first of `p_batches` that has one: of a personal batch, the lane whose
    /// next code comes first among those no other claim holds (`FOR UPDATE SKIP LOCKED`; when
    /// claims hold every lane with a code left, it waits for one), of a shared batch the first
    /// code with room (`FOR UPDATE`: one claim at a time per code); the code checked against its
    /// digest, the assignment recorded and the lane moved on (`assigned`); or none (`exhausted`).
    /// A claim of the same recipient that commits first makes the insert fail on the unique index
    /// of the recipient (the caller asks again). `search_path` is the ledger's schema, fixed when
    /// the function is created.
    private static let claimFunction4 = """
        CREATE FUNCTION offerkit_claim_code(
            p_campaign TEXT, p_offer TEXT, p_environment TEXT, p_recipient TEXT, p_channel TEXT, p_assigned_at TEXT,
            p_revision BIGINT, p_batches BIGINT[], p_shared BOOLEAN)
        RETURNS TABLE (r_outcome TEXT, r_batch BIGINT, r_seq BIGINT, r_code TEXT, r_channel TEXT, r_assigned_at TEXT)
        LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
        DECLARE
            v_active BOOLEAN;
            v_revision BIGINT;
            v_batch BIGINT;
            v_lane BIGINT;
            v_seq BIGINT;
            v_code TEXT;
            v_digest BYTEA;
            v_channel TEXT;
            v_at TEXT;
        BEGIN
            SELECT a.batch_id, a.seq, COALESCE(k.code, k.code_key), k.digest, a.channel,
                to_char(a.assigned_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
            INTO v_batch, v_seq, v_code, v_digest, v_channel, v_at
            FROM assignments a JOIN codes k ON k.batch_id = a.batch_id AND k.seq = a.seq
            WHERE a.campaign = p_campaign AND a.offer = p_offer AND a.environment = p_environment
                AND a.recipient = p_recipient;
            IF FOUND THEN
                PERFORM offerkit_check_code(v_batch, v_seq, v_code, v_digest);
                RETURN QUERY SELECT 'held'::TEXT, v_batch, v_seq, v_code, v_channel, v_at;
                RETURN;
            END IF;
            SELECT o.active, o.revision INTO v_active, v_revision FROM offers o
            WHERE o.campaign = p_campaign AND o.name = p_offer;
            IF NOT FOUND OR v_revision <> p_revision THEN
                RETURN QUERY SELECT 'stale'::TEXT, NULL::BIGINT, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT;
                RETURN;
            END IF;
            IF NOT v_active THEN
                RETURN QUERY SELECT 'inactive'::TEXT, NULL::BIGINT, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT;
                RETURN;
            END IF;
            FOREACH v_batch IN ARRAY p_batches LOOP
                IF p_shared THEN
                    SELECT l.lane, l.lane INTO v_lane, v_seq FROM code_lanes l
                    WHERE l.batch_id = v_batch AND l.taken < l.capacity ORDER BY l.lane LIMIT 1 FOR UPDATE;
                ELSE
                    SELECT l.lane, l.lane + l.taken * l.step INTO v_lane, v_seq FROM code_lanes l
                    WHERE l.batch_id = v_batch AND l.taken < l.capacity
                    ORDER BY l.lane + l.taken * l.step LIMIT 1 FOR UPDATE SKIP LOCKED;
                    IF NOT FOUND THEN
                        SELECT l.lane, l.lane + l.taken * l.step INTO v_lane, v_seq FROM code_lanes l
                        WHERE l.batch_id = v_batch AND l.taken < l.capacity
                        ORDER BY l.lane + l.taken * l.step LIMIT 1 FOR UPDATE;
                    END IF;
                END IF;
                IF FOUND THEN
                    SELECT COALESCE(k.code, k.code_key), k.digest INTO v_code, v_digest FROM codes k
                    WHERE k.batch_id = v_batch AND k.seq = v_seq;
                    IF NOT FOUND THEN
                        RAISE EXCEPTION 'code number % of batches row % is missing from the ledger', v_seq + 1, v_batch
                            USING ERRCODE = 'XX001';
                    END IF;
                    PERFORM offerkit_check_code(v_batch, v_seq, v_code, v_digest);
                    INSERT INTO assignments (batch_id, seq, campaign, offer, environment, recipient, shared, channel,
                        assigned_at)
                    VALUES (v_batch, v_seq, p_campaign, p_offer, p_environment, p_recipient, p_shared, p_channel,
                        p_assigned_at::TIMESTAMPTZ);
                    UPDATE code_lanes SET taken = taken + 1 WHERE batch_id = v_batch AND lane = v_lane;
                    RETURN QUERY SELECT 'assigned'::TEXT, v_batch, v_seq, v_code, p_channel, p_assigned_at;
                    RETURN;
                END IF;
            END LOOP;
            RETURN QUERY SELECT 'exhausted'::TEXT, NULL::BIGINT, NULL::BIGINT, NULL::TEXT, NULL::TEXT, NULL::TEXT;
        END
        $$
        """

    /// Brings the schema up to date (with ``LedgerAccess/readWrite``; read-only, checks that it is),
    /// in one transaction on `connection` that holds the migration lock before it looks at what
    /// the schema holds: processes that open a new ledger at the same time all succeed, and only
    /// the first creates the tables. Then checks that the schema holds a ledger (every batch's
    /// codes against its digest, once, for a ledger that just got its code digests).
    ///
    /// - Throws: ``LedgerError/notALedger(path:)`` for a schema with tables of another program,
    ///   ``LedgerError/newerSchema(path:unknownMigrations:)`` for a ledger of a newer OfferKit,
    ///   ``LedgerError/olderSchema(path:applied:current:)`` for one of an earlier OfferKit opened read-only,
    ///   and ``LedgerError/corrupt(path:reason:)`` when the tables or the list of migrations
    ///   differ from what OfferKit created.
    static func prepare(
        _ connection: PostgresConnection, location: PostgresLocation, access: LedgerAccess, logger: Logger
    ) async throws {
        let schema = location.schema
        let label = location.description
        @discardableResult
        func query(_ query: PostgresQuery) async throws -> [[LedgerValue]] {
            try await connection.query(query, logger: logger).collect().map(PostgresValues.values)
        }
        try await query("BEGIN ISOLATION LEVEL READ COMMITTED")
        do {
            try await query(
                "SELECT pg_advisory_xact_lock(hashtextextended(\("offerkit-ledger-migration:" + schema), 0))")
            let schemaExists = try await query("SELECT 1 FROM pg_namespace WHERE nspname = \(schema)").count == 1
            let tables = Set(
                try await query(
                    """
                    SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE n.nspname = \(schema) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
                    """
                ).compactMap { row -> String? in if case .text(let name)? = row.first { name } else { nil } })
            let identifiers =
                tables.contains(migrationsTable)
                ? try await query("SELECT identifier FROM offerkit_migrations").compactMap { row -> String? in
                    if case .text(let identifier)? = row.first { identifier } else { nil }
                } : nil
            let applied = try LedgerMigrations.appliedCount(
                tables: tables, ledgerTables: allTables, migrationsTable: migrationsTable, applied: identifiers,
                known: migrations.map(\.identifier), prefix: migrationPrefix, path: label)
            if applied > 0 { try await checkColumns(query, schema: schema, applied: applied, label: label) }
            if access == .readOnly {
                guard applied == migrations.count else {
                    throw LedgerError.olderSchema(path: label, applied: applied, current: migrations.count)
                }
                try await query("COMMIT")
                return
            }
            if !schemaExists { try await query(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)")) }
            if applied == 0 {
                try await query(
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
                    try await query(PostgresQuery(unsafeSQL: String(statement)))
                }
                for statement in migration.wholeStatements { try await query(PostgresQuery(unsafeSQL: statement)) }
                try await query("INSERT INTO offerkit_migrations (identifier) VALUES (\(migration.identifier))")
            }
            if (1..<4).contains(applied) {
                // The codes just got their digests: only codes that match their batch's digest may.
                try await checkCodes(query, label: label)
            }
            try await query("COMMIT")
        } catch {
            _ = try? await query("ROLLBACK")
            throw error
        }
    }

    /// Compares the tables' columns with the ones the applied migrations create.
    private static func checkColumns(
        _ query: (PostgresQuery) async throws -> [[LedgerValue]], schema: String, applied: Int, label: String
    ) async throws {
        let rows = try await query(
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
            guard case .text(let table)? = row.first, case .text(let column)? = row.last else { continue }
            columns[table, default: []].append(column)
        }
        let expected = expectedColumns(applied: applied)
        if columns != expected {
            let names = Set(columns.keys).union(expected.keys).filter { columns[$0] != expected[$0] }
            throw LedgerError.corrupt(
                path: label,
                reason: "the definition of \(names.sorted().joined(separator: ", ")) differs from the one OfferKit "
                    + "created")
        }
    }

    /// Checks every batch's codes against the batch's digest (and every row against its own).
    private static func checkCodes(_ query: (PostgresQuery) async throws -> [[LedgerValue]], label: String) async throws
    {
        for values in try await query(
            PostgresQuery(unsafeSQL: "SELECT \(StoredBatch.columns) FROM batches ORDER BY id"))
        {
            let batch = try StoredBatch(values, path: label)
            var check = StoredBatch.CodeCheck(batch, path: label)
            for row in try await query(
                "SELECT seq, COALESCE(code, code_key), digest FROM codes WHERE batch_id = \(batch.id) ORDER BY seq")
            {
                _ = try check.add(row)
            }
            try check.finish(extraRows: 0)
        }
    }
}
