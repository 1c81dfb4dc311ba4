import OfferJSON

/// Get Image List's answer (`GET /inApps/v1/messaging/image/list`): every uploaded image's
/// identifier, state and size.
public struct GetImageListResponse: Sendable, Equatable {
    /// An image, its approval state (`PENDING`, `APPROVED`, `REJECTED`) and its size
    /// (`FULL_SIZE`, `BULLET_POINT`; absent from answers before Retention Messaging API 1.4).
    public struct Item: Sendable, Equatable {
        public var imageIdentifier: String
        public var imageState: String
        public var imageSize: String?

        public init(imageIdentifier: String, imageState: String, imageSize: String? = nil) {
            self.imageIdentifier = imageIdentifier
            self.imageState = imageState
            self.imageSize = imageSize
        }
    }

    public var imageIdentifiers: [Item]

    public init(imageIdentifiers: [Item]) { self.imageIdentifiers = imageIdentifiers }

    /// Reads Apple's answer (an absent list is an empty one).
    public static func parse(_ bytes: [UInt8]) throws(RetentionAnswerError) -> GetImageListResponse {
        let answer = try AnswerObject.parse(bytes)
        var items: [Item] = []
        for (index, value) in (try answer.array("imageIdentifiers") ?? []).enumerated() {
            let item = try AnswerObject(value, path: "imageIdentifiers[\(index)]")
            items.append(
                Item(
                    imageIdentifier: try item.requiredString("imageIdentifier", maximum: 64),
                    imageState: try item.requiredString("imageState", maximum: 64),
                    imageSize: try item.string("imageSize", maximum: 64)))
        }
        return GetImageListResponse(imageIdentifiers: items)
    }

    /// Apple's JSON shape.
    package var json: JSONValue {
        .object([
            (
                "imageIdentifiers",
                .array(
                    imageIdentifiers.map { item in
                        var members: [(key: String, value: JSONValue)] = [
                            ("imageIdentifier", .string(item.imageIdentifier)),
                            ("imageState", .string(item.imageState)),
                        ]
                        if let size = item.imageSize { members.append(("imageSize", .string(size))) }
                        return .object(members)
                    })
            )
        ])
    }
}
