import OfferSigning

extension OfferService {
    /// The version of OfferKit's signing service, written to the OpenAPI document's `info.version`:
    /// ``OfferKitVersion/current``.
    public static let version = OfferKitVersion.current
}
