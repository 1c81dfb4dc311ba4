/// Get Realtime URL's answer (`GET /inApps/v1/messaging/realtime/url`): the URL of the Get
/// Retention Message endpoint configured in this environment.
public struct RealtimeUrlResponse: Sendable, Equatable {
    public var realtimeURL: String

    public init(realtimeURL: String) { self.realtimeURL = realtimeURL }

    public static func parse(_ bytes: [UInt8]) throws(RetentionAnswerError) -> RealtimeUrlResponse {
        RealtimeUrlResponse(
            realtimeURL: try AnswerObject.parse(bytes).requiredString("realtimeURL", maximum: 2048))
    }
}
