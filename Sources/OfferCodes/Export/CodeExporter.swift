/// Writes issued codes as CSV, JSON or ready-to-send messages, rendered from Mustache templates.
///
/// An export streams: it renders the header, then each code with a context of its own (holding
/// at most one code back, to tell the last one), then the footer, and hands every piece to `write`
/// as soon as it is rendered. Memory stays flat however many codes there are, so write to a
/// file, not to a `String`, for large exports. See ``ExportTemplates`` for the templates and
/// their keys.
///
/// Messages call an offer by its customer-facing title in the message's language (the offer's
/// `displayName`, see ``OfferDisplayName/messageTitle(for:)``), never by its `referenceName`, and
/// speak of a shared code (redemption limit above 1) as the campaign's code, not the customer's.
///
/// ```swift
/// let exporter = try CodeExporter(templates: .builtIn, format: .csv, campaign: campaign)
/// try exporter.export(
///     to: { try file.write($0) },
///     forEachCode: { body in try ledger.forEachCode(campaign: campaign.name, offer: nil, body) })
/// ```
///
/// An export with recipients renders the codes the ledger hands out to them, one record per
/// recipient (``export(to:forEachAssignment:)``): the ledger decides who gets which code.
public struct CodeExporter: Sendable {
    /// The languages of the built-in messages: English, Japanese, Korean, Simplified Chinese.
    public static let languages: [String] = ["en", "ja", "ko", "zh-Hans"]

    /// The format this exporter writes.
    public let format: ExportFormat
    /// The app the codes belong to (its App Apple ID goes into the redemption links).
    public let app: CampaignApp
    private let templates: ExportTemplateSet
    private let language: String
    /// The offers' display names, by reference name.
    private let displayNames: [String: OfferDisplayName]
    /// The title each offer shows, by reference name, then by language of ``languages``.
    private let titles: [String: [String: String]]

    /// Loads and compiles the templates of `format`, for the codes of `campaign`: messages show
    /// each offer's `displayName` (see ``OfferDisplayName/messageTitle(for:)``).
    ///
    /// - Throws: ``ExportError`` when the language is not one of ``languages`` (it compares
    ///   case-insensitively, `_` standing for `-`), or a template is missing, unreadable or malformed.
    public init(templates: ExportTemplates = .builtIn, format: ExportFormat, campaign: Campaign) throws {
        try self.init(
            templates: templates, format: format, app: campaign.app,
            displayNames: Dictionary(
                campaign.offers.map { ($0.referenceName, $0.displayName) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Loads and compiles the templates of `format`, for codes of `app`'s offers.
    ///
    /// - Parameters:
    ///   - templates: where the templates come from: the built-in ones or a folder.
    ///   - format: the export format, and for messages their language.
    ///   - app: the app the codes are for, as the campaign names it.
    ///   - displayNames: each offer's customer-facing titles, by the offer's reference
    ///     name (``IssuedCode/offer``); the messages of an offer without one name no offer.
    /// - Throws: ``ExportError`` when the language is not one of ``languages`` (it compares
    ///   case-insensitively, `_` standing for `-`), or a template is missing, unreadable or malformed.
    public init(
        templates: ExportTemplates = .builtIn, format: ExportFormat, app: CampaignApp,
        displayNames: [String: OfferDisplayName] = [:]
    ) throws {
        self.displayNames = displayNames
        titles = displayNames.mapValues { name in
            var titles: [String: String] = [:]
            for language in Self.languages {
                titles[language] = name.messageTitle(for: language)
            }
            return titles
        }
        var format = format
        if case .messages(let requested) = format {
            guard let language = Self.supportedLanguage(requested) else {
                throw ExportError.unsupportedLanguage(requested)
            }
            format = .messages(language: language)
            self.language = language
        } else {
            self.language = ""
        }
        self.format = format
        self.app = app
        self.templates = try templates.compile(for: format)
    }

    /// Exports `codes` (see ``export(to:forEachCode:)``).
    public func export(codes: some Sequence<IssuedCode>, to write: (String) throws -> Void) throws {
        try export(to: write) { body in
            for code in codes {
                try body(code)
            }
        }
    }

    /// Exports the codes that `forEachCode` passes to its argument, in that order; it fits
    /// `CodeLedger.forEachCode(campaign:offer:_:)` of `OfferLedger`.
    ///
    /// - Parameters:
    ///   - write: receives the export piece by piece (a header, a record, …), each with its line end.
    ///   - forEachCode: calls its argument once per code.
    /// - Throws: errors that `write` or `forEachCode` throw. After an error, the output written so
    ///   far is incomplete.
    public func export(
        to write: (String) throws -> Void, forEachCode: (_ body: (IssuedCode) throws -> Void) throws -> Void
    ) throws {
        try stream(hasRecipients: false, to: write) { row in
            // `row` runs while `forEachCode` runs and is not kept.
            try withoutActuallyEscaping(row) { row in
                try forEachCode { code in try row(code, nil) }
            }
        }
    }

    /// Exports one record per assignment that `forEachAssignment` passes to its argument, in that
    /// order: the code a recipient holds, with the recipient's id and when it was assigned, and
    /// in messages their name and language when the recipient is given (`nil`: a message without
    /// a name, in the export's language). It fits the assignments a ledger reads back
    /// (`CodeLedger.lookUpAssignments(recipients:scope:_:)` and
    /// `forEachAssignment(campaign:offer:_:)` of `OfferLedger`); the exporter never chooses codes.
    ///
    /// - Parameters:
    ///   - write: receives the export piece by piece (a header, a record, …), each with its line end.
    ///   - forEachAssignment: calls its argument once per assignment, with the recipient it is for.
    /// - Throws: ``ExportError/blankRecipientName(recipient:)`` and
    ///   ``ExportError/unsupportedRecipientLanguage(recipient:language:)`` (the record's position),
    ///   and errors that `write` or `forEachAssignment` throw. Check the recipients with
    ///   ``checked(_:)`` before handing out codes. After an error, the output written so far is
    ///   incomplete.
    public func export(
        to write: (String) throws -> Void,
        forEachAssignment: (_ body: (CodeAssignment, ExportRecipient?) throws -> Void) throws -> Void
    ) throws {
        try stream(hasRecipients: true, to: write) { row in
            // `row` runs while `forEachAssignment` runs and is not kept.
            try withoutActuallyEscaping(row) { row in
                try forEachAssignment { assignment, recipient in
                    try row(assignment.code, (assignment, recipient))
                }
            }
        }
    }

    /// The recipients with their languages resolved (`zh_hans` becomes `zh-Hans`), or the first
    /// problem: an empty list, a blank name, an unsupported language.
    public func checked(_ recipients: [ExportRecipient]) throws -> [ExportRecipient] {
        guard !recipients.isEmpty else { throw ExportError.noRecipients }
        return try recipients.enumerated().map { index, recipient in
            var resolved = recipient
            resolved.language = try resolvedLanguage(of: recipient, number: index + 1)
            return resolved
        }
    }

    /// Writes the header, each row (holding one back, to tell the last), and the footer. The
    /// header waits for the first row (or the end), so nothing is written when `rows` fails first.
    private func stream(
        hasRecipients: Bool, to write: (String) throws -> Void,
        rows: (_ row: (IssuedCode, (CodeAssignment, ExportRecipient?)?) throws -> Void) throws -> Void
    ) throws {
        var records = self.records(hasRecipients: hasRecipients)
        // The body runs while `rows` runs and is not kept: `write` does not escape.
        try withoutActuallyEscaping(write) { write in
            try rows { code, assignment in try records.add(code, assignment, to: write) }
        }
        try records.finish(to: write)
    }

    /// An export written a record at a time, for records that come from somewhere the exporter
    /// cannot call into (an async ledger): ``Records/add(_:to:)`` (or
    /// ``Records/add(_:recipient:to:)``) each record, then ``Records/finish(to:)``.
    public func records(hasRecipients: Bool) -> Records { Records(exporter: self, hasRecipients: hasRecipients) }

    /// The records of one export (see ``records(hasRecipients:)``): the header waits for the first
    /// record (or the end), and one record is held back, to tell the last.
    public struct Records {
        let exporter: CodeExporter
        let hasRecipients: Bool
        private var pending: (code: IssuedCode, assignment: (CodeAssignment, ExportRecipient?)?)?
        private var number = 0

        init(exporter: CodeExporter, hasRecipients: Bool) {
            self.exporter = exporter
            self.hasRecipients = hasRecipients
        }

        /// Adds a code (an export without recipients).
        public mutating func add(_ code: IssuedCode, to write: (String) throws -> Void) throws {
            try add(code, nil, to: write)
        }

        /// Adds an assignment, with the recipient it is for (see ``CodeExporter/export(to:forEachAssignment:)``).
        public mutating func add(
            _ assignment: CodeAssignment, recipient: ExportRecipient?, to write: (String) throws -> Void
        ) throws {
            try add(assignment.code, (assignment, recipient), to: write)
        }

        mutating func add(
            _ code: IssuedCode, _ assignment: (CodeAssignment, ExportRecipient?)?, to write: (String) throws -> Void
        ) throws {
            if let previous = pending {
                if number == 0 { try exporter.writeFrame("header", hasRecipients: hasRecipients, to: write) }
                number += 1
                try exporter.writeRow(
                    previous.code, number: number, last: false, assignment: previous.assignment, to: write)
            }
            pending = (code, assignment)
        }

        /// Writes the last record and the footer.
        public func finish(to write: (String) throws -> Void) throws {
            if number == 0 { try exporter.writeFrame("header", hasRecipients: hasRecipients, to: write) }
            if let pending {
                try exporter.writeRow(
                    pending.code, number: number + 1, last: true, assignment: pending.assignment, to: write)
            }
            try exporter.writeFrame("footer", hasRecipients: hasRecipients, to: write)
        }
    }

    /// The languages of this export's messages for which `offer` (a reference name) has no
    /// `displayName` entry of its own: the export's language, then each recipient's, each once.
    /// Their messages show the offer's English (`en`) title, or no title. Empty for CSV and JSON.
    public func languagesWithoutTitle(offer: String, recipients: [ExportRecipient]? = nil) -> [String] {
        guard case .messages = format else { return [] }
        var wanted = [language]
        for recipient in recipients ?? [] {
            if let resolved = recipient.language.flatMap(Self.supportedLanguage), !wanted.contains(resolved) {
                wanted.append(resolved)
            }
        }
        let name = displayNames[offer] ?? OfferDisplayName()
        return wanted.filter { name.title(for: $0) == nil }
    }

    /// The supported language that `tag` names, or `nil`.
    static func supportedLanguage(_ tag: String) -> String? {
        let wanted = OfferDisplayName.comparisonKey(tag)
        return languages.first { $0.lowercased() == wanted }
    }

    /// The supported language of a recipient (`nil`: the export's), or why it has none.
    private func resolvedLanguage(of recipient: ExportRecipient, number: Int) throws -> String? {
        if let name = recipient.name, !name.contains(where: { !$0.isWhitespace }) {
            throw ExportError.blankRecipientName(recipient: number)
        }
        guard let requested = recipient.language else { return nil }
        guard let resolved = Self.supportedLanguage(requested) else {
            throw ExportError.unsupportedRecipientLanguage(recipient: number, language: requested)
        }
        return resolved
    }

    fileprivate func writeFrame(_ part: String, hasRecipients: Bool, to write: (String) throws -> Void) throws {
        let name = "\(format.name)-\(part)"
        guard ExportTemplates.fileNames(for: format).contains(name + ".mustache") else { return }
        try templates.write(
            name, ExportContext.frame(app: app, format: format, hasRecipients: hasRecipients), to: write)
    }

    fileprivate func writeRow(
        _ code: IssuedCode, number: Int, last: Bool, assignment: (CodeAssignment, ExportRecipient?)?,
        to write: (String) throws -> Void
    ) throws {
        let recipient = assignment?.1
        let messageLanguage =
            try recipient.flatMap { try resolvedLanguage(of: $0, number: number) }
            ?? (language.isEmpty ? "en" : language)
        var context = ExportContext.code(
            code, title: titles[code.offer]?[messageLanguage], app: app, number: number, last: last,
            hasRecipients: assignment != nil)
        if let (assignment, recipient) = assignment {
            ExportContext.addAssignment(assignment, name: recipient?.name, to: &context)
        }
        switch format {
        case .csv:
            context["csv"] = ExportContext.csvFields(context)
            try templates.write("csv-row", context, to: write)
        case .json:
            var values = ExportContext.jsonValues(code, url: context["url"] as? String ?? "")
            if let assignment = assignment?.0 {
                values.merge(ExportContext.jsonValues(assignment)) { _, new in new }
            }
            context["json"] = values
            try templates.write("json-row", context, to: write)
        case .messages:
            let language = messageLanguage
            context["language"] = language
            let message = templates.render("message.\(language)", context)
            context["message"] = message
            var fields = ExportContext.csvFields(context)
            fields["language"] = CSVField.encode(language)
            fields["message"] = CSVField.encode(message)
            if assignment != nil {
                fields["name"] = CSVField.encode(recipient?.name ?? "")
            }
            context["csv"] = fields
            try templates.write("messages-row", context, to: write)
        }
    }
}
