import ArgumentParser
import Foundation
import OfferCodes
import OfferLedger
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

    static func load(path: String, ledger: CodeLedger?, today: CalendarDate) async throws -> Campaign {
        try await CampaignValidator(today: today).validate(json: readBytes(path), against: ledger).validCampaign()
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

    /// Opens the ledger at `location` (creating an SQLite file with mode 0600, or a PostgreSQL
    /// schema and its tables, unless `access` is read-only) and runs `body` with it; a PostgreSQL
    /// ledger's connections run until `body` returns. Warns when an existing ledger file is
    /// readable by others.
    static func withLedger<T>(
        _ location: LedgerLocation, access: LedgerAccess = .readWrite, _ body: (CodeLedger) async throws -> T
    ) async throws -> T {
        switch location {
        case .sqlite(let path):
            warnIfExposed(path)
            return try await body(try await CodeLedger.sqlite(path: path, access: access))
        case .postgres(let location):
            return try await CodeLedger.withPostgres(location, access: access, body)
        }
    }

    /// Runs `body` with the ledger (see ``withLedger(_:access:_:)``), or with `nil` under
    /// `--no-ledger`; with `existing`, for commands that only read what earlier runs recorded
    /// (validate, plan, status, export), a missing SQLite file is an empty ledger (`nil`), and
    /// nothing is created. (A PostgreSQL ledger is opened as it is: an empty schema is an empty
    /// ledger.)
    func withLedger<T>(existing: Bool = false, _ body: (CodeLedger?) async throws -> T) async throws -> T {
        guard let location = try location() else { return try await body(nil) }
        if existing, case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            return try await body(nil)
        }
        return try await Self.withLedger(location) { try await body($0) }
    }

    /// Warns when an existing ledger file can be read by group or others: it holds redeemable codes.
    static func warnIfExposed(_ path: String) {
        Output.warnIfExposed(path, name: "ledger \(path)", reason: " and holds redeemable codes")
    }

    /// Runs `body` with the ledger; a command that needs one fails with a usage error under
    /// `--no-ledger`.
    /// - Parameter existing: for commands that read what earlier runs recorded: a missing file is
    ///   an empty ledger (`nil`), and is not created.
    func require<T>(for command: String, existing: Bool = false, _ body: (CodeLedger?) async throws -> T)
        async throws -> T
    {
        guard resolvedPath != nil else { throw CLIError.usage("codes \(command) needs a ledger: drop --no-ledger") }
        return try await withLedger(existing: existing, body)
    }
}
