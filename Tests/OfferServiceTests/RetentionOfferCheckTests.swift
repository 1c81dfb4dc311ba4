import AppleTestChain
import Foundation
import HummingbirdTesting
import Logging
import OfferAppleVerification
import OfferCodes
import OfferJSON
import OfferLedger
import OfferRetentionEndpoint
import Testing

@testable import LedgerTestSupport
@testable import OfferService

/// With a code ledger, the Get Retention Message endpoint signs only promotional offers the ledger
/// knows for the product, whoever decided: rules are checked when `serve` starts; a decider of the
/// embedding app's own is checked at each answer, which is `{}` (and a hook failure) for an offer
/// App Store Connect does not have. On SQLite and PostgreSQL.
@Suite("Retention Messaging: a decider's promotional offer against the ledger's offers")
struct RetentionOfferCheckTests {
    typealias F = CodeLedgerFixtures
    typealias R = RetentionServiceFixtures

    struct Fixed: RetentionDecider {
        let decision: RetentionDecision
        func decide(for request: DecodedRealtimeRequestBody, bundleId: String) async throws -> RetentionDecision {
            decision
        }
    }

    static func offer(_ identifier: String, product: String = AppliedOfferCheckTests.product) -> RetentionDecision {
        .promotionalOffer(
            messageIdentifier: RetentionExample.switchMessage, productId: product, offerIdentifier: identifier,
            signature: .v2)
    }

    /// The service, its copy of the ledger's offers read first (as a signing request would): the
    /// endpoint waits at most 300 ms for the first copy, less than a loaded test run may need.
    static func service(ledger: CodeLedger, decision: RetentionDecision, metrics: ServiceMetrics) async throws
        -> OfferService
    {
        let service = try OfferService(
            configuration: R.configuration(), ledger: ledger, metrics: metrics,
            retentionDecider: Fixed(decision: decision), retentionDeciderTimeBudget: .seconds(60))
        try await service.state.ledger?.appliedOffers.check(
            bundleId: ServiceFixtures.app, productId: "warm.up", offerIdentifier: "any", field: "offerIdentifier",
            logger: Logger(label: "test"))
        return service
    }

    @Test(arguments: LedgerBackend.allCases)
    func anOfferTheLedgerDoesNotKnowIsNotSigned(backend: LedgerBackend) async throws {
        try await F.withLedger(backend) { ledger in
            try await ledger.recordConnectResources([AppliedOfferCheckTests.promotional("comeback")])
            // Known: signed, for this customer.
            let known = try await Self.service(
                ledger: ledger, decision: Self.offer("comeback"), metrics: ServiceMetrics())
            try await ServiceFixtures.application(known).test(.router) { client in
                let response = try await client.call(.post, R.path, body: try R.body())
                #expect(response.status == 200)
                #expect(response.json?["promotionalOffer"]?["promotionalOfferSignatureV2"] != nil, "\(response.text)")
            }
            // Unknown for a product the ledger has offers of: {} and a hook failure naming the offers.
            let records = LogRecords()
            let logger = Logger(label: "test") { _ in CapturingLogHandler(records: records) }
            let metrics = ServiceMetrics()
            let unknown = try await Self.service(
                ledger: ledger, decision: Self.offer("comeback_typo"), metrics: metrics)
            try await unknown.testApplication(operations: unknown.routedOperations, logger: logger).test(.router) {
                client in
                let response = try await client.call(.post, R.path, body: try R.body())
                #expect(response.status == 200 && response.text == "{}", "\(response.text)")
            }
            let warning = records.all.first { $0.level == .warning }
            let text = "\(warning?.message ?? "") \(warning?.metadata ?? [:])"
            #expect(text.contains("comeback_typo") && text.contains("comeback"), "\(records.all)")
            // A product the ledger knows no promotional offer of is signed as before.
            let other = try await Self.service(
                ledger: ledger, decision: Self.offer("anything", product: "com.example.offerkit.yearly"),
                metrics: ServiceMetrics())
            try await ServiceFixtures.application(other).test(.router) { client in
                let response = try await client.call(.post, R.path, body: try R.body())
                #expect(response.json?["promotionalOffer"] != nil, "\(response.text)")
            }
        }
    }
}
