import ArgumentParser
import Foundation
import OfferCodes
import OfferLedgerPostgres

/// The campaign file, the ledger and "today", shared by the `codes` subcommands.
struct CampaignOptions: ParsableArguments {
    @Argument(help: "The campaign file (JSON), or '-' for stdin.")
    var campaign: String

    @OptionGroup var ledger: LedgerOptions

    @Option(
        help: "The day (YYYY-MM-DD, UTC) that expiry limits, relative dates and quarters count from. Default: today.")
    var today: String?

    func day() throws -> CalendarDate { try Self.day(today) }

    /// Reads the campaign and checks it against every rule (and the ledger): throws every problem
    /// at once. For commands that create something (generate, plan).
    func load(ledger: (any CodeLedger)?) throws -> Campaign {
        try Self.load(path: campaign, ledger: ledger, today: day())
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

    static func load(path: String, ledger: (any CodeLedger)?, today: CalendarDate) throws -> Campaign {
        try CampaignValidator(today: today, ledger: ledger).validate(json: readBytes(path)).validCampaign()
    }

    /// `--today`, or the current UTC day.
    static func day(_ option: String?) throws -> CalendarDate {
        guard let option else { return CalendarDate(unixSeconds: Int64(Date().timeIntervalSince1970)) }
        guard let day = CalendarDate(option) else {
            throw CLIError.usage("--today must be a date written YYYY-MM-DD, such as 2027-03-01")
        }
        return day
    }

    /// A campaign file's bytes, or stdin's for "-".
    static func readBytes(_ path: String) throws -> [UInt8] {
        try InputFile.read(path, limit: InputFile.campaignLimit, what: "a campaign file")
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

/// `--ledger LOCATOR` / `--no-ledger`: an SQLite file (a path or `sqlite:PATH`) or a PostgreSQL
/// database (`postgres://…`), parsed by ``LedgerLocation``.
struct LedgerOptions: ParsableArguments {
    static let defaultPath = "offerkit-ledger.sqlite"

    @Option(
        name: .customLong("ledger"),
        help: ArgumentHelp(
            "The ledger: a file path or sqlite:PATH (SQLite), or postgres://USER@HOST:PORT/DATABASE (PostgreSQL). "
                + "Default: $OFFERKIT_LEDGER, else ./\(Self.defaultPath).",
            valueName: "path-or-url"))
    var path: String?

    @Flag(
        name: .customLong("no-ledger"),
        help: "Use no ledger: nothing is recorded, nothing is checked against earlier campaigns.")
    var disabled = false

    func validate() throws {
        if disabled, path != nil { throw ValidationError("--ledger and --no-ledger exclude each other") }
    }

    /// The locator in use, or `nil` with `--no-ledger`.
    var resolvedPath: String? {
        if disabled { return nil }
        if let path { return path }
        if let path = ProcessInfo.processInfo.environment["OFFERKIT_LEDGER"], !path.isEmpty { return path }
        return Self.defaultPath
    }

    /// The parsed locator, or `nil` with `--no-ledger`; a bad one is a usage error (its
    /// password never shown).
    func location() throws -> LedgerLocation? {
        guard let locator = resolvedPath else { return nil }
        do {
            return try LedgerLocation(parsing: locator)
        } catch let error as LedgerLocationError {
            throw CLIError.usage("--ledger (or OFFERKIT_LEDGER): \(error.localizedDescription)")
        }
    }

    /// Opens the ledger (creating an SQLite file with mode 0600, or a PostgreSQL schema and its
    /// tables), or `nil` with `--no-ledger`.
    func open() throws -> (any OpenLedger)? {
        try location().map(Self.open)
    }

    /// Opens the ledger at `location` (creating an SQLite file with mode 0600, or a PostgreSQL
    /// schema and its tables); warns when an existing ledger file is readable by others.
    static func open(_ location: LedgerLocation) throws -> any OpenLedger {
        switch location {
        case .sqlite(let path):
            warnIfExposed(path)
            return try SQLiteLedger(path: path)
        case .postgres(let location):
            return try PostgresLedger(location)
        }
    }

    /// Opens the ledger if it exists, for commands that only read it (validate, plan): a
    /// missing SQLite file is an empty ledger, and nothing is created. (A PostgreSQL ledger is
    /// opened as by ``open()``: an empty schema is an empty ledger.)
    func openExisting() throws -> (any OpenLedger)? {
        if case .sqlite(let path)? = try location(), !FileManager.default.fileExists(atPath: path) { return nil }
        return try open()
    }

    /// Warns when an existing ledger file can be read by group or others: it holds redeemable codes.
    static func warnIfExposed(_ path: String) {
        Output.warnIfExposed(path, name: "ledger \(path)", reason: " and holds redeemable codes")
    }

    /// Opens the ledger; a command that needs one fails with a usage error under `--no-ledger`.
    /// - Parameter existing: for commands that read what earlier runs recorded: a missing file is
    ///   an empty ledger (`nil`), and is not created.
    func require(for command: String, existing: Bool = false) throws -> (any OpenLedger)? {
        guard resolvedPath != nil else { throw CLIError.usage("codes \(command) needs a ledger: drop --no-ledger") }
        return existing ? try openExisting() : try open()
    }
}
