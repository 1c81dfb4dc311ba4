import Foundation
import Mustache
import OfferJSON

/// Compiles Mustache templates that render plain text: exports here, the service's code snippets
/// in `OfferService`.
///
/// Each template starts in Mustache's `TEXT` content type, so `{{name}}` and `{{{name}}}` both
/// insert values unchanged. A syntax error is reported for the text as written (its line and
/// column do not count the pragma OfferKit adds), in words a person can act on.
package enum TextTemplate {
    /// Where a template does not parse, and why.
    package struct SyntaxError: Error, Sendable, Equatable {
        package var line: Int
        package var column: Int
        /// Mustache's error, explained, and the line it is on.
        package var message: String
    }

    /// Why a template file cannot be used.
    package struct ReadError: Error, Sendable, Equatable {
        package var reason: String
    }

    /// The largest template file read: 1 MiB (the built-in templates are a few KiB).
    package static let maximumBytes = 1 << 20

    /// The text of the template file at `url`, which must be UTF-8; `nil` when there is no such file
    /// (a folder of templates may leave some out).
    package static func read(_ url: URL) throws(ReadError) -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: [UInt8]
        do {
            data = try BoundedInput.read(path: url.path, limit: maximumBytes, accepting: .regularFile)
        } catch {
            throw ReadError(reason: error.reason)
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ReadError(reason: "the bytes are not valid UTF-8")
        }
        return text
    }

    /// Compiles `text` in the `TEXT` content type.
    package static func compile(_ text: String) throws(SyntaxError) -> MustacheTemplate {
        do {
            _ = try MustacheTemplate(string: text)
            return try MustacheTemplate(string: "{{%CONTENT_TYPE:TEXT}}\n" + text)
        } catch let error as MustacheTemplate.ParserError {
            throw SyntaxError(
                line: error.context.lineNumber, column: error.context.columnNumber,
                message: describe(error.error, line: error.context.line))
        } catch {
            throw SyntaxError(line: 1, column: 1, message: String(describing: error))
        }
    }

    private static func describe(_ error: any Error, line: String) -> String {
        let name = String(describing: error)
        let explanation = parserErrorExplanations[name].map { " (\($0))" } ?? ""
        return "\(name)\(explanation) in \"\(line)\""
    }

    /// Plain words for `MustacheTemplate.Error` cases, keyed by case name.
    private static let parserErrorExplanations: [String: String] = [
        "sectionCloseNameIncorrect": "a section is closed with a name other than the one it was opened with",
        "unfinishedName": "a tag is not closed, or its name is malformed",
        "expectedSectionEnd": "a section is opened but never closed",
        "invalidSetDelimiter": "a set-delimiter tag is malformed",
        "transformAppliedToInheritanceSection": "a transform is applied to an inheritance block",
        "illegalTokenInsideInheritSection": "a partial's inheritance section holds a tag that is not a block",
        "textInsideInheritSection": "a partial's inheritance section holds text outside blocks",
        "invalidConfigVariableSyntax": "a pragma tag is malformed; expected {{%CONTENT_TYPE:TEXT}}",
        "unrecognisedConfigVariable": "unknown pragma or content type; expected CONTENT_TYPE with TEXT or HTML",
    ]
}
