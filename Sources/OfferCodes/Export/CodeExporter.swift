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
    /// - Parameter displayNames: each offer's customer-facing titles, by the offer's reference
    ///   name (``IssuedCode/offer``); the messages of an offer without one name no offer.
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

    /// Exports `codes` (see ``export(recipients:to:forEachCode:)``).
    public func export(
        codes: some Sequence<IssuedCode>, recipients: [ExportRecipient]? = nil, to write: (String) throws -> Void
    ) throws {
        try export(recipients: recipients, to: write) { body in
            for code in codes {
                try body(code)
            }
        }
    }

    /// Exports the codes that `forEachCode` passes to its argument, in that order; it fits
    /// ``CodeLedger/forEachCode(campaign:offer:_:)``.
    ///
    /// - Parameters:
    ///   - recipients: messages format only: one code each, in order, greeting each by name and
    ///     in their own language when they have one. Codes after the last recipient are left out.
    ///     Nothing is written until every recipient has a code.
    ///   - write: receives the export piece by piece (a header, a record, …), each with its line end.
    ///   - forEachCode: calls its argument once per code.
    /// - Throws: ``ExportError`` for bad recipients (before anything is written) and errors that
    ///   `write` or `forEachCode` throw. After an error, the output written so far is incomplete.
    public func export(
        recipients: [ExportRecipient]? = nil, to write: (String) throws -> Void,
        forEachCode: (_ body: (IssuedCode) throws -> Void) throws -> Void
    ) throws {
        guard let recipients else {
            try writeFrame("header", hasRecipients: false, to: write)
            var pending: IssuedCode?
            var number = 0
            // The body runs while `forEachCode` runs and is not kept: `write` does not escape.
            try withoutActuallyEscaping(write) { write in
                try forEachCode { code in
                    if let previous = pending {
                        number += 1
                        try writeRow(previous, number: number, last: false, recipient: nil, to: write)
                    }
                    pending = code
                }
            }
            if let pending {
                try writeRow(pending, number: number + 1, last: true, recipient: nil, to: write)
            }
            try writeFrame("footer", hasRecipients: false, to: write)
            return
        }
        let checked = try check(recipients)
        var codes: [IssuedCode] = []
        codes.reserveCapacity(checked.count)
        try forEachCode { code in
            if codes.count < checked.count {
                codes.append(code)
            }
        }
        guard codes.count == checked.count else {
            throw ExportError.moreRecipientsThanCodes(recipients: checked.count, codes: codes.count)
        }
        try writeFrame("header", hasRecipients: true, to: write)
        for (index, code) in codes.enumerated() {
            try writeRow(
                code, number: index + 1, last: index == codes.count - 1, recipient: checked[index], to: write)
        }
        try writeFrame("footer", hasRecipients: true, to: write)
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

    /// The recipients with their languages resolved, or the first problem.
    private func check(_ recipients: [ExportRecipient]) throws -> [ExportRecipient] {
        guard case .messages = format else { throw ExportError.recipientsNeedMessagesFormat }
        guard !recipients.isEmpty else { throw ExportError.noRecipients }
        return try recipients.enumerated().map { index, recipient in
            guard recipient.name.contains(where: { !$0.isWhitespace }) else {
                throw ExportError.blankRecipientName(recipient: index + 1)
            }
            guard let requested = recipient.language else {
                return ExportRecipient(name: recipient.name, language: language)
            }
            guard let resolved = Self.supportedLanguage(requested) else {
                throw ExportError.unsupportedRecipientLanguage(recipient: index + 1, language: requested)
            }
            return ExportRecipient(name: recipient.name, language: resolved)
        }
    }

    private func writeFrame(_ part: String, hasRecipients: Bool, to write: (String) throws -> Void) throws {
        let name = "\(format.name)-\(part)"
        guard ExportTemplates.fileNames(for: format).contains(name + ".mustache") else { return }
        try templates.write(
            name, ExportContext.frame(app: app, format: format, hasRecipients: hasRecipients), to: write)
    }

    private func writeRow(
        _ code: IssuedCode, number: Int, last: Bool, recipient: ExportRecipient?, to write: (String) throws -> Void
    ) throws {
        let messageLanguage = recipient?.language ?? (language.isEmpty ? "en" : language)
        var context = ExportContext.code(
            code, title: titles[code.offer]?[messageLanguage], app: app, number: number, last: last,
            hasRecipients: recipient != nil)
        switch format {
        case .csv:
            context["csv"] = ExportContext.csvFields(context)
            try templates.write("csv-row", context, to: write)
        case .json:
            context["json"] = ExportContext.jsonValues(code, url: context["url"] as? String ?? "")
            try templates.write("json-row", context, to: write)
        case .messages:
            let language = messageLanguage
            context["language"] = language
            if let recipient {
                context["name"] = recipient.name
                context["hasRecipient"] = true
            }
            let message = templates.render("message.\(language)", context)
            context["message"] = message
            var fields = ExportContext.csvFields(context)
            fields["language"] = CSVField.encode(language)
            fields["message"] = CSVField.encode(message)
            if let recipient {
                fields["name"] = CSVField.encode(recipient.name)
            }
            context["csv"] = fields
            try templates.write("messages-row", context, to: write)
        }
    }
}
