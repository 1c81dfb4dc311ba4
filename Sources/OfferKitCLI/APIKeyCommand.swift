import ArgumentParser

struct APIKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-key",
        abstract: "Create API keys for `offerkit serve`.",
        subcommands: [APIKeyCreate.self]
    )
}
