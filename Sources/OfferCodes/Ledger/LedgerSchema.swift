import GRDB

/// The ledger's tables, as GRDB migrations: register new migrations at the end, never edit one.
///
/// - `campaigns`: one row per campaign name, with its app.
/// - `offers`: the offers of each campaign and App Store Connect's `active` switch.
/// - `batches`: one row per batch of codes, with what the quarterly limits count.
/// - `apps`: the App Apple IDs, numbered so that the code index holds a small integer per code.
/// - `codes`: every code issued, stored in batch order (`seq` is the code's position in its
///   batch), unique per app by `code_key` (the code upper-cased); `code` holds the code as issued
///   only when it differs from `code_key` (it is `NULL` for upper-case codes). `app_id` is the
///   batch's campaign's app; it has no foreign key, which would cost a lookup per code.
enum LedgerSchema {
    /// What every migration identifier of the ledger starts with (another program's GRDB
    /// migrations do not).
    static let migrationPrefix = "offerkit-ledger-"

    /// The migrator that creates and updates the schema.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(migrationPrefix + "v1") { db in
            try db.execute(sql: version1)
        }
        return migrator
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
}
