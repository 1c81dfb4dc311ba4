import ArgumentParser
import OfferJSON

/// `offerkit retention message list`: Get Message List.
struct RetentionMessageList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the uploaded messages and their state (PENDING, APPROVED, REJECTED), one per line.")

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let answer = try await retention.run { try await $0.messages() }
        guard case .object(let members) = answer.json else { return }
        try retention.print(
            answer.messageIdentifiers.map { "\($0.messageIdentifier) \($0.messageState)" }.joined(separator: "\n"),
            json: members)
    }
}
