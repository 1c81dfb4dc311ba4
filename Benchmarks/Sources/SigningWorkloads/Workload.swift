/// The signing operations that the benchmarks measure, by name, so that a profiler can run
/// exactly the same work (`swift run -c release offerkit-profile NAME COUNT`).
public enum Workload: String, CaseIterable, Sendable {
    case rawSign = "raw-sign"
    case legacy
    case promotionalOffer = "promotional-offer"
    case introductoryOffer = "introductory-offer"
    case advancedCommerceSmall = "advanced-commerce-small"
    case advancedCommerceLarge = "advanced-commerce-large"
    case serverAPIToken = "server-api-token"

    /// Runs the operation once on the shared fixture.
    public func run(on fixture: SigningFixture = .shared) {
        switch self {
        case .rawSign: fixture.rawSign()
        case .legacy: fixture.legacy()
        case .promotionalOffer: fixture.promotionalOffer()
        case .introductoryOffer: fixture.introductoryOffer()
        case .advancedCommerceSmall: fixture.advancedCommerce(fixture.smallAdvancedCommerce)
        case .advancedCommerceLarge: fixture.advancedCommerce(fixture.largeAdvancedCommerce)
        case .serverAPIToken: fixture.serverAPIToken()
        }
    }
}
