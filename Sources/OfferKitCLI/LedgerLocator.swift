import OfferCodes
import OfferKitSigningCLI
import OfferLedger

/// A ledger locator as the CLI reads it (`--ledger`, `OFFERKIT_LEDGER`, `codes ledger copy --from`
/// and `--to`, `serve --ledger`): parsed by ``LedgerLocation``, with a warning when a PostgreSQL
/// password is written on the command line itself.
enum LedgerLocator {
    /// The warning for a password in a command-line flag (never shows the password).
    static func passwordWarning(option: String) -> String {
        "\(option) holds the database password, which other users of this machine can read in the process list "
            + "(and your shell keeps in its history); leave it out of the URL and give it in PGPASSWORD or in a "
            + "password file (~/.pgpass, or the file PGPASSFILE names; mode 0600)"
    }

    /// Parses `text`; a bad locator is a usage error naming `option` (its password never shown).
    /// - Parameter option: where the locator came from: a flag (`--ledger`) or a variable
    ///   (`OFFERKIT_LEDGER`). Only a flag's password is warned about: the environment is not
    ///   visible to other users.
    static func location(_ text: String, option: String) throws -> LedgerLocation {
        let location: LedgerLocation
        do {
            location = try LedgerLocation(parsing: text, environment: CommandContext.current.environment)
        } catch let error as LedgerLocationError {
            throw CLIError.usage("\(option): \(error.localizedDescription)")
        }
        if option.hasPrefix("--"), case .postgres = location, LedgerLocation.redacted(text) != text {
            Output.warning(passwordWarning(option: option))
        }
        return location
    }
}
