import OfferJSON
import OfferSigning

/// The body of Upload Message (`PUT /inApps/v1/messaging/message/{messageIdentifier}`): a
/// message's header and body text, an optional image with its alternative text, up to five
/// bullet points and the header's position, checked against Apple's documented limits before it
/// is sent.
///
/// Lengths count Unicode characters (code points), as Apple's App Store Server Library does.
/// Apple documents that promotional-offer and switch-plan messages take no image and no bullet
/// points; only Apple can tell which kind a message will be used as, so that is not checked here.
public struct UploadMessageRequestBody: Sendable, Equatable {
    /// Apple's limits (Upload Message, `BulletPoint`).
    public static let maximumHeaderLength = 66
    public static let maximumBodyLength = 144
    public static let maximumAltTextLength = 150
    public static let maximumBulletPointTextLength = 66
    public static let maximumBulletPoints = 5
    /// The largest JSON file ``read(json:)`` takes, in bytes (OfferKit's bound: a valid body is
    /// under 3 KB).
    public static let maximumDocumentBytes = 64 * 1024

    public var header: String
    public var body: String
    public var image: UploadMessageImage?
    /// `nil`: the member is not sent.
    public var bulletPoints: [BulletPoint]?
    /// `nil`: the member is not sent (Apple places the header above the body).
    public var headerPosition: HeaderPosition?

    public init(
        header: String, body: String, image: UploadMessageImage? = nil, bulletPoints: [BulletPoint]? = nil,
        headerPosition: HeaderPosition? = nil
    ) {
        self.header = header
        self.body = body
        self.image = image
        self.bulletPoints = bulletPoints
        self.headerPosition = headerPosition
    }

    /// The body with its identifiers in lower case, after Apple's checks: header 1 to 66
    /// characters, body 1 to 144, alternative texts 1 to 150, at most 5 bullet points of 1 to 66
    /// characters, UUID image identifiers, and `ABOVE_IMAGE` only with an image.
    /// - Throws: ``RequestValidationError`` naming the member (`bulletPoints[2].altText`).
    public func validated() throws(RequestValidationError) -> UploadMessageRequestBody {
        try Self.checkText(header, field: "header", maximum: Self.maximumHeaderLength)
        try Self.checkText(body, field: "body", maximum: Self.maximumBodyLength)
        var checked = self
        checked.image = try image?.validated(path: "image.")
        if let bulletPoints {
            guard bulletPoints.count <= Self.maximumBulletPoints else {
                throw .outOfRange(
                    field: "bulletPoints",
                    expected:
                        "at most \(Self.maximumBulletPoints) bullet points (Apple's limit), found \(bulletPoints.count)"
                )
            }
            var points: [BulletPoint] = []
            for (index, point) in bulletPoints.enumerated() {
                points.append(try point.validated(path: "bulletPoints[\(index)]."))
            }
            checked.bulletPoints = points
        }
        if headerPosition == .aboveImage, image == nil {
            throw .invalidFormat(
                field: "headerPosition",
                expected:
                    "ABOVE_BODY without an image: ABOVE_IMAGE places the header above the image, and this message "
                    + "has none")
        }
        return checked
    }

    /// A text member: not empty, at most `maximum` Unicode characters.
    static func checkText(_ text: String, field: String, maximum: Int) throws(RequestValidationError) {
        guard !text.isEmpty else { throw .empty(field: field) }
        let length = text.unicodeScalars.count
        guard length <= maximum else { throw .tooLong(field: field, maximum: maximum, actual: length) }
    }

    /// The JSON Apple takes: members in Apple's order, absent ones left out (never `null`).
    public func jsonBytes() -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.beginObject()
        writer.member("header", header)
        writer.member("body", body)
        if let image {
            writer.key("image")
            writer.beginObject()
            writer.member("imageIdentifier", image.imageIdentifier)
            writer.member("altText", image.altText)
            writer.endObject()
        }
        if let bulletPoints {
            writer.key("bulletPoints")
            writer.beginArray()
            for point in bulletPoints {
                writer.beginObject()
                writer.member("text", point.text)
                writer.member("imageIdentifier", point.imageIdentifier)
                writer.member("altText", point.altText)
                writer.endObject()
            }
            writer.endArray()
        }
        if let headerPosition { writer.member("headerPosition", headerPosition.rawValue) }
        writer.endObject()
        return writer.bytes
    }

    /// Reads a body from Apple's JSON (`{"header", "body", "image", "bulletPoints",
    /// "headerPosition"}`), strictly: an unknown member, a `null`, a wrong type or a repeated
    /// member is refused, naming it. The limits are checked by ``validated()``.
    public static func read(json bytes: [UInt8]) throws(RequestDecodingError) -> UploadMessageRequestBody {
        guard bytes.count <= maximumDocumentBytes else {
            throw .invalidJSON("the document is \(bytes.count) bytes; at most \(maximumDocumentBytes) are read")
        }
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw .invalidJSON(error.message)
        }
        let members = try StrictObject(
            document, path: "", allowed: ["header", "body", "image", "bulletPoints", "headerPosition"])
        var result = UploadMessageRequestBody(
            header: try members.string("header"), body: try members.string("body"))
        if let image = members["image"] {
            let object = try StrictObject(image, path: "image", allowed: ["imageIdentifier", "altText"])
            result.image = UploadMessageImage(
                imageIdentifier: try object.string("imageIdentifier"), altText: try object.string("altText"))
        }
        if let points = members["bulletPoints"] {
            guard case .array(let items) = points else {
                throw .wrongType(path: "bulletPoints", expected: "an array of bullet points, found \(points.typeName)")
            }
            guard items.count <= 1_000 else {
                throw .invalidValue(path: "bulletPoints", reason: "\(items.count) entries; Apple takes at most 5")
            }
            var read: [BulletPoint] = []
            for (index, item) in items.enumerated() {
                let object = try StrictObject(
                    item, path: "bulletPoints[\(index)]", allowed: ["text", "imageIdentifier", "altText"])
                read.append(
                    BulletPoint(
                        text: try object.string("text"), imageIdentifier: try object.string("imageIdentifier"),
                        altText: try object.string("altText")))
            }
            result.bulletPoints = read
        }
        if let position = members["headerPosition"] {
            guard case .string(let text) = position else {
                throw .wrongType(path: "headerPosition", expected: "a string, found \(position.typeName)")
            }
            guard let value = HeaderPosition(anyCase: text) else {
                throw .invalidValue(
                    path: "headerPosition",
                    reason: "\(EnumeratedSpelling.shown(text)) is not ABOVE_BODY or ABOVE_IMAGE (in any case)")
            }
            result.headerPosition = value
        }
        return result
    }
}
