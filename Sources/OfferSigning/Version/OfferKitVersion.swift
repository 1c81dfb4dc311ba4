/// The version of OfferKit: the library, the `offerkit` command (`offerkit --version`) and the
/// signing service (`GET /healthz`, the `Server` header, the OpenAPI document's `info.version`)
/// all report this one value.
public enum OfferKitVersion {
    /// The current version, such as `0.1.0` (semantic versioning).
    public static let current = "0.1.0"
}
