import ArgumentParser

/// `offerkit retention message …`: retention messages.
struct RetentionMessageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "message",
        abstract: "Retention messages: upload, list (with their approval state), delete.",
        subcommands: [RetentionMessageUpload.self, RetentionMessageList.self, RetentionMessageDelete.self])
}
