import ArgumentParser
import Foundation
import OfferCodes
import OfferJSON
import OfferKitSigningCLI
import OfferLedger
import OfferLedgerPostgres

/// The campaign file, the ledger and "today", shared by the `codes` subcommands.
struct CampaignOptions: ParsableArguments {
    @Argument(help: "The campaign file (JSON), or '-' for stdin.")
    var campaign: String

    @OptionGroup var ledger: LedgerOptions

    // Unconditional: a value such as -0001-01-01 is this option's (and refused by name), not a flag.
    @Option(
        parsing: .unconditional,
        help: "The day (YYYY-MM-DD, UTC) that expiry limits, relative dates and quarters count from. Default: today.")
    var today: String?

    func day() throws -> CalendarDate { try Self.day(today) }

    /// Reads the campaign and checks it against every rule (and the ledger): throws every problem
    /// at once. For commands that create something (generate, plan).
    func load(ledger: CodeLedger?) async throws -> Campaign {
        try await Self.load(path: campaign, ledger: ledger, today: day())
    }

    /// Reads the campaign for commands that only look codes up (import, export, deactivate): its
    /// shape must be valid, but rules about creating offers (expiry windows, quarterly limits) no
    /// longer apply once the offers exist.
    func loadRecorded() throws -> Campaign {
        let report = try CampaignValidator(today: day()).validate(json: Self.readBytes(campaign))
        guard let campaign = report.campaign else { throw CampaignProblems(report.problems) }
        return campaign
    }

    func readCampaignBytes() throws -> [UInt8] { try Self.readBytes(campaign) }

    /// Reads and validates the campaign for what `plan` and `apply` send to App Store Connect: as
    /// of `--today` when given, else of the day the ledger first recorded the campaign (`codes
    /// generate`), else today. Relative dates (a win-back offer's `"startDate": "P7D"`) then name
    /// the same days on every run, so that a run resumed on a later day plans the same requests,
    /// and dates checked when the campaign was recorded are not refused once they pass (App Store
    /// Connect still refuses what it would not take, at the campaign's path).
    func loadAsRecorded(ledger: CodeLedger?) async throws -> Campaign {
        let bytes = try readCampaignBytes()
        let today = try day()
        var day = today
        var recordedBy: String?
        if self.today == nil, let ledger, case .string(let name)? = try? JSONValue.parse(bytes)["name"],
            let recorded = try await ledger.campaignRecordedDay(name)
        {
            day = recorded
            recordedBy = name
        }
        let report = try await CampaignValidator(today: day).validate(json: bytes, against: ledger)
        do {
            return try report.validCampaign()
        } catch var problems {
            // The rules say "today": here that is the recorded day, which the reader must be told.
            if let recordedBy, day != today, problems.problems.contains(where: { $0.message.contains("today") }) {
                problems.note =
                    "\"today\" above is \(day), the day the ledger first recorded campaign "
                    + "\(ProblemText.quoted(recordedBy)): plan and apply check dates, expiry limits and quarters as "
                    + "of that day on every run; --today YYYY-MM-DD checks them as of another"
            }
            throw problems
        }
    }

    static func load(path: String, ledger: CodeLedger?, today: CalendarDate) async throws -> Campaign {
        try await CampaignValidator(today: today).validate(json: readBytes(path), against: ledger).validCampaign()
    }

    /// `--today`, or the current UTC day.
    static func day(_ option: String?) throws -> CalendarDate {
        guard let option else { return CalendarDate(unixSeconds: Int64(Date().timeIntervalSince1970)) }
        guard let day = CalendarDate(option) else {
            let shown = option.count > 40 ? String(option.prefix(40)) + "…" : option
            throw CLIError.usage(
                "--today \(shown.debugDescription) is not a day: expected a date written YYYY-MM-DD (year 0000 to 9999), such as "
                    + "2027-03-01")
        }
        return day
    }

    /// A campaign file's bytes, or stdin's for "-".
    static func readBytes(_ path: String) throws -> [UInt8] {
        try InputFile.read(path, limit: InputFile.campaignLimit, what: "a campaign file", accepting: .regularFile)
    }

    /// The offer with this reference name, or a usage error listing the names there are.
    static func offerIndex(named name: String, in campaign: Campaign) throws -> Int {
        guard let index = campaign.offers.firstIndex(where: { $0.referenceName == name }) else {
            let names = campaign.offers.map { "\"\($0.referenceName)\"" }.joined(separator: ", ")
            throw CLIError.usage("--offer: campaign \(campaign.name) has no offer named \"\(name)\" (it has \(names))")
        }
        return index
    }
}

/// `--ledger LOCATOR`: an SQLite file (a path or `sqlite:PATH`) or a PostgreSQL database
/// (`postgres://…`), parsed by ``LedgerLocation``. Commands that only read the ledger open it with
/// ``LedgerAccess/readOnly``: they never create, migrate or write it.
struct LedgerOptions: ParsableArguments {
    static let defaultPath = "offerkit-ledger.sqlite"

    @Option(
        name: .customLong("ledger"),
        help: ArgumentHelp(
            "The ledger: a file path or sqlite:PATH (SQLite), or postgres://USER@HOST:PORT/DATABASE (PostgreSQL; "
                + "the password from PGPASSWORD or ~/.pgpass). Default: $OFFERKIT_LEDGER, else ./\(Self.defaultPath).",
            valueName: "path-or-url"))
    var path: String?

    /// The locator in use.
    var resolvedPath: String {
        if let path { return path }
        if let path = CommandContext.current.environment["OFFERKIT_LEDGER"], !path.isEmpty { return path }
        return Self.defaultPath
    }

    /// The parsed locator; a bad one is a usage error (its password never shown). A password
    /// written in `--ledger` itself gets a warning (see ``LedgerLocator``).
    func location() throws -> LedgerLocation {
        try LedgerLocator.location(resolvedPath, option: path == nil ? "OFFERKIT_LEDGER" : "--ledger")
    }

    /// Opens the ledger at `location` (creating an SQLite file with mode 0600, or a PostgreSQL
    /// schema and its tables, and bringing an older ledger up to date, unless `access` is
    /// read-only) and runs `body` with it; a PostgreSQL ledger's connections run until `body`
    /// returns. Warns when an existing ledger file is readable by others.
    static func withLedger<T>(
        _ location: LedgerLocation, access: LedgerAccess = .readWrite, _ body: (CodeLedger) async throws -> T
    ) async throws -> T {
        switch location {
        case .sqlite(let path):
            warnIfExposed(path)
            // Closed before the process ends, so that the file is whole again, without `-wal` and `-shm`.
            return try await CodeLedger.withSQLite(path: path, access: access, body)
        case .postgres(let location):
            return try await CodeLedger.withPostgres(
                location, access: access, environment: CommandContext.current.environment, body)
        }
    }

    /// Runs `body` with the ledger, opened to write it (see ``withLedger(_:access:_:)``).
    func withWritable<T>(_ body: (CodeLedger) async throws -> T) async throws -> T {
        try await Self.withLedger(location(), body)
    }

    /// Runs `body` with the ledger opened to write it if it exists, for commands that work on what
    /// earlier runs recorded (claim, export, apply): a missing SQLite file is `nil`, and is not
    /// created.
    func withExisting<T>(_ body: (CodeLedger?) async throws -> T) async throws -> T {
        let location = try location()
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            return try await body(nil)
        }
        return try await Self.withLedger(location) { try await body($0) }
    }

    /// Runs `body` with the ledger opened to read it only, for commands that may do without one
    /// (validate, plan): a missing or empty SQLite file, or a PostgreSQL schema without ledger
    /// tables, is `nil` (an empty ledger). Nothing is created or written; an older ledger is an
    /// error that names the command that migrates it.
    func withReadable<T>(_ body: (CodeLedger?) async throws -> T) async throws -> T {
        let location = try location()
        if case .sqlite(let path) = location {
            guard let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber else {
                return try await body(nil)  // missing (anything else is refused by the ledger itself)
            }
            if size.intValue == 0, Self.isRegularFile(path) { return try await body(nil) }
        }
        do {
            return try await Self.withLedger(location, access: .readOnly) { try await body($0) }
        } catch LedgerError.olderSchema(_, applied: 0, _) {
            // Thrown by the opening, before `body` ran: a schema without ledger tables.
            return try await body(nil)
        }
    }

    /// Runs `body` with the ledger opened to read it only if it exists (export's listings and
    /// reprints, apply --dry-run): a missing SQLite file is `nil`, which those commands report as
    /// holding nothing.
    func withExistingForReading<T>(_ body: (CodeLedger?) async throws -> T) async throws -> T {
        let location = try location()
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            return try await body(nil)
        }
        return try await Self.withLedger(location, access: .readOnly) { try await body($0) }
    }

    /// Runs `body` with the ledger opened to read it only, for commands that show what earlier
    /// runs recorded (status): a missing ledger is an error naming it.
    func withRequiredForReading<T>(for command: String, _ body: (CodeLedger) async throws -> T) async throws -> T {
        let location = try location()
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            throw CLIError.io(
                path: LedgerLocation.redacted(path),
                reason: "no ledger file there; codes \(command) reads the ledger the campaign was recorded in "
                    + "(by `offerkit codes generate`): give it with --ledger or OFFERKIT_LEDGER")
        }
        return try await Self.withLedger(location, access: .readOnly, body)
    }

    /// Warns when an existing ledger file can be read by group or others: it holds redeemable codes.
    static func warnIfExposed(_ path: String) {
        Output.warnIfExposed(path, name: "ledger \(path)", reason: " and holds redeemable codes")
    }

    static func isRegularFile(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    }
}

/// `--no-ledger`, for the commands that can check a campaign without a ledger (validate, plan).
struct NoLedgerOption: ParsableArguments {
    @Flag(
        name: .customLong("no-ledger"),
        help: "Use no ledger: nothing is checked against earlier campaigns (or, for plan, their generated codes).")
    var disabled = false

    /// Refuses `--ledger` with `--no-ledger`.
    func check(_ ledger: LedgerOptions) throws {
        if disabled, ledger.path != nil { throw ValidationError("--ledger and --no-ledger exclude each other") }
    }

    /// Runs `body` with the ledger, read only (see ``LedgerOptions/withReadable(_:)``), or with
    /// `nil` under `--no-ledger`.
    func withReadable<T>(_ ledger: LedgerOptions, _ body: (CodeLedger?) async throws -> T) async throws -> T {
        disabled ? try await body(nil) : try await ledger.withReadable(body)
    }
}
