import OfferServiceContract

extension BundleLimit {
    /// The authorization table of `operations` in Markdown (``BundleLimit/authorizationTable(_:)``
    /// of their contracts): operation, method and path, the scope it needs, and what the bundle-ID
    /// limit covers.
    public static func authorizationTable(_ operations: [ServiceOperation]) -> String {
        authorizationTable(operations.map(\.contract))
    }
}
