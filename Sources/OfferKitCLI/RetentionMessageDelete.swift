import ArgumentParser
import OfferJSON
import OfferRetentionAPI

/// `offerkit retention message delete ID`: Delete Message.
struct RetentionMessageDelete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete a message (exit 4 with MessageNotFoundError when there is none).",
        discussion: "Delete its image afterwards with `offerkit retention image delete` if nothing else uses it.")

    @Argument(help: "The message's UUID.")
    var messageIdentifier: String

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let id = try RetentionIdentifier.uuid(messageIdentifier, field: "MESSAGE_IDENTIFIER")
        let environment = try retention.resolvedEnvironment()
        try await retention.run { try await $0.deleteMessage(id) }
        try retention.print(
            "message \(id) deleted in \(environment.rawValue)",
            json: [("messageIdentifier", .string(id)), ("deleted", .bool(true))])
    }
}
