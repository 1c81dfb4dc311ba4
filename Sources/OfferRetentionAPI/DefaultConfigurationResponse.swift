/// Get Default Message's answer (`GET /inApps/v1/messaging/default/{productId}/{locale}`): the
/// message Apple shows for the product and locale when the endpoint gives none.
public struct DefaultConfigurationResponse: Sendable, Equatable {
    public var messageIdentifier: String

    public init(messageIdentifier: String) { self.messageIdentifier = messageIdentifier }

    public static func parse(_ bytes: [UInt8]) throws(RetentionAnswerError) -> DefaultConfigurationResponse {
        DefaultConfigurationResponse(
            messageIdentifier: try AnswerObject.parse(bytes).requiredString("messageIdentifier", maximum: 64))
    }
}
