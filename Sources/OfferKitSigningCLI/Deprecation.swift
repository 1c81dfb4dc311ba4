import Foundation
import OfferSigning

/// Notes on stderr for deprecated spellings that are still accepted as input (docs/signing.md, "Names").
package enum Deprecation {
    /// Prints `offerkit: note: …` on stderr. `text` starts with `note: `.
    package static func note(_ text: String) {
        CommandContext.current.error.write(Data("offerkit: \(text)\n".utf8))
    }

    /// Notes a deprecated flag that was used: `--old` is now `--new`.
    package static func flag(_ old: String, replacedBy new: String) {
        note("note: \(old) is deprecated; the flag is now \(new)")
    }

    /// Notes a deprecated subcommand name (an alias such as `sign promotional-offer-v1`), read from
    /// the command's arguments: ArgumentParser resolves an alias without saying which name was typed.
    package static func noteSubcommandSpelling(
        after group: String, arguments: [String] = CommandContext.current.arguments
    ) {
        guard let index = arguments.firstIndex(of: group), index + 1 < arguments.count,
            let text = SigningOperation.deprecationNote(for: arguments[index + 1])
        else { return }
        note(text)
    }

    /// The value of a flag that has a current and a deprecated spelling: the current one, else the
    /// deprecated one (with a note). Giving both is a usage error.
    package static func value<Value>(
        _ current: Value?, _ currentName: String, deprecated: Value?, _ deprecatedName: String
    ) throws -> Value? {
        switch (current, deprecated) {
        case (_?, _?):
            throw CLIError.usage("\(currentName) and \(deprecatedName) are the same flag: give only \(currentName)")
        case (let value?, nil): return value
        case (nil, let value?):
            flag(deprecatedName, replacedBy: currentName)
            return value
        case (nil, nil): return nil
        }
    }
}
