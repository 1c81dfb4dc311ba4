import OfferJSON

/// The size of an uploaded image (`imageSize`, Retention Messaging API 1.4), sent as the query
/// parameter of Upload Image and listed by Get Image List.
public enum ImageSize: String, Sendable, CaseIterable, EnumeratedValue {
    /// A message's image, above its body: 3840 pixels wide, 160 to 2160 high (Apple's default).
    case fullSize = "FULL_SIZE"
    /// A bullet point's icon: 1024 × 1024 pixels.
    case bulletPoint = "BULLET_POINT"

    /// The widths Apple accepts for this size.
    public var widths: ClosedRange<Int> {
        switch self {
        case .fullSize: 3840...3840
        case .bulletPoint: 1024...1024
        }
    }

    /// The heights Apple accepts for this size.
    public var heights: ClosedRange<Int> {
        switch self {
        case .fullSize: 160...2160
        case .bulletPoint: 1024...1024
        }
    }

    /// `3840 × 160…2160` or `1024 × 1024`.
    public var dimensionsText: String {
        func text(_ range: ClosedRange<Int>) -> String {
            range.lowerBound == range.upperBound ? "\(range.lowerBound)" : "\(range.lowerBound)…\(range.upperBound)"
        }
        return "\(text(widths)) × \(text(heights))"
    }
}
