import Foundation
import OfferJSON

/// PostgreSQL's password file, read as libpq reads it: the file `PGPASSFILE` names, else
/// `~/.pgpass`; lines `hostname:port:database:username:password`, where each of the first four
/// fields is a literal value or `*` (anything), `\` escapes `:` and `\`, and lines starting with
/// `#` are comments. The password of the first line that matches the connection is used. The
/// file is ignored unless it is a regular file that grants no access to group or others (mode
/// 0600 or stricter), as libpq ignores it; ``Lookup/ignored(path:reason:)`` says why, so that a
/// failed login can tell.
///
/// The PostgreSQL ledger consults it only when neither the URL nor `PGPASSWORD` gives a password.
/// The reading is here, apart from the ledger, so that the fuzz target `pgpass` reaches it.
package struct PostgresPasswordFile {
    /// What the password file gave.
    package enum Lookup: Equatable {
        /// The password of the first matching line.
        case found(String)
        /// No file, or no line matches the connection.
        case notFound
        /// The file exists but was not read: `reason` says why (its mode, its kind).
        case ignored(path: String, reason: String)
    }

    /// The largest password file read: 1 MiB.
    package static let maximumBytes = 1 << 20

    /// The path libpq reads: `PGPASSFILE`, else `.pgpass` in `HOME` (else the user's home folder).
    package static func path(environment: [String: String]) -> String? {
        if let file = environment["PGPASSFILE"], !file.isEmpty { return file }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home.isEmpty ? nil : URL(fileURLWithPath: home).appendingPathComponent(".pgpass").path
    }

    /// The password for `location` (its host, port, database and user), from the file at `path`.
    package static func lookUp(_ location: PostgresLocation, path: String) -> Lookup {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return .notFound }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            return .ignored(path: path, reason: "it is not a regular file")
        }
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
        guard mode & 0o077 == 0 else {
            return .ignored(
                path: path,
                reason: "it has group or world access (mode \(String(mode & 0o777, radix: 8))); run chmod 600 on it")
        }
        guard let bytes = try? BoundedInput.read(path: path, limit: maximumBytes, accepting: .regularFile) else {
            return .ignored(path: path, reason: "it cannot be read whole (at most 1 MiB)")
        }
        return password(in: bytes, for: location).map(Lookup.found) ?? .notFound
    }

    /// The password of the first line of `file` (a password file's bytes) that matches
    /// `location`'s host, port, database and user; `nil` when none does.
    package static func password(in file: [UInt8], for location: PostgresLocation) -> String? {
        let wanted = [location.host, String(location.port), location.database, location.user]
        let lines = String(decoding: file, as: UTF8.self).split(whereSeparator: \.isNewline)
        for line in lines where !line.hasPrefix("#") {
            let fields = Self.fields(of: line)
            guard fields.count >= 5, !fields[4].text.isEmpty else { continue }
            if zip(fields.prefix(4), wanted).allSatisfy({ $0.isWildcard || $0.text == $1 }) {
                return fields[4].text
            }
        }
        return nil
    }

    /// A line's fields, split at unescaped `:` and unescaped (`\:` is `:`, `\\` is `\`); a field
    /// that is exactly an unescaped `*` matches anything.
    package static func fields(of line: Substring) -> [(text: String, isWildcard: Bool)] {
        var fields: [(text: String, isWildcard: Bool)] = []
        var current = ""
        var escapes = false
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
                escapes = true
            } else if character == ":" {
                fields.append((current, current == "*" && !escapes))
                current = ""
                escapes = false
            } else {
                current.append(character)
            }
        }
        fields.append((current, current == "*" && !escapes))
        return fields
    }
}
