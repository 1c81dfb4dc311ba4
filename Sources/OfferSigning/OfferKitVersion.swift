/// The version of OfferKit: the one value `offerkit --version`, the service's OpenAPI document
/// and its health check report.
public enum OfferKitVersion {
    /// The current version, as semantic versioning `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
