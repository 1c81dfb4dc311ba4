import Foundation
import Mustache
import OfferCodes
import OfferJSON
import OfferServiceContract
import OfferSigning

/// Where the code snippets' Mustache templates come from, and how one is rendered.
///
/// A snippet is `<language>/<operation>.mustache`, such as `python/promotional-offer.mustache`.
/// Files whose names start with `_` are partials that the language's snippets share
/// (`{{> _client}}`). Templates render plain text (Mustache's `TEXT` content type). The values
/// they can use are listed in `templates/snippets/README.md`; text values also come as string
/// literals under `json.`, `python.`, `swift.` and `shell.`, so a template never escapes by hand.
public enum SnippetTemplates: Sendable, Equatable {
    /// The templates that ship with OfferKit (the files in `templates/snippets`, embedded).
    case builtIn
    /// A folder of your own with the same layout. Its languages and files come first; any file it
    /// lacks falls back to the built-in one, so a folder may hold a single changed template.
    case directory(URL)

    /// One language and the operations it has snippets for.
    public struct Entry: Hashable, Sendable {
        public var language: SnippetLanguage
        public var operations: [SnippetOperation]
    }

    /// Every language with its operations: the built-in languages in their order, then the
    /// folder's own languages by name.
    public func catalog() throws -> [Entry] {
        Self.catalog(of: try files())
    }

    private static func catalog(of files: Set<String>) -> [Entry] {
        var byLanguage: [String: Set<SnippetOperation>] = [:]
        for file in files {
            let parts = file.split(separator: "/", maxSplits: 1).map(String.init)
            guard parts.count == 2, parts[1].hasSuffix(".mustache") else { continue }
            if let operation = SnippetOperation(rawValue: String(parts[1].dropLast(".mustache".count))) {
                byLanguage[parts[0], default: []].insert(operation)
            }
        }
        let builtInOrder = SnippetLanguage.builtIn.map(\.id)
        let order =
            builtInOrder.filter { byLanguage[$0] != nil }
            + byLanguage.keys.filter { !builtInOrder.contains($0) }.sorted()
        return order.map { id in
            Entry(
                language: SnippetLanguage.named(id),
                operations: SnippetOperation.allCases.filter { byLanguage[id]?.contains($0) == true })
        }
    }

    /// Renders the `operation` snippet in `language` with `inputs` filled in.
    ///
    /// `operation` is a ``SnippetOperation`` name (`promotional-offer`, …, `batch`) and `language` a
    /// language's id, both in any case; deprecated spellings are the caller's to resolve
    /// (`SigningOperation.named(_:)`).
    ///
    /// Each rendering gets a fresh Advanced Commerce `requestReferenceId` (a version 4 UUID).
    /// - Throws: ``SnippetError``: an unknown language or operation (naming the ones there are),
    ///   an input that cannot go into code, or a template that cannot be read or parsed.
    public func render(language: String, operation: String, inputs: SnippetInputs) throws -> String {
        let files = try files()
        let catalog = Self.catalog(of: files)
        // Names are read in any case (EnumeratedSpelling): `Python` is `python`.
        guard
            let entry = catalog.first(where: { EnumeratedSpelling.equalIgnoringCase($0.language.id, language) })
        else {
            throw SnippetError.unknownLanguage(language, known: catalog.map(\.language.id))
        }
        let language = entry.language.id
        guard let chosen = SnippetOperation(anyCase: operation), entry.operations.contains(chosen) else {
            throw SnippetError.unknownOperation(
                operation, language: language, known: entry.operations.map(\.rawValue))
        }
        let context = try SnippetContext(operation: chosen, language: entry.language, inputs: inputs)
        var partials: [String: MustacheTemplate] = [:]
        var references: [(file: String, name: String)] = []
        let prefix = language + "/_"
        for file in files where file.hasPrefix(prefix) {
            guard file.hasSuffix(".mustache") else { continue }
            let name = String(file.dropFirst(language.count + 1).dropLast(".mustache".count))
            let (template, named) = try compile(file)
            partials[name] = template
            references += named
        }
        let (template, named) = try compile(language + "/" + chosen.snippetFileName)
        // Mustache renders a missing partial as nothing; a snippet missing its client is a bug.
        for reference in references + named where partials[reference.name] == nil {
            throw SnippetError.missingPartial(
                file: reference.file, name: reference.name, known: partials.keys.sorted())
        }
        return Self.blankingWhitespaceLines(
            template.render(context.values, library: MustacheLibrary(templates: partials)))
    }

    /// `text` with lines of only spaces and tabs made empty: an indented partial indents its
    /// empty lines too, and code should not carry trailing blanks.
    static func blankingWhitespaceLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.allSatisfy { $0 == " " || $0 == "\t" } ? "" : String(line) }
            .joined(separator: "\n")
    }

    /// The text of the built-in template `path` (`language/file name`), for example to copy it
    /// into a folder of your own and change it.
    public static func builtInText(_ path: String) -> String? {
        BuiltInSnippets.files[path]
    }

    /// The `language/file` paths of every template: the built-in ones and the folder's
    /// `.mustache` files.
    private func files() throws -> Set<String> {
        Set(BuiltInSnippets.files.keys).union(try directoryFiles())
    }

    /// The `language/file` paths of the folder's `.mustache` files (none for the built-ins).
    private func directoryFiles() throws -> [String] {
        guard case .directory(let url) = self else { return [] }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { throw SnippetError.templateDirectoryNotFound(path: url.path) }
        let manager = FileManager.default
        let languages = (try? manager.contentsOfDirectory(atPath: url.path)) ?? []
        return languages.flatMap { language -> [String] in
            let folder = url.appendingPathComponent(language)
            let files = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            return files.filter { $0.hasSuffix(".mustache") }.map { language + "/" + $0 }
        }
    }

    /// Compiles `path` (from the folder, else the built-ins), and names the partials it uses (`{{> name}}`, in the default delimiters).
    private func compile(_ path: String) throws -> (MustacheTemplate, [(file: String, name: String)]) {
        let (text, file) = try source(of: path)
        let names = text.matches(of: /\{\{>\s*([^\s}]+)\s*\}\}/).map { (file: file, name: String($0.1)) }
        do {
            return (try TextTemplate.compile(text), names)
        } catch {
            throw SnippetError.malformedTemplate(
                file: file, line: error.line, column: error.column, message: error.message)
        }
    }

    private func source(of path: String) throws -> (text: String, file: String) {
        if case .directory(let directory) = self {
            let url = directory.appendingPathComponent(path)
            do {
                if let text = try TextTemplate.read(url) { return (text, url.path) }
            } catch {
                throw SnippetError.unreadableTemplate(file: url.path, reason: error.reason)
            }
        }
        guard let text = Self.builtInText(path) else {
            throw SnippetError.unreadableTemplate(file: path, reason: "there is no such built-in template")
        }
        return (text, "built-in \(path)")
    }
}
