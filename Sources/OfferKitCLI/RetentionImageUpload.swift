import ArgumentParser
import OfferJSON
import OfferKitSigningCLI
import OfferRetentionAPI

/// `offerkit retention image upload FILE.png`: Upload Image.
struct RetentionImageUpload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload a PNG image; it is PENDING until approved.",
        discussion: """
            Checked before it is sent (exit 4): a well-formed PNG (signature, chunks and their CRC-32, IHDR, IDAT, \
            IEND) of Apple's size for --image-size (FULL_SIZE, the default: 3840 pixels wide and 160 to 2160 high, \
            shown above a message's body; BULLET_POINT: 1024 × 1024, a bullet point's icon) without transparency \
            (no alpha channel, no tRNS chunk). At most 50 MiB are read.
            """)

    @Argument(help: "The PNG file.")
    var file: String

    @Option(name: .customLong("image-identifier"), help: "The image's UUID (you choose it).")
    var imageIdentifier: String

    @Option(
        name: .customLong("image-size"),
        help: "FULL_SIZE (Apple's default; imageSize is then not sent) or BULLET_POINT.")
    var imageSize: String?

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let id = try RetentionIdentifier.uuid(imageIdentifier, field: "--image-identifier")
        var size: ImageSize?
        if let imageSize {
            do {
                size = try ImageSize.read(imageSize, field: "--image-size")
            } catch {
                throw CLIError.usage(error.localizedDescription)
            }
        }
        let bytes = try InputFile.read(file, limit: PNGImage.maximumBytes, what: "an image")
        let environment = try retention.resolvedEnvironment()
        let file = file
        // The client checks the PNG (structure, Apple's size, no transparency) before anything is sent.
        let png = try await retention.run { try await $0.uploadImage(id, png: bytes, size: size, field: file) }
        let shownSize = (size ?? .fullSize).rawValue
        try retention.print(
            "image \(id) (\(shownSize), \(png.width) × \(png.height)) uploaded in \(environment.rawValue): PENDING until "
                + "Apple approves it (at once in the sandbox); `offerkit retention image list` shows its state",
            json: [
                ("imageIdentifier", .string(id)), ("imageSize", .string(shownSize)), ("width", .integer(png.width)),
                ("height", .integer(png.height)), ("bytes", .integer(png.byteCount)), ("uploaded", .bool(true)),
            ])
    }
}
