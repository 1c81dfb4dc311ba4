import OfferSigning

/// One bullet point of a message (`BulletPoint`, Retention Messaging API 1.4): its text, the
/// icon (an image uploaded with the size `BULLET_POINT`) and the icon's alternative text, all
/// three required.
public struct BulletPoint: Sendable, Equatable {
    /// At most ``UploadMessageRequestBody/maximumBulletPointTextLength`` characters.
    public var text: String
    /// The UUID of an image uploaded with the size `BULLET_POINT`.
    public var imageIdentifier: String
    /// At most ``UploadMessageRequestBody/maximumAltTextLength`` characters.
    public var altText: String

    public init(text: String, imageIdentifier: String, altText: String) {
        self.text = text
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }

    /// The bullet point with its identifier in lower case, after Apple's checks; errors name
    /// fields under `path` (`bulletPoints[1].text`).
    func validated(path: String) throws(RequestValidationError) -> BulletPoint {
        try UploadMessageRequestBody.checkText(
            text, field: path + "text", maximum: UploadMessageRequestBody.maximumBulletPointTextLength)
        let identifier = try RetentionIdentifier.uuid(imageIdentifier, field: path + "imageIdentifier")
        try UploadMessageRequestBody.checkText(
            altText, field: path + "altText", maximum: UploadMessageRequestBody.maximumAltTextLength)
        return BulletPoint(text: text, imageIdentifier: identifier, altText: altText)
    }
}
