// In-process signing benchmarks, run by `Benchmarks/run` (or `swift package benchmark` in
// Benchmarks/). Every benchmark does `operationsPerIteration` operations per measured iteration,
// split evenly over its threads, so `Benchmarks/run` turns the median wall-clock time of an
// iteration into operations per second the same way for all of them. The reference every ratio
// divides by is `raw P-256 sign`: swift-crypto signing a JWS-sized message, with nothing of ours
// around it.
import Benchmark
import Crypto
import Dispatch
import Foundation
import OfferSigning

/// Operations per measured iteration, for every benchmark (kept in step with `Benchmarks/run`).
let operationsPerIteration = 1_000

/// `Benchmarks/run --quick` sets `OFFERKIT_BENCHMARK_QUICK=true` to check the script, not to measure.
let quick = ProcessInfo.processInfo.environment["OFFERKIT_BENCHMARK_QUICK"] == "true"

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: quick ? .milliseconds(300) : .seconds(3),
        maxIterations: quick ? 10 : 1_000
    )
    let fixture = SigningFixture.shared

    measure("raw P-256 sign") { fixture.rawSign() }
    measure("raw P-256 sign", threads: 2) { fixture.rawSign() }
    measure("legacy signature") { fixture.legacy() }
    measure("V2 promotional offer JWS") { fixture.promotionalOffer() }
    measure("V2 promotional offer JWS", threads: 2) { fixture.promotionalOffer() }
    measure("introductory-offer eligibility JWS") { fixture.introductoryOffer() }
    measure("Advanced Commerce JWS, small") { fixture.advancedCommerce(fixture.smallAdvancedCommerce) }
    measure("Advanced Commerce JWS, large") { fixture.advancedCommerce(fixture.largeAdvancedCommerce) }
    measure("App Store Server API token") { fixture.serverAPIToken() }
}

/// Registers a benchmark that runs `operation` `operationsPerIteration` times per iteration,
/// shared evenly by `threads` threads that all use the same signer.
func measure(_ name: String, threads: Int = 1, _ operation: @escaping @Sendable () -> Void) {
    precondition(operationsPerIteration % threads == 0)
    let perThread = operationsPerIteration / threads
    Benchmark("\(name) ×\(threads)") { benchmark in
        precondition(benchmark.scaledIterations.count == operationsPerIteration)
        if threads == 1 {
            for _ in 0..<perThread { operation() }
        } else {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                for _ in 0..<perThread { operation() }
            }
        }
    }
}

/// One signer and one request of each kind, made once and shared by every benchmark.
struct SigningFixture: Sendable {
    static let shared = SigningFixture()

    let signer: OfferSigner
    let rawKey = P256.Signing.PrivateKey()
    /// A message as long as a V2 JWS signing input.
    let rawMessage: [UInt8]
    let promotionalOfferRequest = PromotionalOfferRequest(
        productId: "com.example.offerkit.monthly", offerIdentifier: "WINBACK50")
    let legacyRequest = LegacyPromotionalOfferRequest(
        productId: "com.example.offerkit.monthly", offerIdentifier: "WINBACK50")
    let introductoryOfferRequest = IntroductoryOfferEligibilityRequest(
        productId: "com.example.offerkit.monthly", allowIntroductoryOffer: true, transactionId: "2000000123456789")
    let smallAdvancedCommerce: AdvancedCommerce.InAppRequest
    let largeAdvancedCommerce: AdvancedCommerce.InAppRequest

    init() {
        do {
            signer = try OfferSigner(
                key: SigningKey.generate(keyID: "BENCHKEY01"), issuerID: "98802e6e-bab8-4f06-8c88-a2582cda3c9c",
                bundleID: "com.example.offerkit.demo")
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
    /// name 30), each with an offer: about 7 KB of request JSON.
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

    func rawSign() {
        blackHole(try! rawKey.signature(for: rawMessage).rawRepresentation)
    }

    func legacy() {
        blackHole(try! signer.sign(legacyRequest))
    }

    func promotionalOffer() {
        blackHole(try! signer.sign(promotionalOfferRequest))
    }

    func introductoryOffer() {
        blackHole(try! signer.sign(introductoryOfferRequest))
    }

    func advancedCommerce(_ request: AdvancedCommerce.InAppRequest) {
        blackHole(try! signer.sign(request))
    }

    func serverAPIToken() {
        blackHole(try! signer.serverAPIToken())
    }
}
