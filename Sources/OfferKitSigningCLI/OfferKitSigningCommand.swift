import ArgumentParser
import OfferJSON
import OfferSigning

/// `offerkit` built with its `sign` commands only (the package built without its default trait
/// `AllCommands`: `swift build --disable-default-traits --product offerkit`): the same `sign`
/// commands, options, output and exit codes as the full `offerkit`, from a build of OfferSigning,
/// swift-crypto and swift-argument-parser alone.
package struct OfferKitSigningCommand: AsyncParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "offerkit",
        abstract: "Sign promotional offers, eligibility and Advanced Commerce requests (the sign commands only).",
        discussion: """
            This offerkit was built with its sign commands only (without the package trait AllCommands). \
            The full offerkit (swift build --product offerkit) has every command: tokens, verification, \
            offer codes, Retention Messaging, the service.

            \(Credentials.helpText)

            \(ExitStatus.signingHelpText)
            """,
        version: OfferKitVersion.current,
        subcommands: [SignCommand.self]
    )

    /// The commands this tree has, besides ArgumentParser's `help`.
    static let commandNames = [SignCommand.configuration.commandName ?? "sign", "help"]

    /// Refuses, before parsing, a first argument that names no command of this tree (a command of the
    /// full `offerkit`, such as `codes`, or a typo), saying that this build signs only and how to build
    /// every command. ArgumentParser alone would say only "Unexpected argument".
    static func checkCommand(_ arguments: [String]) throws {
        guard let first = arguments.first, !first.hasPrefix("-"), !commandNames.contains(first) else { return }
        throw CLIError.usage(
            "\(EnumeratedSpelling.shown(first)) is not a command of this offerkit: it was built with its sign "
                + "commands only (swift build --disable-default-traits), and has sign (promotional-offer, "
                + "legacy-promotional-offer, introductory-offer-eligibility, advanced-commerce); build offerkit "
                + "with its default traits for every command (swift build --product offerkit)")
    }
}
