extension OfferService {
    /// The version of OfferKit's signing service, written to the OpenAPI document's `info.version`.
    public static let version = "0.1.0"
}
