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
    /// Recipients were given as an empty list.
    case noRecipients
    /// Recipients were given for a format other than messages.
    case recipientsNeedMessagesFormat
    /// There are fewer codes than recipients.
    case moreRecipientsThanCodes(recipients: Int, codes: Int)
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
        case .noRecipients:
            "The recipient list is empty: give at least one recipient, or no list to write one message per code."
        case .recipientsNeedMessagesFormat:
            "Recipients only apply to the messages format: choose messages, or leave the recipients out."
        case .moreRecipientsThanCodes(let recipients, let codes):
            "There are \(recipients) recipients but only \(codes) codes: each recipient needs a code of its own, "
                + "so issue more codes or shorten the recipient list."
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
