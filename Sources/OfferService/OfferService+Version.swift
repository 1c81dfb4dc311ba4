import OfferSigning

extension OfferService {
    /// The version of OfferKit's signing service (`OfferKitVersion.current`), written to the
    /// OpenAPI document's `info.version`, the `version` of `GET /healthz` and every response's
    /// `Server: offerkit/VERSION` header.
    public static let version = OfferKitVersion.current

    /// The `Server` header of every response: `offerkit/VERSION`.
    public static let serverHeader = "offerkit/\(version)"
}
