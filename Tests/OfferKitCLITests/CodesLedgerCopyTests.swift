import Foundation
import InteropSupport
import Testing

@testable import CLITestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `offerkit codes ledger copy`: SQLite to PostgreSQL and back exactly, a non-empty target
/// refused, failures and kills leave the target as it was, passwords never shown.
@Suite("offerkit codes ledger copy")
struct CodesLedgerCopyTests {
    /// `offerkit codes ledger copy --from … --to …`, run in the folder.
    static func copy(_ from: String, _ to: String, in files: CampaignFiles) async throws -> CLIResult {
        try await CLI.run(["codes", "ledger", "copy", "--from", from, "--to", to], cwd: files.folder.url)
    }

    /// A ledger of the example campaign (custom codes) and a campaign with Apple's one-time-use
    /// codes imported, plus three assignments and three App Store Connect resources.
    static func makeSource(_ files: CampaignFiles) async throws {
        await #expect(try files.run("generate", CampaignFiles.example).status == 0)
        let imports = try files.write(
            CampaignFiles.campaign(
                name: "imports", appAppleId: "5550001112",
                offers: [CampaignFiles.offer("Gems", oneTimeUse: [CampaignFiles.oneTimeUse(count: 3)])]),
            to: "imports.json")
        await #expect(try files.run("generate", imports).status == 0)
        let csv = try files.write("Code\r\nAAAA1111\r\nBBBB2222\r\nCCCC3333\r\n", to: "apple.csv")
        let imported = try await files.run("import", imports, ["--offer", "Gems", "--csv", csv])
        #expect(imported.status == 0, "\(imported)")
        // Assignments as the ledger records them (`export --recipients` and `claim` write these rows).
        try await python(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            batch, campaign, offer, environment = db.execute(
                "SELECT id, campaign, offer, environment FROM batches WHERE stored_codes > 0 AND redemption_limit = 1 "
                "ORDER BY id LIMIT 1").fetchone()
            for seq, (recipient, channel) in enumerate([("ann", "export"), ("bob", "claim"), ("zoë ✓", "export")]):
                db.execute(
                    "INSERT INTO assignments (batch_id, seq, campaign, offer, environment, recipient, shared, channel, "
                    "assigned_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)",
                    (batch, seq, campaign, offer, environment, recipient, channel, "2027-01-15T10:00:0%d.125Z" % seq))
            # App Store Connect resources as `codes apply` records them: created (with Apple's id), failed, sent.
            offers = db.execute("SELECT campaign, name FROM offers ORDER BY rowid").fetchall()
            (first, offer), (imports, gems) = offers[0], [o for o in offers if o[0] == "imports"][0]
            for values in [
                (first, offer, "offer", "", "offer-1", "subscriptionOfferCodes", "created", "6744210001", None),
                (imports, gems, "offer", "", "offer-1", "inAppPurchaseOfferCodes", "sent", None, "timed out"),
                (first, offer, "customCode", "SPRING-Ä1", "offer-1-custom-code-1",
                 "subscriptionOfferCodeCustomCodes", "failed", None, "409 ENTITY_ERROR\\nThe code is taken."),
            ]:
                db.execute(
                    "INSERT INTO connect_resources (campaign, offer, kind, key, request_id, resource_type, state, "
                    "asc_id, body_digest, error, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    values[:8] + ("ab" * 32,) + values[8:] + ("2027-01-16T08:00:00.250Z",))
            db.commit()
            """, files.ledger)
    }

    /// Every row of every table of an SQLite ledger, in order (`rowid` included), as text.
    static func dump(_ path: String) async throws -> String {
        try await python(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            for table, order in [("apps", "id"), ("campaigns", "rowid"), ("offers", "rowid"), ("batches", "id"),
                                 ("codes", "batch_id, seq"), ("assignments", "id"), ("connect_resources", "id")]:
                key = "" if table == "codes" else "rowid, "
                for row in db.execute("SELECT %s* FROM %s ORDER BY %s" % (key, table, order)):
                    print(table, [value.hex() if isinstance(value, bytes) else value for value in row])
            """, path)
    }

    @discardableResult
    static func python(_ script: String, _ arguments: String...) async throws -> String {
        let result = try await ExternalProcess.run(InteropEnvironment.python, ["-c", script] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    static func password(of url: String) -> String {
        URLComponents(string: url)?.password ?? CLIPostgres.password ?? "no-password"
    }

    @Test func sqliteToPostgresAndBackIsExact() async throws {
        guard case .at(let url)? = CLIPostgres.ledger("postgres") else { return }
        let files = try CampaignFiles.make()
        defer { files.remove() }
        try await Self.makeSource(files)
        let exported = try await files.run("export", CampaignFiles.example)
        #expect(exported.status == 0, "\(exported)")

        let there = try await Self.copy(files.ledger, url, in: files)
        #expect(there.status == 0, "\(there)")
        #expect(there.stdout.contains("copied \(files.ledger) to postgres://"), "\(there)")
        #expect(there.stdout.contains("campaigns: 2\n") && there.stdout.contains("codes: 1,306\n"), "\(there)")
        #expect(there.stdout.contains("assignments: 3\n"), "\(there)")
        #expect(there.stdout.contains("App Store Connect resources: 3\n"), "\(there)")
        #expect(there.stdout.contains("price points: 0\n"), "\(there)")
        #expect(
            there.stdout.contains("  oneTimeUseCodes[0] of offer \"Gems\" in campaign \"imports\": 3 codes\n"),
            "\(there)")
        #expect(there.stdout.contains("verified:"), "\(there)")
        let resources = try await CLIPostgres.psql(
            url,
            "SELECT string_agg(concat_ws(' ', id, kind, state, asc_id), ', ' ORDER BY id) FROM "
                + "\(CLIPostgres.schema(of: url)).connect_resources")
        #expect(resources == nil || resources == "1 offer created 6744210001, 2 offer sent, 3 customCode failed")
        let onPostgres = try await files.run("export", CampaignFiles.example, ledger: .at(url))
        #expect(onPostgres.stdout == exported.stdout && onPostgres.status == 0, "\(onPostgres)")

        let back = files.file("back.sqlite")
        let returned = try await Self.copy(url, back, in: files)
        #expect(returned.status == 0, "\(returned)")
        let (copied, source) = (try await Self.dump(back), try await Self.dump(files.ledger))
        #expect(
            copied == source,
            "differs: \(Set(copied.split(separator: "\n")).symmetricDifference(source.split(separator: "\n")).sorted())"
        )
        #expect(FileMode.of(back) == 0o600)
        #expect(files.listing().filter { $0.hasPrefix(".") }.isEmpty, "\(files.listing())")

        // Both copies keep working: a new campaign is recorded after the copied ids.
        let more = try files.write(
            CampaignFiles.campaign(
                name: "more", offers: [CampaignFiles.offer("More", custom: [CampaignFiles.generated(count: 5)])]),
            to: "more.json")
        for ledger in [CampaignFiles.LedgerChoice.at(url), .at(back)] {
            let generated = try await files.run("generate", more, ledger: ledger)
            #expect(generated.status == 0, "\(generated)")
            let export = try await files.run("export", more, ledger: ledger)
            #expect(CampaignFiles.codes(ofCSV: export.stdout).count == 5, "\(export)")
        }
        for result in [there, returned] {
            #expect(!result.stdout.contains(Self.password(of: url)) && !result.stderr.contains(Self.password(of: url)))
        }
    }

    @Test func aNonEmptyTargetIsRefusedAndUnchanged() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        try await Self.makeSource(files)
        let target = files.file("target.sqlite")
        let small = try files.write(
            CampaignFiles.campaign(
                name: "small", offers: [CampaignFiles.offer("Small", custom: [CampaignFiles.given(["SMALL1"])])]),
            to: "small.json")
        await #expect(try files.run("generate", small, ledger: .at(target)).status == 0)
        let before = try await Self.dump(target)
        let refused = try await Self.copy(files.ledger, target, in: files)
        Expect.failure(
            refused, status: 4, mentioning: ["is not empty", "campaigns: 1", "codes: 1,", "Nothing was written"])
        await #expect(try Self.dump(target) == before)

        guard case .at(let url)? = CLIPostgres.ledger("postgres") else { return }
        await #expect(try Self.copy(files.ledger, url, in: files).status == 0)
        let again = try await Self.copy(target, url, in: files)
        Expect.failure(again, status: 4, mentioning: ["is not empty", "campaigns: 2", ":***@"])
        #expect(!again.stderr.contains(Self.password(of: url)))
    }

    @Test func aTargetThatRejectsARowIsLeftEmpty() async throws {
        guard case .at(let url)? = CLIPostgres.ledger("postgres") else { return }
        let files = try CampaignFiles.make()
        defer { files.remove() }
        try await Self.makeSource(files)
        // An empty ledger whose codes table refuses one of Apple's codes (imported last). Readers
        // such as validate create nothing: `codes ledger migrate` creates the empty ledger.
        let migrate = try await CLI.run(["codes", "ledger", "migrate", "--ledger", url], cwd: files.folder.url)
        #expect(migrate.status == 0, "\(migrate)")
        let schema = CLIPostgres.schema(of: url)
        guard
            try await CLIPostgres.psql(
                url, "ALTER TABLE \(schema).codes ADD CONSTRAINT refuse CHECK (code_key <> 'BBBB2222')")
                != nil
        else { return }
        let failed = try await Self.copy(files.ledger, url, in: files)
        Expect.failure(failed, status: 5, mentioning: ["write the copied codes", "refuse", "was left as it was"])
        #expect(!failed.stderr.contains("BBBB2222") && !failed.stderr.contains(Self.password(of: url)))
        let left = try await CLIPostgres.psql(
            url,
            "SELECT (SELECT count(*) FROM \(schema).campaigns) + (SELECT count(*) FROM \(schema).batches) "
                + "+ (SELECT count(*) FROM \(schema).codes) + (SELECT count(*) FROM \(schema).apps)")
        #expect(left == "0")
    }

    @Test func aDamagedSourceIsRefusedAndNothingIsCreated() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        try await Self.makeSource(files)
        // A code changed behind the ledger's back: its row's digest no longer matches.
        try await Self.python(
            """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE codes SET code_key = 'ZZZZ9999' WHERE code_key = 'BBBB2222'")
            db.commit()
            """, files.ledger)
        let copy = files.file("copy.sqlite")
        let refused = try await Self.copy(files.ledger, copy, in: files)
        Expect.failure(refused, status: 5, mentioning: ["looks damaged", "does not match its digest"])
        #expect(!FileManager.default.fileExists(atPath: copy))
        #expect(files.listing().allSatisfy { !$0.hasPrefix(".") }, "\(files.listing())")
    }

    @Test func locatorsAreCheckedAndNeverShowPasswords() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        try await Self.makeSource(files)
        let same = try await Self.copy(files.ledger, "./ledger.sqlite", in: files)
        Expect.failure(same, status: 2, mentioning: ["--from and --to name the same ledger"])
        let missing = try await Self.copy(files.file("missing.sqlite"), files.file("copy.sqlite"), in: files)
        Expect.failure(missing, status: 5, mentioning: ["no ledger file there"])
        #expect(!FileManager.default.fileExists(atPath: files.file("missing.sqlite")))
        let bad = try await Self.copy(files.ledger, "postgres://u:Secret99@h:70000/db", in: files)
        Expect.failure(bad, status: 2, mentioning: ["--to", "port 70000", "postgres://u:***@h:70000/db"])
        #expect(!bad.stderr.contains("Secret99"))

        guard case .at(let url)? = CLIPostgres.ledger("postgres") else { return }
        var components = try #require(URLComponents(string: url))
        components.password = "Wrong-\(UUID().uuidString)"
        let wrong = try #require(components.string)
        let refused = try await Self.copy(files.ledger, wrong, in: files)
        Expect.failure(refused, status: 5, mentioning: ["password authentication failed", ":***@"])
        #expect(!refused.stderr.contains(components.password!))
        let nothing = try await Self.copy(url, files.file("copy.sqlite"), in: files)
        Expect.failure(nothing, status: 4, mentioning: ["holds nothing recorded"])
        #expect(!nothing.stderr.contains(Self.password(of: url)))
        #expect(!FileManager.default.fileExists(atPath: files.file("copy.sqlite")))
    }

    @Test func aKilledCopyLeavesNoTarget() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let big = try files.write(
            CampaignFiles.campaign(
                name: "big", offers: [CampaignFiles.offer("Bulk", custom: [CampaignFiles.generated(count: 400_000)])]),
            to: "big.json")
        let generated = try await files.run("generate", big)
        #expect(generated.status == 0, "\(generated)")
        let target = files.file("copy.sqlite")
        // Killed 300 ms after its staging folder appeared: the tables take milliseconds, the
        // 400,000 codes seconds, so the copy is under way.
        var appeared: Date?
        let killed = try await KilledCopy(from: files.ledger, to: target, in: files) {
            if appeared == nil, files.listing().contains(where: { $0.hasPrefix(".copy.sqlite.offerkit-") }) {
                appeared = Date()
            }
            return appeared.map { Date().timeIntervalSince($0) > 0.3 } ?? false
        }
        try #require(killed.wasRunning, "the copy finished before it was killed, so nothing was tested")
        #expect(!FileManager.default.fileExists(atPath: target), "a partial \(target) exists after SIGKILL")
        let leftovers = files.listing().filter { $0.hasPrefix(".") }
        #expect(
            leftovers.count == 1
                && leftovers.allSatisfy { $0.hasPrefix(".copy.sqlite.offerkit-") && $0.hasSuffix(".tmp") },
            "\(files.listing())")
        // A new copy goes through, and removes what the killed one left, saying so.
        let again = try await Self.copy(files.ledger, target, in: files)
        #expect(again.status == 0 && again.stdout.contains("codes: 400,000\n"), "\(again)")
        #expect(again.stderr.contains("removed \(files.file(leftovers.first ?? "?"))"), "\(again)")
        #expect(again.stderr.contains("the unfinished output of an earlier run that was interrupted"), "\(again)")
        #expect(!files.listing().contains { $0.hasPrefix(".") }, "\(files.listing())")

        guard case .at(let url)? = CLIPostgres.ledger("postgres") else { return }
        let schema = CLIPostgres.schema(of: url)
        // Killed in the middle of its transaction, and surely so: the target is an empty ledger whose codes
        // table a session of the test's holds in SHARE mode, so the copy writes its campaigns, offers and
        // batches, then waits to write codes, and is killed while it waits. (Killed once it held the codes
        // table's lock, it could finish first: 400,000 codes take PostgreSQL about a second, and a psql
        // per look takes a loaded machine longer.)
        let migrate = try await CLI.run(["codes", "ledger", "migrate", "--ledger", url], cwd: files.folder.url)
        try #require(migrate.status == 0, "\(migrate)")
        let holder = "offerkit-test-lock-\(UUID().uuidString.prefix(8))"
        let locker = try ChildProcess(
            command: "psql",
            [
                String(CLIPostgres.withPassword(url).prefix { $0 != "?" })
                    + "?sslmode=disable&application_name=\(holder)"
                    + "&options=-c%20client_connection_check_interval%3D1000",
                "-Atc", "BEGIN; LOCK TABLE \(schema).codes IN SHARE MODE; SELECT pg_sleep(120); COMMIT;",
            ], watchdog: 150)
        let releaseLock = {
            _ = try? await CLIPostgres.psql(
                url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(holder)'")
            _ = await locker.kill()
        }
        // The lock is let go however this part ends: a failure must not leave the table locked.
        var waitedFor = ""
        let killedPostgres: KilledCopy?
        do {
            var locked = false
            let deadline = ContinuousClock.now + .seconds(30)
            while !locked, locker.isRunning, ContinuousClock.now < deadline {
                locked =
                    try await CLIPostgres.psql(
                        url,
                        "SELECT count(*) FROM pg_locks WHERE relation = to_regclass('\(schema).codes') "
                            + "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                            + "AND mode = 'ShareLock' AND granted") == "1"
                if !locked { try await Task.sleep(for: .milliseconds(20)) }
            }
            if locked {
                killedPostgres = try await KilledCopy(from: files.ledger, to: url, in: files) {
                    waitedFor =
                        (try? await CLIPostgres.psql(
                            url,
                            "SELECT coalesce(string_agg(mode, ','), '') FROM pg_locks "
                                + "WHERE relation = to_regclass('\(schema).codes') AND NOT granted "
                                + "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
                        )).flatMap { $0 } ?? ""
                    return !waitedFor.isEmpty
                }
            } else {
                Issue.record("the test's session never held \(schema).codes in SHARE mode: \(locker.stderr)")
                killedPostgres = nil
            }
        } catch {
            await releaseLock()
            throw error
        }
        // The killed copy's server session ends (rolled back) once the lock is free: it finds its client gone.
        await releaseLock()
        guard let killedPostgres else { return }
        try #require(killedPostgres.wasRunning, "the copy finished before it was killed, so nothing was tested")
        #expect(waitedFor == "RowExclusiveLock", "the copy was killed while it waited to write codes: \(waitedFor)")
        let left = try await CLIPostgres.psql(
            url, "SELECT (SELECT count(*) FROM \(schema).codes) + (SELECT count(*) FROM \(schema).batches)")
        #expect(left == nil || left == "0", "\(left ?? "")")
        let retry = try await Self.copy(files.ledger, url, in: files)
        #expect(retry.status == 0 && retry.stdout.contains("codes: 400,000\n"), "\(retry)")
    }
}

/// `offerkit codes ledger copy` started in the background and killed with SIGKILL once
/// `condition` holds (polled every 2 ms with `Task.sleep`, for at most 60 s).
private struct KilledCopy {
    /// Whether the process was still running when it was killed.
    let wasRunning: Bool

    init(from: String, to: String, in files: CampaignFiles, when condition: () async -> Bool) async throws {
        let process = try ChildProcess(
            CLI.binary, ["codes", "ledger", "copy", "--from", from, "--to", to],
            environment: CLI.environment(adding: [:]), currentDirectory: files.folder.url)
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline, !(await condition()) {
            try await Task.sleep(for: .milliseconds(2))
        }
        let running = process.isRunning
        let ending = await process.kill()
        wasRunning = running && ending == .signalled(SIGKILL)
    }
}
