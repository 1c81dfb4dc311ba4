import ArgumentParser

/// `offerkit retention default …`: the default message per product and locale.
struct RetentionDefaultCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "default",
        abstract: "The default message per product and locale, shown when the endpoint gives none (set, get, delete).",
        subcommands: [RetentionDefaultSet.self, RetentionDefaultGet.self, RetentionDefaultDelete.self])
}
