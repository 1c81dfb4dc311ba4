import Foundation

/// Where a ledger lives, as `--ledger`, `OFFERKIT_LEDGER` or a configuration names it: the one
/// parser of ledger locators.
///
/// - `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME&sslmode=MODE]` (or
///   `postgresql://`) selects a PostgreSQL server; see ``PostgresLocation``.
/// - `sqlite:PATH`, or any other text, is the path of an SQLite ledger file.
///
/// The password of a URL is never shown: ``description`` and every error name the locator with
/// the password replaced by `***` (see ``redacted(_:)``).
public enum LedgerLocation: Sendable, Equatable, CustomStringConvertible {
    /// An SQLite ledger file.
    case sqlite(path: String)
    /// A PostgreSQL database.
    case postgres(PostgresLocation)

    /// Parses a locator.
    ///
    /// - Throws: ``LedgerLocationError`` for an empty locator, a `sqlite:` without a path, and a
    ///   PostgreSQL URL that lacks a user, host or database or has a bad port, schema or option.
    /// - Parameters:
    ///   - text: the locator.
    ///   - environment: where `PGPASSWORD` is read from (see ``PostgresLocation/init(parsing:environment:)``).
    public init(parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if text.isEmpty { throw LedgerLocationError.empty }
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            self = .postgres(try PostgresLocation(parsing: text, environment: environment))
            return
        }
        if lowered.hasPrefix("sqlite:") {
            var path = String(text.dropFirst("sqlite:".count))
            // `sqlite:///abs/path` and `sqlite://rel` are common spellings of the same thing.
            if path.hasPrefix("//") { path.removeFirst(2) }
            guard !path.isEmpty else { throw LedgerLocationError.missingPath(locator: Self.redacted(text)) }
            self = .sqlite(path: path)
            return
        }
        if let scheme = Self.scheme(of: text) {
            throw LedgerLocationError.unknownScheme(scheme: scheme, locator: Self.redacted(text))
        }
        // `://` in a path is a mistyped URL (found by fuzzing: `xpostgres://u:PASSWORD@…` was taken
        // as a file name and shown with its password), never a ledger file anyone means.
        if let range = text.range(of: "://") {
            throw LedgerLocationError.unknownScheme(
                scheme: Self.redacted(String(text[..<range.lowerBound])), locator: Self.redacted(text))
        }
        self = .sqlite(path: text)
    }

    /// The locator as it may be shown: the path, or the URL with its password replaced by `***`.
    public var description: String {
        switch self {
        case .sqlite(let path): Self.redacted(path)
        case .postgres(let location): location.description
        }
    }

    /// `text` with the password of a URL (`scheme://user:PASSWORD@host…`) replaced by `***`;
    /// other text is returned unchanged. Works on text that is not a valid URL, so that an error
    /// about a malformed locator can still quote it: every `://` starts an authority whose password
    /// is hidden, so a second URL pasted into the first (found by the `ledger-location` fuzz
    /// target) shows no password either.
    public static func redacted(_ text: String) -> String {
        guard text.contains("://") else { return text }
        // Every `//` may start an authority (`user:PASSWORD@host`), wherever it is. The authority
        // is taken up to `?` or `#` only, not `/`: a mistyped password holding a `/` is hidden too
        // (hiding a path's `@…` along with it costs nothing).
        var parts = text.components(separatedBy: "//")
        for index in parts.indices.dropFirst() {
            let part = parts[index]
            let authorityEnd = part.firstIndex { $0 == "?" || $0 == "#" } ?? part.endIndex
            let authority = part[..<authorityEnd]
            guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
                continue
            }
            parts[index] = String(authority[...colon] + "***" + part[at...])
        }
        return parts.joined(separator: "//")
    }

    /// The scheme of a URL-looking locator (`mysql` in `mysql://…`), or `nil` for a path.
    private static func scheme(of text: String) -> String? {
        guard let range = text.range(of: "://") else { return nil }
        let scheme = text[..<range.lowerBound]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return String(scheme)
    }
}
