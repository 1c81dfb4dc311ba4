import ArgumentParser
import Foundation
import OfferCodes
import OfferKitSigningCLI
import OfferLedger

/// `offerkit codes ledger copy --from LEDGER --to LEDGER`: a whole ledger into a new or empty one
/// (``LedgerCopy`` does the work; this opens the two ledgers and prints what was copied).
struct CodesLedgerCopy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a whole ledger into a new or empty one: SQLite to PostgreSQL and back, or schema to schema.",
        discussion: """
            Copies every app, campaign, offer, batch, code, assignment and App Store Connect resource that \
            `codes apply` recorded exactly (ids, App Store Connect's ids, order, times, active switches, digests), \
            reading the source from one snapshot and writing the target in one transaction \
            that holds its write lock. The target must be new or hold nothing recorded (exit 4 otherwise). The \
            counts are read back from the target and compared with the source before it commits: the target \
            gets all of the ledger or nothing, also when the copy fails or is killed. A new SQLite file is \
            written in a folder next to its path (.NAME.offerkit-XXXXXXXX.tmp, which the next copy to that path \
            removes if this one is killed) and takes its name at the end. The source is opened read-only: \
            it is never changed, and a source written by an older OfferKit is refused (bring it up to date \
            with `offerkit codes ledger migrate` first).

            Ledgers are named as --ledger names them: a path or sqlite:PATH, or \
            postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME&sslmode=MODE] (passwords are never \
            shown).
            """)

    @Option(
        name: .customLong("from"),
        help: ArgumentHelp(
            "The ledger to copy: a file path or sqlite:PATH, or postgres://USER@HOST:PORT/DATABASE[?schema=NAME].",
            valueName: "path-or-url"))
    var from: String

    @Option(
        name: .customLong("to"),
        help: ArgumentHelp(
            "The new or empty ledger to copy into, named the same way (a missing file is created).",
            valueName: "path-or-url"))
    var to: String

    func run() async throws {
        let sourceLocation = try Self.location(from, option: "--from")
        let targetLocation = try Self.location(to, option: "--to")
        if Self.isSame(sourceLocation, targetLocation) {
            throw CLIError.usage("--from and --to name the same ledger (\(targetLocation)); expected two ledgers")
        }
        var progress: ProgressReporter?
        defer { progress?.finish() }
        let report: LedgerCopy.Report
        do {
            report = try await Self.withSource(sourceLocation) { source in
                func copy(_ target: CodeLedger) async throws -> LedgerCopy.Report {
                    try await LedgerCopy(from: source, to: target).run { copied, total in
                        if progress == nil { progress = ProgressReporter("copying codes", total: total) }
                        progress?.update(copied)
                    }
                }
                switch targetLocation {
                case .sqlite(let path) where !FileManager.default.fileExists(atPath: path):
                    return try await CodeLedger.creatingNewSQLiteFile(
                        at: path, removedAbandoned: AtomicFile.noteRemoved, copy)
                default:
                    return try await LedgerOptions.withLedger(targetLocation, copy)
                }
            }
        } catch let error as LedgerCopyError {
            switch error {
            case .targetNotEmpty, .sourceEmpty: throw CLIError.invalidInput(error.localizedDescription)
            case .verificationFailed: throw CLIError.io(path: "codes ledger copy", reason: error.localizedDescription)
            }
        }
        progress?.finish()
        Self.print(report, from: sourceLocation, to: targetLocation)
    }

    /// A locator, parsed as `--ledger` parses it (a bad one is a usage error, its password never shown).
    static func location(_ text: String, option: String) throws -> LedgerLocation {
        try LedgerLocator.location(text, option: option)
    }

    /// Opens the ledger to copy, read-only, checks it as `export` does, and runs `body` with it; a
    /// missing SQLite file is an error (it is not created), and an older ledger is not brought up
    /// to date.
    static func withSource<T>(_ location: LedgerLocation, _ body: (CodeLedger) async throws -> T) async throws -> T {
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            throw CLIError.io(
                path: LedgerLocation.redacted(path), reason: "no ledger file there; expected the ledger to copy")
        }
        do {
            return try await LedgerOptions.withLedger(location, access: .readOnly) { ledger in
                try await ledger.checkIntegrity()
                return try await body(ledger)
            }
        } catch LedgerError.olderSchema(let path, applied: 0, _) {
            // No ledger tables at all (a new schema, an empty file): nothing recorded to copy.
            throw CLIError.invalidInput(LedgerCopyError.sourceEmpty(source: path).localizedDescription)
        }
    }

    /// Whether two locators name one ledger: one file (by path, or by device and inode when it
    /// exists), or one schema of one database on one server.
    static func isSame(_ first: LedgerLocation, _ second: LedgerLocation) -> Bool {
        switch (first, second) {
        case (.sqlite(let one), .sqlite(let other)):
            let paths = [one, other].map { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path }
            if paths[0] == paths[1] { return true }
            guard let a = try? FileManager.default.attributesOfItem(atPath: one),
                let b = try? FileManager.default.attributesOfItem(atPath: other)
            else { return false }
            return (a[.systemNumber] as? NSNumber) == (b[.systemNumber] as? NSNumber)
                && (a[.systemFileNumber] as? NSNumber) == (b[.systemFileNumber] as? NSNumber)
        case (.postgres(let one), .postgres(let other)):
            return one.host.lowercased() == other.host.lowercased() && one.port == other.port
                && one.database == other.database && one.schema == other.schema
        default:
            return false
        }
    }

    private static func print(_ report: LedgerCopy.Report, from: LedgerLocation, to: LedgerLocation) {
        let counts = report.counts
        let grouped = ProgressReporter.grouped
        Output.line("copied \(from) to \(to)")
        Output.line("apps: \(grouped(counts.apps))")
        Output.line("campaigns: \(grouped(counts.campaigns))")
        Output.line("offers: \(grouped(counts.offers))")
        Output.line("batches: \(grouped(counts.batches))")
        for row in report.batches {
            let codes = counts.codesPerBatch[row.id] ?? 0
            Output.line("  \(StoredBatch.describe(row.batch)): \(grouped(codes)) code\(codes == 1 ? "" : "s")")
        }
        Output.line("codes: \(grouped(counts.codes))")
        Output.line("assignments: \(grouped(counts.assignments))")
        Output.line("App Store Connect resources: \(grouped(counts.connectResources))")
        Output.line("price points: \(grouped(counts.pricePoints))")
        Output.line("verified: the target holds these counts, as the source does")
    }
}
