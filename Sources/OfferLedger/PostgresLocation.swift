import Foundation
import OfferJSON

/// A PostgreSQL database that holds a ledger, parsed from
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME&sslmode=MODE]`.
///
/// User, password and database are percent-decoded. The port defaults to 5432. The ledger's
/// tables live in the schema `schema` (default `offerkit`, created when missing), so one
/// database can hold several ledgers. `sslmode` is `disable`, `prefer` (the default: TLS when
/// the server offers it) or `require` (TLS, with the server's certificate verified). Without a
/// password in the URL, `PGPASSWORD` from the environment is used when set and not empty; without either, the
/// ledger looks the password up in PostgreSQL's password file when it connects (`PGPASSFILE`, else
/// `~/.pgpass`, as libpq does).
///
/// The schema name is written into SQL statements, so every location is checked as the URL parser
/// checks it: the initializers refuse a schema name ``isSchemaName(_:)`` does not accept (and an
/// empty user, host or database, or a port outside 1 to 65535), and the PostgreSQL ledger refuses
/// a location whose members were changed to such values afterwards (see ``check()``).
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// How the connection uses TLS (`sslmode`, read in any case).
    public enum TLSMode: String, Sendable, Equatable, CaseIterable, EnumeratedValue {
        case disable, prefer, require
    }

    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    public var schema: String
    public var tls: TLSMode

    /// The schema that holds the ledger when the URL names none.
    public static let defaultSchema = "offerkit"

    /// A location from its parts, checked as ``init(parsing:environment:)`` checks a URL's.
    /// - Throws: ``LedgerLocationError/invalidURL(locator:problem:)`` for an empty user, host or
    ///   database, a database holding `/`, a port outside 1 to 65535, or a schema name that
    ///   ``isSchemaName(_:)`` refuses.
    public init(
        user: String, password: String?, host: String, port: Int = 5432, database: String,
        schema: String = defaultSchema, tls: TLSMode = .prefer
    ) throws(LedgerLocationError) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.schema = schema
        self.tls = tls
        try check()
    }

    /// Throws unless every member is one the URL parser accepts: the PostgreSQL ledger calls it
    /// before it connects, since the members can be changed after the location was made.
    public func check() throws(LedgerLocationError) {
        let problem: String? =
            if user.isEmpty {
                "it names no user (postgres://USER@HOST/DB)"
            } else if host.isEmpty {
                "it names no host"
            } else if !(1...65_535).contains(port) {
                "its port \(port) is not 1 to 65535"
            } else if database.isEmpty || database.contains("/") {
                "it names no database (postgres://USER@HOST:PORT/DATABASE)"
            } else if !Self.isSchemaName(schema) {
                "its schema \"\(LedgerLocation.redacted(schema))\" is not 1 to 63 lower-case letters, digits or "
                    + "underscores starting with a letter or underscore"
            } else {
                nil
            }
        if let problem { throw .invalidURL(locator: description, problem: problem) }
    }

    /// Parses a `postgres://` or `postgresql://` URL; see the type's documentation.
    /// - Parameters:
    ///   - text: the URL.
    ///   - environment: where `PGPASSWORD` is read from, for a URL without a password.
    public init(
        parsing text: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(LedgerLocationError) {
        let shown = LedgerLocation.redacted(text)
        guard let components = URLComponents(string: text) else {
            throw LedgerLocationError.invalidURL(locator: shown, problem: "it is not a valid URL")
        }
        // User, host, port, database and schema are checked by the initializer.
        var database = components.path
        if database.hasPrefix("/") { database.removeFirst() }
        var schema = Self.defaultSchema
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "schema":
                // Checked with the other members, by the initializer.
                schema = item.value ?? ""
            case "sslmode":
                guard let mode = TLSMode(anyCase: item.value ?? "") else {
                    throw LedgerLocationError.invalidURL(
                        locator: shown,
                        problem:
                            "its sslmode \"\(LedgerLocation.redacted(item.value ?? ""))\" is not one of disable, prefer, require"
                    )
                }
                tls = mode
            default:
                throw LedgerLocationError.invalidURL(
                    locator: shown,
                    problem: "its option \"\(LedgerLocation.redacted(item.name))\" is not one of schema, sslmode")
            }
        }
        // An empty PGPASSWORD is none (libpq then reads the password file too).
        let password =
            components.password ?? environment["PGPASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        do {
            try self.init(
                user: components.user ?? "", password: password, host: components.host ?? "",
                port: components.port ?? 5432, database: database, schema: schema, tls: tls)
        } catch .invalidURL(_, let problem) {
            throw .invalidURL(locator: shown, problem: problem)
        } catch {
            throw error
        }
    }

    /// Whether `name` is a schema name the ledger accepts: it is used unquoted in SQL.
    public static func isSchemaName(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 63,
            first == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
        else { return false }
        return name.utf8.allSatisfy {
            $0 == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
    }

    /// The URL without its password: `postgres://user@host:5432/db?schema=offerkit`.
    public var description: String {
        let hostText = host.contains(":") ? "[\(host)]" : host
        let userText = user.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed) ?? user
        var text = "postgres://\(userText)\(password == nil ? "" : ":***")@\(hostText):\(port)/\(database)"
        text += "?schema=\(schema)"
        if tls != .prefer { text += "&sslmode=\(tls.rawValue)" }
        // The database name is the URL's path as given: a pasted second URL in it shows no password.
        return LedgerLocation.redacted(text)
    }
}
