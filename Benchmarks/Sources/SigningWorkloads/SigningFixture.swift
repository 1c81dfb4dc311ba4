import Crypto
import Foundation
import OfferSigning

/// One signer and one request of each kind, made once and shared by every benchmark.
public struct SigningFixture: Sendable {
    public static let shared = SigningFixture()

    let signer: OfferSigner
    let rawKey = P256.Signing.PrivateKey()
    /// 420 bytes of a V2 JWS, about as long as its signing input (what raw signing hashes).
    let rawMessage: [UInt8]
    let promotionalOfferRequest = PromotionalOfferRequest(
        productId: "com.example.offerkit.monthly", offerIdentifier: "WINBACK50")
    let legacyRequest = LegacyPromotionalOfferRequest(
        productId: "com.example.offerkit.monthly", offerIdentifier: "WINBACK50")
    let introductoryOfferRequest = IntroductoryOfferEligibilityRequest(
        productId: "com.example.offerkit.monthly", allowIntroductoryOffer: true, transactionId: "2000000123456789")
    public let smallAdvancedCommerce: AdvancedCommerce.InAppRequest
    public let largeAdvancedCommerce: AdvancedCommerce.InAppRequest

    init() {
        do {
            signer = try OfferSigner(
                key: SigningKey.generate(keyId: "BENCHKEY01"), issuerId: "98802e6e-bab8-4f06-8c88-a2582cda3c9c",
                bundleId: "com.example.offerkit.demo")
            rawMessage = Array(try signer.sign(promotionalOfferRequest).serialization.utf8.prefix(420))
        } catch {
            fatalError("benchmark fixture: \(error)")
        }
        smallAdvancedCommerce = .oneTimeCharge(
            AdvancedCommerce.OneTimeChargeCreateRequest(
                requestInfo: AdvancedCommerce.RequestInfo(requestReferenceId: UUID()),
                currency: "USD", taxCode: "C003-00-2",
                item: AdvancedCommerce.OneTimeChargeItem(
                    sku: "gems.100", description: "One hundred gems", displayName: "100 Gems", price: 4990)))
        largeAdvancedCommerce = .createSubscription(Self.largeSubscription())
    }

    /// A subscription of 20 items, every text at its longest (SKU 128, description 45, display
    /// name 30), each with an offer: about 7 KB of request JSON and a 13 KB JWS.
    static func largeSubscription() -> AdvancedCommerce.SubscriptionCreateRequest {
        func text(_ prefix: String, _ length: Int) -> String {
            prefix + String(repeating: "x", count: length - prefix.count)
        }
        let items = (0..<20).map { index in
            AdvancedCommerce.SubscriptionItem(
                sku: text("com.example.offerkit.item\(index).", AdvancedCommerce.skuMaximum),
                description: text("Item \(index) ", AdvancedCommerce.descriptionMaximum),
                displayName: text("Item \(index) ", AdvancedCommerce.displayNameMaximum),
                price: 9_990 + Int64(index),
                offer: AdvancedCommerce.Offer(period: .oneMonth, periodCount: 3, price: 4_990, reason: .acquisition))
        }
        return AdvancedCommerce.SubscriptionCreateRequest(
            requestInfo: AdvancedCommerce.RequestInfo(
                requestReferenceId: UUID(), appAccountToken: UUID(), consistencyToken: "consistency-token-1"),
            currency: "EUR", taxCode: "C003-00-1",
            descriptors: AdvancedCommerce.Descriptors(
                description: text("Everything ", AdvancedCommerce.descriptionMaximum),
                displayName: text("Everything ", AdvancedCommerce.displayNameMaximum)),
            items: items, period: .oneMonth, previousTransactionId: "2000000000000001", storefront: "DEU")
    }

    public func rawSign() {
        keep(try! rawKey.signature(for: rawMessage).rawRepresentation)
    }

    public func legacy() {
        keep(try! signer.sign(legacyRequest))
    }

    public func promotionalOffer() {
        keep(try! signer.sign(promotionalOfferRequest))
    }

    public func introductoryOffer() {
        keep(try! signer.sign(introductoryOfferRequest))
    }

    public func advancedCommerce(_ request: AdvancedCommerce.InAppRequest) {
        keep(try! signer.sign(request))
    }

    public func serverAPIToken() {
        keep(try! signer.serverAPIToken())
    }
}

/// Keeps a result alive so that the optimizer cannot drop the work that made it.
@inline(never)
func keep<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
