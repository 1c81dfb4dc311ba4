import ArgumentParser

struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "Inspect the key in use, or generate a key pair for local testing.",
        subcommands: [KeyInspect.self, KeyGenerate.self]
    )
}
