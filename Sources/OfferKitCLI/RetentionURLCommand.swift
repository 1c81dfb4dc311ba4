import ArgumentParser

/// `offerkit retention url …`: the URL of the Get Retention Message endpoint.
struct RetentionURLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "url",
        abstract: "The URL Apple calls for real-time retention messages (Configure, Get, Delete Realtime URL).",
        subcommands: [RetentionURLSet.self, RetentionURLGet.self, RetentionURLDelete.self])
}
