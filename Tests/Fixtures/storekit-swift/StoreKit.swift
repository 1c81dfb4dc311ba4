// The parts of StoreKit 2's interface that OfferKit's app snippets use, declared as Apple documents
// them, so the snippets can be type-checked off Apple platforms (StoreKit does not exist on Linux).
// Nothing here runs: every body traps.
import Foundation

public struct Product: Sendable {
    public let id: String

    public static func products(for identifiers: some Collection<String>) async throws -> [Product] {
        fatalError("declaration only")
    }

    public func purchase(options: Set<PurchaseOption> = []) async throws -> PurchaseResult {
        fatalError("declaration only")
    }

    public struct PurchaseOption: Hashable, Sendable {
        public static func promotionalOffer(_ offerID: String, compactJWS: String) -> [PurchaseOption] {
            fatalError("declaration only")
        }

        public static func introductoryOfferEligibility(compactJWS: String) -> PurchaseOption {
            fatalError("declaration only")
        }

        public static func promotionalOffer(
            offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int
        ) -> PurchaseOption {
            fatalError("declaration only")
        }

        public static func appAccountToken(_ token: UUID) -> PurchaseOption {
            fatalError("declaration only")
        }
    }

    public enum PurchaseResult: Sendable {
        case success(String)
        case userCancelled
        case pending
    }
}
