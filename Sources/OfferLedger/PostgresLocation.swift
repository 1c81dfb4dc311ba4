import Foundation

/// A PostgreSQL database that holds a ledger, parsed from
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME&sslmode=MODE]`.
///
/// User, password and database are percent-decoded. The port defaults to 5432. The ledger's
/// tables live in the schema `schema` (default `offerkit`, created when missing), so one
/// database can hold several ledgers. `sslmode` is `disable`, `prefer` (the default: TLS when
/// the server offers it) or `require` (TLS, with the server's certificate verified). Without a
/// password in the URL, `PGPASSWORD` from the environment is used when set.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// How the connection uses TLS.
    public enum TLSMode: String, Sendable, Equatable {
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

    public init(
        user: String, password: String?, host: String, port: Int = 5432, database: String,
        schema: String = defaultSchema, tls: TLSMode = .prefer
    ) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.schema = schema
        self.tls = tls
    }

    /// Parses a `postgres://` or `postgresql://` URL; see the type's documentation.
    public init(parsing text: String) throws {
        let shown = LedgerLocation.redacted(text)
        guard let components = URLComponents(string: text) else {
            throw LedgerLocationError.invalidURL(locator: shown, problem: "it is not a valid URL")
        }
        guard let user = components.user, !user.isEmpty else {
            throw LedgerLocationError.invalidURL(locator: shown, problem: "it names no user (postgres://USER@HOST/DB)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw LedgerLocationError.invalidURL(locator: shown, problem: "it names no host")
        }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else {
            throw LedgerLocationError.invalidURL(locator: shown, problem: "its port \(port) is not 1 to 65535")
        }
        var database = components.path
        if database.hasPrefix("/") { database.removeFirst() }
        guard !database.isEmpty, !database.contains("/") else {
            throw LedgerLocationError.invalidURL(
                locator: shown, problem: "it names no database (postgres://USER@HOST:PORT/DATABASE)")
        }
        var schema = Self.defaultSchema
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "schema":
                schema = item.value ?? ""
                guard Self.isSchemaName(schema) else {
                    throw LedgerLocationError.invalidURL(
                        locator: shown,
                        problem:
                            "its schema \"\(LedgerLocation.redacted(schema))\" is not 1 to 63 lower-case letters, digits or underscores "
                            + "starting with a letter or underscore")
                }
            case "sslmode":
                guard let mode = TLSMode(rawValue: item.value ?? "") else {
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
        let password = components.password ?? ProcessInfo.processInfo.environment["PGPASSWORD"]
        self.init(
            user: user, password: password, host: host, port: port, database: database, schema: schema, tls: tls)
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
