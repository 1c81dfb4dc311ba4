import OfferJSON

/// Where a message's header appears (`headerPosition`, Retention Messaging API 1.4): above the
/// body (Apple's default) or above the image, which needs an image.
public enum HeaderPosition: String, Sendable, CaseIterable, EnumeratedValue {
    case aboveBody = "ABOVE_BODY"
    case aboveImage = "ABOVE_IMAGE"
}
