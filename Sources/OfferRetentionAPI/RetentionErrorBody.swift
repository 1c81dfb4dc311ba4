/// The body of an App Store Server API refusal: `{"errorCode": 4000162, "errorMessage": "…"}`.
public struct RetentionErrorBody: Sendable, Equatable {
    /// Apple's error code (``RetentionErrorCode`` knows the Retention Messaging API's).
    public var errorCode: Int64
    /// Apple's message, at most 500 characters, without control characters.
    public var errorMessage: String?

    public init(errorCode: Int64, errorMessage: String?) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }

    /// The error in `bytes`, or `nil` when they are not such a body.
    public static func parse(_ bytes: [UInt8]) -> RetentionErrorBody? {
        guard let answer = try? AnswerObject.parse(bytes), let code = try? answer.integer("errorCode") else {
            return nil
        }
        let message: String?
        if case .string(let text)? = answer["errorMessage"] {
            let shown = text.unicodeScalars.prefix(500).map { $0.properties.generalCategory == .control ? " " : $0 }
            message = String(String.UnicodeScalarView(shown)) + (text.unicodeScalars.count > 500 ? "…" : "")
        } else {
            message = nil
        }
        return RetentionErrorBody(errorCode: code, errorMessage: message)
    }

    /// `4090001 MessageAlreadyExistsError (the message identifier already exists): "…"`.
    public var summary: String {
        var text = "\(errorCode)"
        if let known = RetentionErrorCode(rawValue: errorCode) {
            text += " \(known.name) (\(known.meaning))"
        } else {
            text += " (an error code OfferKit does not know)"
        }
        if let errorMessage, !errorMessage.isEmpty { text += ": \"\(errorMessage)\"" }
        return text
    }
}
