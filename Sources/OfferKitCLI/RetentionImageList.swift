import ArgumentParser
import OfferJSON

/// `offerkit retention image list`: Get Image List.
struct RetentionImageList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the uploaded images, their state (PENDING, APPROVED, REJECTED) and size, one per line.")

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let answer = try await retention.run { try await $0.images() }
        guard case .object(let members) = answer.json else { return }
        try retention.print(
            answer.imageIdentifiers.map { "\($0.imageIdentifier) \($0.imageState) \($0.imageSize ?? "-")" }
                .joined(separator: "\n"),
            json: members)
    }
}
