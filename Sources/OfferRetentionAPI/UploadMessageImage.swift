import OfferSigning

/// A message's image and its alternative text (`UploadMessageImage`): both are required.
public struct UploadMessageImage: Sendable, Equatable {
    /// The UUID of an image uploaded with the size `FULL_SIZE`.
    public var imageIdentifier: String
    /// At most ``UploadMessageRequestBody/maximumAltTextLength`` characters.
    public var altText: String

    public init(imageIdentifier: String, altText: String) {
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }

    /// The image with its identifier in lower case, after Apple's checks; errors name fields
    /// under `path` (`image.altText`).
    func validated(path: String) throws(RequestValidationError) -> UploadMessageImage {
        let identifier = try RetentionIdentifier.uuid(imageIdentifier, field: path + "imageIdentifier")
        try UploadMessageRequestBody.checkText(
            altText, field: path + "altText", maximum: UploadMessageRequestBody.maximumAltTextLength)
        return UploadMessageImage(imageIdentifier: identifier, altText: altText)
    }
}
