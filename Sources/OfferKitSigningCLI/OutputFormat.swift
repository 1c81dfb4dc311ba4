import ArgumentParser
import Foundation
import OfferJSON

/// `--format text` (the bare value, for `$(...)`) or `--format json` (one object with every field).
package enum OutputFormat: String, ExpressibleByArgument, CaseIterable, EnumeratedValue {
    case text
    case json
}

package struct OutputOptions: ParsableArguments {
    package init() {}

    @Option(help: "Output format: text (the bare value) or json (an object with every field).")
    package var format: OutputFormat = .text
}

/// Writing to stdout and stderr.
package enum Output {
    /// Prints `text` and a newline to stdout.
    package static func line(_ text: String) {
        CommandContext.current.output.write(Data((text + "\n").utf8))
    }

    /// Prints one JSON object (sorted keys, unescaped slashes) and a newline to stdout.
    package static func json<Value: Encodable>(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        CommandContext.current.output.write(try encoder.encode(value) + Data("\n".utf8))
    }

    /// A line on stderr, prefixed `offerkit: `.
    package static func note(_ text: String) {
        CommandContext.current.error.write(Data("offerkit: \(text)\n".utf8))
    }

    package static func warning(_ text: String) {
        CommandContext.current.error.write(Data("offerkit: warning: \(text)\n".utf8))
    }

    /// Warns when the file at `path` can be read by group or others: "`name` is readable by group
    /// or others (mode 644)`reason`; run chmod 600 on it".
    /// Only a regular file gets it: a directory, a FIFO or a device (`/dev/null`, `/dev/stdin`) has a
    /// mode that says nothing about who can read what it passes on, and is refused or read elsewhere.
    package static func warnIfExposed(_ path: String, name: String, reason: String = "") {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let mode = (attributes[.posixPermissions] as? NSNumber)?.uint16Value, mode & 0o077 != 0
        else { return }
        warning(
            "\(name) is readable by group or others (mode \(String(mode & 0o777, radix: 8)))\(reason); "
                + "run chmod 600 on it")
    }
}
