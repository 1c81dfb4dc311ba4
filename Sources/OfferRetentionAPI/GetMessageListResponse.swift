import OfferJSON

/// Get Message List's answer (`GET /inApps/v1/messaging/message/list`): every uploaded message's
/// identifier and state.
public struct GetMessageListResponse: Sendable, Equatable {
    /// A message and its approval state (`PENDING`, `APPROVED`, `REJECTED`; another value is kept
    /// as Apple sent it).
    public struct Item: Sendable, Equatable {
        public var messageIdentifier: String
        public var messageState: String

        public init(messageIdentifier: String, messageState: String) {
            self.messageIdentifier = messageIdentifier
            self.messageState = messageState
        }
    }

    public var messageIdentifiers: [Item]

    public init(messageIdentifiers: [Item]) { self.messageIdentifiers = messageIdentifiers }

    /// Reads Apple's answer (an absent list is an empty one).
    public static func parse(_ bytes: [UInt8]) throws(RetentionAnswerError) -> GetMessageListResponse {
        let answer = try AnswerObject.parse(bytes)
        var items: [Item] = []
        for (index, value) in (try answer.array("messageIdentifiers") ?? []).enumerated() {
            let item = try AnswerObject(value, path: "messageIdentifiers[\(index)]")
            items.append(
                Item(
                    messageIdentifier: try item.requiredString("messageIdentifier", maximum: 64),
                    messageState: try item.requiredString("messageState", maximum: 64)))
        }
        return GetMessageListResponse(messageIdentifiers: items)
    }

    /// Apple's JSON shape.
    package var json: JSONValue {
        .object([
            (
                "messageIdentifiers",
                .array(
                    messageIdentifiers.map {
                        .object([
                            ("messageIdentifier", .string($0.messageIdentifier)),
                            ("messageState", .string($0.messageState)),
                        ])
                    })
            )
        ])
    }
}
