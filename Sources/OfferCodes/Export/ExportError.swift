import Foundation

/// Why an export of issued codes could not be made.
public enum ExportError: Error, LocalizedError, Equatable {
    /// The messages format names a language OfferKit has no messages for.
    case unsupportedLanguage(String)
    /// A recipient (1-based position in the list) names a language OfferKit has no messages for.
    case unsupportedRecipientLanguage(recipient: Int, language: String)
    /// A recipient (1-based position in the list) has an empty or blank name.
    case blankRecipientName(recipient: Int)
    /// A line of a recipients CSV file (1-based line number) cannot be read: `reason` says why.
    case malformedRecipientLine(line: Int, reason: String)
    /// A recipients file lists the same recipient id twice (1-based line numbers).
    case duplicateRecipient(id: String, firstLine: Int, line: Int)
    /// Recipients were given as an empty list.
    case noRecipients
    /// The template directory does not exist or is not a directory.
    case templateDirectoryNotFound(path: String)
    /// A template file exists but cannot be read as UTF-8 text.
    case unreadableTemplate(file: String, reason: String)
    /// A template is not valid Mustache; `message` is Mustache's error with an explanation.
    case malformedTemplate(file: String, line: Int, column: Int, message: String)
    /// OfferKit has no built-in template of that name (the embedded templates are incomplete).
    case missingBuiltInTemplate(file: String)

    public var errorDescription: String? {
        switch self {
        case .unsupportedLanguage(let language):
            "Message language \"\(language)\" is not supported: expected one of \(Self.languageList)."
        case .unsupportedRecipientLanguage(let recipient, let language):
            "Recipient \(recipient) asks for language \"\(language)\", which is not supported: expected one of "
                + "\(Self.languageList), or no language to use the export's language."
        case .blankRecipientName(let recipient):
            "Recipient \(recipient) has an empty name: every recipient needs a name for the greeting."
        case .malformedRecipientLine(let line, let reason):
            "Recipients line \(line) \(reason)."
        case .duplicateRecipient(let id, let firstLine, let line):
            "Recipients line \(line) lists recipient \"\(id)\" again, like line \(firstLine): each recipient gets one "
                + "code, so list each recipient id once (give people who share a name ids of their own)."
        case .noRecipients:
            "The recipient list is empty: give at least one recipient, or none to export the codes themselves."
        case .templateDirectoryNotFound(let path):
            "Template directory \(path) does not exist or is not a directory."
        case .unreadableTemplate(let file, let reason):
            "Template \(file) cannot be read as UTF-8 text: \(reason)."
        case .malformedTemplate(let file, let line, let column, let message):
            "Template \(file) is not valid Mustache at line \(line), column \(column): \(message)."
        case .missingBuiltInTemplate(let file):
            "OfferKit has no built-in template \(file): run templates/embed-templates and rebuild."
        }
    }

    private static var languageList: String { CodeExporter.languages.joined(separator: ", ") }
}
