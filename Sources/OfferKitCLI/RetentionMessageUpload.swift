import ArgumentParser
import OfferJSON
import OfferKitSigningCLI
import OfferRetentionAPI
import OfferSigning

/// `offerkit retention message upload`: Upload Message, from flags or from Apple's JSON.
struct RetentionMessageUpload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload a message (header, body, optional image and bullet points); it is PENDING until approved.",
        discussion: """
            Apple's limits are checked before anything is sent (exit 4, naming the flag or member): header 1 to 66 \
            characters, body 1 to 144, alternative texts 1 to 150, at most 5 bullet points of 1 to 66 characters, \
            UUID identifiers, ABOVE_IMAGE only with an image. Each bullet point needs its icon (an image uploaded \
            with --image-size BULLET_POINT) and the icon's alternative text: give --bullet-point, --bullet-image and \
            --bullet-alt-text once per bullet point, in the same order. Or give the whole body as Apple's JSON \
            (UploadMessageRequestBody: header, body, image {imageIdentifier, altText}, bulletPoints [{text, \
            imageIdentifier, altText}], headerPosition) with --from-file FILE ('-' for stdin); unknown members are \
            refused. Promotional-offer and switch-plan messages take no image and no bullet points (Apple).
            """)

    @Option(name: .customLong("message-identifier"), help: "The message's UUID (you choose it).")
    var messageIdentifier: String

    @Option(help: "The header text (at most 66 characters).")
    var header: String?

    @Option(help: "The body text (at most 144 characters).")
    var body: String?

    @Option(name: .customLong("image-identifier"), help: "The UUID of a FULL_SIZE image shown with the message.")
    var imageIdentifier: String?

    @Option(name: .customLong("alt-text"), help: "The image's alternative text (at most 150 characters).")
    var altText: String?

    @Option(name: .customLong("bullet-point"), help: "A bullet point's text (at most 66 characters); repeatable.")
    var bulletPoints: [String] = []

    @Option(name: .customLong("bullet-image"), help: "The UUID of its BULLET_POINT icon; once per --bullet-point.")
    var bulletImages: [String] = []

    @Option(name: .customLong("bullet-alt-text"), help: "The icon's alternative text; once per --bullet-point.")
    var bulletAltTexts: [String] = []

    @Option(name: .customLong("header-position"), help: "ABOVE_BODY (Apple's default) or ABOVE_IMAGE.")
    var headerPosition: String?

    @Option(name: .customLong("from-file"), help: "The body as Apple's JSON (UploadMessageRequestBody); '-' for stdin.")
    var fromFile: String?

    @OptionGroup var retention: RetentionOptions

    func run() async throws {
        let id = try RetentionIdentifier.uuid(messageIdentifier, field: "--message-identifier")
        let message = try fromFile.map(Self.read) ?? flagsBody()
        let environment = try retention.resolvedEnvironment()
        try await retention.run { try await $0.uploadMessage(id, message) }
        try retention.print(
            "message \(id) uploaded in \(environment.rawValue): PENDING until Apple approves it (at once in the sandbox); "
                + "`offerkit retention message list` shows its state",
            json: [("messageIdentifier", .string(id)), ("uploaded", .bool(true))])
    }

    /// The body from `--from-file`, read strictly and checked.
    static func read(_ path: String) throws -> UploadMessageRequestBody {
        let bytes = try InputFile.read(
            path, limit: UploadMessageRequestBody.maximumDocumentBytes, what: "a message body (--from-file)")
        return try UploadMessageRequestBody.read(json: bytes).validated()
    }

    /// The body from the flags, checked; errors name the flags.
    func flagsBody() throws -> UploadMessageRequestBody {
        guard let header, let body else {
            throw CLIError.usage("give --header and --body (or the whole body with --from-file)")
        }
        guard (imageIdentifier == nil) == (altText == nil) else {
            throw CLIError.usage("an image needs both --image-identifier and --alt-text")
        }
        guard bulletImages.count == bulletPoints.count, bulletAltTexts.count == bulletPoints.count else {
            throw CLIError.usage(
                "each bullet point needs --bullet-point, --bullet-image and --bullet-alt-text, in the same order: found "
                    + "\(bulletPoints.count), \(bulletImages.count) and \(bulletAltTexts.count)")
        }
        var position: HeaderPosition?
        if let headerPosition {
            do {
                position = try HeaderPosition.read(headerPosition, field: "--header-position")
            } catch {
                throw CLIError.usage(error.localizedDescription)
            }
        }
        let message = UploadMessageRequestBody(
            header: header, body: body,
            image: imageIdentifier.map { UploadMessageImage(imageIdentifier: $0, altText: altText ?? "") },
            bulletPoints: bulletPoints.isEmpty
                ? nil
                : bulletPoints.indices.map {
                    BulletPoint(text: bulletPoints[$0], imageIdentifier: bulletImages[$0], altText: bulletAltTexts[$0])
                },
            headerPosition: position)
        do {
            return try message.validated()
        } catch {
            throw Self.naming(error)
        }
    }

    /// `error` with the member's flag in place of its JSON path (`bulletPoints[1].text` → the 2nd `--bullet-point`).
    static func naming(_ error: RequestValidationError) -> RequestValidationError {
        let field = error.field
        var flag: String
        switch field {
        case "header": flag = "--header"
        case "body": flag = "--body"
        case "image.imageIdentifier": flag = "--image-identifier"
        case "image.altText": flag = "--alt-text"
        case "headerPosition": flag = "--header-position"
        case "bulletPoints": flag = "--bullet-point"
        default:
            guard field.hasPrefix("bulletPoints["), let close = field.firstIndex(of: "]"),
                let index = Int(field[field.index(field.startIndex, offsetBy: 13)..<close])
            else { return error }
            let member = field[field.index(after: close)...]
            let name =
                member == ".text"
                ? "--bullet-point" : member == ".imageIdentifier" ? "--bullet-image" : "--bullet-alt-text"
            flag = "\(name) (bullet point \(index + 1))"
        }
        switch error {
        case .empty: return .empty(field: flag)
        case .tooLong(_, let maximum, let actual): return .tooLong(field: flag, maximum: maximum, actual: actual)
        case .invalidFormat(_, let expected): return .invalidFormat(field: flag, expected: expected)
        case .outOfRange(_, let expected): return .outOfRange(field: flag, expected: expected)
        }
    }
}
