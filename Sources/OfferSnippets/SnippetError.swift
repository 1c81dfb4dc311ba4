import Foundation

/// Why a snippet cannot be listed or rendered.
public enum SnippetError: Error, Equatable, Sendable, LocalizedError {
    /// No template folder has this language.
    case unknownLanguage(String, known: [String])
    /// The language has no template for this operation.
    case unknownOperation(String, language: String, known: [String])
    /// An input cannot go into a snippet; `expected` says what would.
    case invalidInput(field: String, expected: String)
    case templateDirectoryNotFound(path: String)
    case unreadableTemplate(file: String, reason: String)
    case malformedTemplate(file: String, line: Int, column: Int, message: String)
    /// A template uses a partial (`{{> name}}`) that the language's folder does not have.
    case missingPartial(file: String, name: String, known: [String])

    public var errorDescription: String? {
        switch self {
        case .unknownLanguage(let language, let known):
            "no snippets for the language \(quoted(language)); expected one of: \(known.joined(separator: ", "))"
        case .unknownOperation(let operation, let language, let known):
            "no \(language) snippet for the operation \(quoted(operation)); expected one of: "
                + known.joined(separator: ", ")
        case .invalidInput(let field, let expected):
            "\(field) is invalid: expected \(expected)"
        case .templateDirectoryNotFound(let path):
            "the template folder \(path) does not exist or is not a folder"
        case .unreadableTemplate(let file, let reason):
            "cannot read the template \(file): \(reason)"
        case .malformedTemplate(let file, let line, let column, let message):
            "the template \(file) does not parse at line \(line), column \(column): \(message)"
        case .missingPartial(let file, let name, let known):
            "the template \(file) uses the partial \(quoted(name)), which its language does not have; expected "
                + (known.isEmpty ? "none (add a file named _name.mustache beside it)" : known.joined(separator: ", "))
        }
    }

    /// A name as typed, quoted, and cut short so a message stays readable.
    private func quoted(_ text: String) -> String {
        let shown = text.count > 64 ? String(text.prefix(64)) + "…" : text
        return "\"" + shown.unicodeScalars.map { $0.value < 0x20 ? "?" : String($0) }.joined() + "\""
    }
}
