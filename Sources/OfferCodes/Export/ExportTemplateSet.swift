import Mustache

/// The compiled templates of one export format, rendered one small context at a time.
struct ExportTemplateSet: Sendable {
    let format: ExportFormat
    private let library: MustacheLibrary

    /// - Parameter templates: compiled templates keyed by name (file name without `.mustache`).
    init(format: ExportFormat, templates: [String: MustacheTemplate]) {
        self.format = format
        self.library = MustacheLibrary(templates: templates)
    }

    /// The template name for a file name: `csv-row.mustache` is `csv-row`.
    static func templateName(_ fileName: String) -> String {
        fileName.hasSuffix(".mustache") ? String(fileName.dropLast(".mustache".count)) : fileName
    }

    /// `name` rendered with `context`, without trailing line breaks.
    func render(_ name: String, _ context: [String: Any]) -> String {
        // Every name comes from `ExportTemplates.fileNames(for:)`, all compiled in `compile(for:)`.
        var text = library.render(context, withTemplate: name) ?? ""
        while let last = text.last, last == "\n" || last == "\r" || last == "\r\n" {
            text.removeLast()
        }
        return text
    }

    /// `name` rendered with `context` and written with the format's line end, unless it is empty.
    func write(_ name: String, _ context: [String: Any], to write: (String) throws -> Void) throws {
        let text = render(name, context)
        if !text.isEmpty {
            try write(text + format.lineEnd)
        }
    }
}
