import Foundation
import Mustache

/// Where the Mustache templates of an export come from.
///
/// Each export renders small templates one at a time, never one template over all codes:
///
/// | format | templates |
/// |---|---|
/// | CSV | `csv-header.mustache`, `csv-row.mustache` (once per code) |
/// | JSON | `json-header.mustache`, `json-row.mustache` (once per code), `json-footer.mustache` |
/// | messages | `messages-header.mustache`, `messages-row.mustache` (once per code), and the message itself, `message.<language>.mustache` (`message.en.mustache`, `message.ja.mustache`, …) |
///
/// Templates are plain text: OfferKit starts each one in Mustache's `TEXT` content type, so
/// `{{name}}` and `{{{name}}}` both insert values unchanged (a template may still switch to HTML
/// escaping with `{{%CONTENT_TYPE:HTML}}`). Values that need CSV quoting or JSON encoding come
/// ready-made under `csv.` and `json.` (for example `{{{csv.offer}}}`, `{{{json.offer}}}`); the
/// keys are listed in `templates/codes/README.md`. Trailing line breaks of a rendering are dropped
/// and the exporter ends each header, record and footer with the format's line end (CRLF for CSV
/// and messages, LF for JSON); a rendering that comes out empty is left out.
public enum ExportTemplates: Sendable, Equatable {
    /// The templates that ship with OfferKit (the files in `templates/codes`, embedded).
    case builtIn
    /// Templates from a folder that uses the same file names; any file the folder lacks falls back
    /// to the built-in template of that name.
    case directory(URL)

    /// The file names of every template an export may use.
    public static let fileNames: [String] =
        [ExportFormat.csv, .json].flatMap(fileNames(for:)) + fileNames(for: .messages(language: ""))

    /// The file names of the templates that `format` renders (for messages: all languages).
    public static func fileNames(for format: ExportFormat) -> [String] {
        switch format {
        case .csv: ["csv-header.mustache", "csv-row.mustache"]
        case .json: ["json-header.mustache", "json-row.mustache", "json-footer.mustache"]
        case .messages:
            ["messages-header.mustache", "messages-row.mustache"]
                + CodeExporter.languages.map { "message.\($0).mustache" }
        }
    }

    /// The text of the built-in template `name` (a file name such as `csv-row.mustache`), for
    /// example to copy it into a folder and adapt it.
    public static func builtInText(named name: String) -> String? {
        BuiltInTemplates.files[name]
    }

    /// Loads and compiles the templates that `format` renders.
    func compile(for format: ExportFormat) throws -> ExportTemplateSet {
        if case .directory(let url) = self {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
            else { throw ExportError.templateDirectoryNotFound(path: url.path) }
        }
        var templates: [String: MustacheTemplate] = [:]
        for fileName in Self.fileNames(for: format) {
            let (text, file) = try source(of: fileName)
            templates[ExportTemplateSet.templateName(fileName)] = try Self.compile(text, file: file)
        }
        return ExportTemplateSet(format: format, templates: templates)
    }

    /// The text of template `fileName` and how errors name it.
    private func source(of fileName: String) throws -> (text: String, file: String) {
        if case .directory(let directory) = self {
            let url = directory.appendingPathComponent(fileName)
            do {
                if let text = try TextTemplate.read(url) { return (text, url.path) }
            } catch {
                throw ExportError.unreadableTemplate(file: url.path, reason: error.reason)
            }
        }
        guard let text = Self.builtInText(named: fileName) else {
            throw ExportError.missingBuiltInTemplate(file: fileName)
        }
        return (text, "built-in \(fileName)")
    }

    /// Compiles a template in the `TEXT` content type, reporting Mustache's error for the text as written.
    private static func compile(_ text: String, file: String) throws -> MustacheTemplate {
        do {
            return try TextTemplate.compile(text)
        } catch {
            throw ExportError.malformedTemplate(
                file: file, line: error.line, column: error.column, message: error.message)
        }
    }
}
