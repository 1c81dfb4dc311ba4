import Foundation
import Testing

@testable import CLITestSupport

/// Commands that only read the ledger (validate, plan, status, export's listings, apply
/// --dry-run) never create, migrate or write one; a ledger written by an older OfferKit is
/// reported with the command that migrates it; a ledger path must be a regular file.
@Suite("offerkit codes: read-only commands write nothing")
struct ReadOnlyLedgerTests {
    /// What a ledger file and its folder look like: bytes, modification time, the folder's names.
    struct Snapshot: Equatable {
        let bytes: Data?
        let modified: Date?
        let listing: [String]

        init(_ files: CampaignFiles, _ path: String) {
            bytes = FileManager.default.contents(atPath: path)
            modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
            listing = files.listing()
        }
    }

    /// The read-only runs of a recorded example campaign: each may fail (exit 4 for "nothing handed
    /// out yet"), none may write.
    static let readers: [(String, [String])] = [
        ("validate", []), ("plan", []), ("plan", ["--format", "json-lines"]), ("status", []),
        ("status", ["--format", "json"]), ("export", []), ("export", ["--reprint"]), ("apply", ["--dry-run"]),
    ]

    @Test("validate, plan, status, export and apply --dry-run leave the ledger byte for byte as it was")
    func readersLeaveTheLedgerAsItWas() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let generate = try await files.run("generate", CampaignFiles.example)
        #expect(generate.status == 0, "\(generate)")
        let before = Snapshot(files, files.ledger)
        #expect(before.listing == ["ledger.sqlite"], "\(before.listing)")
        for (command, arguments) in Self.readers {
            let result = try await files.run(command, CampaignFiles.example, arguments)
            #expect([0, 4].contains(result.status), "\(result)")
            #expect(Snapshot(files, files.ledger) == before, "codes \(command) \(arguments) changed the ledger")
        }
    }

    @Test("an older ledger is reported, not migrated, by a reader; codes ledger migrate brings it up to date")
    func olderLedgerIsReportedNotMigrated() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        await #expect(try files.run("generate", CampaignFiles.example).status == 0)
        try await Self.downgradeToVersion3(files.ledger)
        let before = Snapshot(files, files.ledger)
        for (command, arguments) in Self.readers {
            let result = try await files.run(command, CampaignFiles.example, arguments)
            Expect.failure(
                result, status: 5,
                mentioning: ["schema version 3 of 8", "changed nothing", "offerkit codes ledger migrate --ledger"])
            #expect(Snapshot(files, files.ledger) == before, "codes \(command) \(arguments) changed the ledger")
        }
        let migrate = try await CLI.run(
            ["codes", "ledger", "migrate", "--ledger", files.ledger], cwd: files.folder.url)
        #expect(migrate.status == 0, "\(migrate)")
        #expect(migrate.stdout.contains("brought up to date: schema version 3 to 8"), "\(migrate)")
        let again = try await CLI.run(["codes", "ledger", "migrate", "--ledger", files.ledger], cwd: files.folder.url)
        #expect(again.status == 0 && again.stdout.contains("is up to date; nothing was changed"), "\(again)")
        let status = try await files.run("status", CampaignFiles.example)
        #expect(status.status == 0, "\(status)")
    }

    @Test("a missing ledger: validate and plan take it as empty and create nothing; status names it (exit 5)")
    func missingLedger() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let campaign = CampaignFiles.example
        await #expect(try files.run("validate", campaign).status == 0)
        let status = try await files.run("status", campaign)
        Expect.failure(status, status: 5, mentioning: [files.ledger, "no ledger file there", "--ledger"])
        // The default ledger, in the working folder: not created either.
        await #expect(try files.run("validate", campaign, ledger: .none).status == 0)
        Expect.failure(
            try await files.run("status", campaign, ledger: .none), status: 5, mentioning: ["offerkit-ledger.sqlite"])
        #expect(files.listing().isEmpty, "\(files.listing())")
    }

    @Test("an empty file is not made a ledger by a reader")
    func emptyFileStaysEmpty() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        try Data().write(to: URL(fileURLWithPath: files.ledger))
        await #expect(try files.run("validate", CampaignFiles.example).status == 0)
        let plan = try await files.run("plan", CampaignFiles.example)
        Expect.failure(plan, status: 2, mentioning: ["offerkit codes generate"])
        Expect.failure(
            try await files.run("status", CampaignFiles.example), status: 5,
            mentioning: ["holds no ledger tables yet", "offerkit codes ledger migrate"])
        #expect(FileManager.default.contents(atPath: files.ledger) == Data())
        #expect(files.listing() == ["ledger.sqlite"], "\(files.listing())")
    }

    /// A ledger in the repository was the default ledger of every checkout, migrated by the first
    /// codes command run there (issue 28): no tracked file is an SQLite database.
    @Test("no database file is tracked in the repository")
    func noDatabaseIsTracked() async throws {
        let root = CLI.packageRoot
        let listing = try await AwaitedProcess.run("git", ["ls-files", "-z"], in: root)
        try #require(listing.status == 0, "git ls-files failed: \(listing)")
        let tracked = listing.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(tracked.count > 100, "\(tracked.count) tracked files")
        let header = Array("SQLite format 3\u{0}".utf8)
        for name in tracked {
            let path = root.appendingPathComponent(name).path
            #expect(
                !(name.hasSuffix(".sqlite") || name.hasSuffix(".sqlite-wal") || name.hasSuffix(".sqlite-shm")),
                "\(name) is tracked")
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            let start = (try? handle.read(upToCount: header.count)) ?? Data()
            try? handle.close()
            #expect(Array(start) != header, "\(name) is an SQLite database")
        }
        let names = ["offerkit-ledger.sqlite", "offerkit-ledger.sqlite-wal", "offerkit-ledger.sqlite-shm"]
        let ignored = try await AwaitedProcess.run("git", ["check-ignore"] + names, in: root)
        let lines = String(decoding: ignored.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == names, "the default ledger and SQLite's logs are ignored: \(ignored)")
    }

    @Test(
        "a ledger that is not a regular file is refused unopened, without the chmod warning",
        arguments: ["fifo", "/dev/null", "folder"])
    func ledgerMustBeARegularFile(kind: String) async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let path: String
        let words: [String]
        switch kind {
        case "fifo":
            path = files.file("ledger.fifo")
            #expect(mkfifo(path, 0o644) == 0)
            words = ["FIFO (named pipe), not a regular file"]
        case "folder":
            path = files.file("ledger-folder")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            words = ["directory"]
        default:
            path = kind
            words = ["character device, not a regular file"]
        }
        for (command, arguments) in [
            ("generate", []), ("status", []), ("validate", []),
            ("claim", ["--offer", "Spring half price, 3 months", "--recipient", "r"]),
        ] {
            let result = try await files.run(command, CampaignFiles.example, arguments, ledger: .at(path))
            Expect.failure(result, status: 5, mentioning: [path] + words)
            #expect(!result.stderr.contains("chmod 600"), "\(result)")
        }
    }

    /// Turns a ledger of this OfferKit (schema 8) into one an OfferKit before `codes apply` wrote
    /// (schema 3: without `connect_resources`), with Python's sqlite3, not OfferKit's code.
    static func downgradeToVersion3(_ path: String) async throws {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("DROP TABLE code_lanes")
            db.execute("ALTER TABLE codes DROP COLUMN digest")
            db.execute("ALTER TABLE offers DROP COLUMN revision")
            db.execute("DROP TABLE connect_resources")
            db.execute("DROP TABLE price_points")
            db.execute("DROP INDEX assignments_by_code")
            db.execute("CREATE UNIQUE INDEX assignments_personal ON assignments(batch_id, seq) WHERE shared = 0")
            db.execute("CREATE INDEX assignments_by_code ON assignments(batch_id, seq, shared)")
            db.execute("DELETE FROM grdb_migrations WHERE identifier IN ('offerkit-ledger-v4', 'offerkit-ledger-v5', 'offerkit-ledger-v6', 'offerkit-ledger-v7', 'offerkit-ledger-v8')")
            db.commit()
            db.close()
            """
        let result = try await AwaitedProcess.run("python3", ["-c", script, path])
        #expect(result.status == 0, "\(result)")
    }
}
