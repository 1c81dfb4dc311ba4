import ArgumentParser
import OfferJSON
import OfferRetentionAPI

/// `offerkit retention image delete ID`: Delete Image.
struct RetentionImageDelete: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete an image (exit 4 with ImageInUseError while a message uses it, ImageNotFoundError if none).")

    @Argument(help: "The image's UUID.")
    var imageIdentifier: String

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let id = try RetentionIdentifier.uuid(imageIdentifier, field: "IMAGE_IDENTIFIER")
        let environment = try retention.resolvedEnvironment()
        try await retention.run { try await $0.deleteImage(id) }
        try retention.print(
            "image \(id) deleted in \(environment.rawValue)",
            json: [("imageIdentifier", .string(id)), ("deleted", .bool(true))])
    }
}
