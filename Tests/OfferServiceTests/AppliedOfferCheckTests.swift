import Foundation
import HummingbirdTesting
import Logging
import OfferCodes
import OfferJSON
import OfferLedger
import Testing

@testable import LedgerTestSupport
@testable import OfferService

/// With a code ledger, the signing operations refuse a promotional offer the ledger does not know
/// for its product (issue 32 item 4): `codes apply` created the product's offers, and a signature
/// for any other verifies but is not applied on the customer's device. On SQLite and PostgreSQL.
@Suite("Signing promotional offers against the ledger's offers")
struct AppliedOfferCheckTests {
    typealias F = CodeLedgerFixtures
    static let product = "com.example.offerkit.monthly"

    /// A promotional offer of `product` as `codes apply` records it.
    static func promotional(
        _ identifier: String, state: ConnectResource.State = .created, product: String = product, number: Int = 1
    ) -> ConnectResource {
        ConnectResource(
            campaign: F.campaignName, offerKind: .promotionalOffer, offer: identifier, kind: .offer, key: product,
            requestId: "promotional-offer-\(number)", resourceType: "subscriptionPromotionalOffers", state: state,
            id: state == .created ? "67440000\(number)" : nil, bodyDigest: String(repeating: "ab", count: 32),
            error: state == .failed ? "409 STATE_ERROR" : nil, updatedAt: Date())
    }

    static func body(_ identifier: String, product: String = product) -> String {
        #"{"bundleId":"\#(ServiceFixtures.app)","productId":"\#(product)","offerIdentifier":"\#(identifier)"}"#
    }

    @Test(
        "the ledger reads the created promotional offers by app and product; planned, sent and failed ones, and other kinds, are not offers"
    )
    func theLedgerKnowsCreatedOffers() async throws {
        for backend in LedgerBackend.allCases {
            try await F.withLedger(backend) { ledger in
                #expect(try await ledger.appliedPromotionalOffers() == AppliedPromotionalOffers())
                let winBack = ConnectResource(
                    campaign: F.campaignName, offerKind: .winBackOffer, offer: "winback", kind: .offer,
                    key: Self.product,
                    requestId: "win-back-offer-1", resourceType: "winBackOffers", state: .created, id: "6744999999",
                    bodyDigest: String(repeating: "cd", count: 32), updatedAt: Date())
                try await ledger.recordConnectResources([
                    Self.promotional("comeback", number: 1), Self.promotional("loyal", number: 2),
                    Self.promotional("planned", state: .planned, number: 3),
                    Self.promotional("sent", state: .sent, number: 4),
                    Self.promotional("failed", state: .failed, number: 5),
                    Self.promotional("yearly", product: "com.example.offerkit.yearly", number: 6), winBack,
                ])
                let offers = try await ledger.appliedPromotionalOffers()
                #expect(
                    offers.offers == [
                        ServiceFixtures.app: [
                            Self.product: ["comeback", "loyal"], "com.example.offerkit.yearly": ["yearly"],
                        ]
                    ])
                let app = ServiceFixtures.app
                #expect(throws: Never.self) {
                    try offers.check(bundleId: app, productId: Self.product, offerIdentifier: "loyal")
                }
                #expect(throws: Never.self) {
                    try offers.check(bundleId: app, productId: "another.product", offerIdentifier: "any")
                }
                // Another app's product of the same ID: this ledger knows none of its offers.
                #expect(throws: Never.self) {
                    try offers.check(bundleId: "com.example.other", productId: Self.product, offerIdentifier: "any")
                }
                for notAnOffer in ["planned", "sent", "failed", "winback"] {
                    #expect(throws: PromotionalOfferError.self) {
                        try offers.check(bundleId: app, productId: Self.product, offerIdentifier: notAnOffer)
                    }
                }
            }
        }
    }

    /// The cache the service checks from, on a ledger that fails or does not answer.
    @Test("a ledger that fails or hangs: the last copy answers, one read at a time; without a copy, 503")
    func theCacheOutlivesTheLedger() async throws {
        let known = AppliedPromotionalOffers(offers: [ServiceFixtures.app: [Self.product: ["comeback"]]])
        let mode = LockedBox("fail")
        let reads = LockedBox(0)
        let cache = AppliedOfferCache {
            reads.update { $0 += 1 }
            switch mode.value {
            case "fail": throw CancellationError()
            case "hang": try await Task.sleep(for: .seconds(3600))
            default: break
            }
            return known
        }
        let logger = Logger(label: "test")
        func check(_ offer: String) async throws {
            try await cache.check(
                bundleId: ServiceFixtures.app, productId: Self.product, offerIdentifier: offer,
                field: "offerIdentifier",
                logger: logger)
        }
        // No copy yet and the ledger fails: 503, nothing signed.
        await #expect(throws: ServiceProblem.self) { try await check("comeback") }
        mode.set("answer")
        try await Task.sleep(for: .milliseconds(1100))  // past the pause after a failure
        try await check("comeback")
        await #expect(throws: ServiceProblem.self) { try await check("other") }
        // The ledger hangs: after the deadline, the last copy answers; many checks wait for one read.
        mode.set("hang")
        try await Task.sleep(for: .seconds(5))
        let before = reads.value
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<20 { group.addTask { try await check("comeback") } }
            try await group.waitForAll()
        }
        #expect(reads.value == before + 1, "\(reads.value - before) reads for 20 checks")
    }

    /// The Get Retention Message endpoint's check answers from the copy it has: only the first copy
    /// is waited for, and not past `firstRead`; a hanging ledger then refuses, saying why.
    @Test("the retention check never waits for a read once it has a copy; without one it says the ledger was not read")
    func theRetentionCheckDoesNotWait() async throws {
        let known = AppliedPromotionalOffers(offers: [ServiceFixtures.app: [Self.product: ["comeback"]]])
        let mode = LockedBox("hang")
        let reads = LockedBox(0)
        let cache = AppliedOfferCache {
            reads.update { $0 += 1 }
            while mode.value == "hang" { try await Task.sleep(for: .milliseconds(10)) }  // until the test lets go
            return known
        }
        func check(_ offer: String) async -> String? {
            await cache.checkWithoutWaiting(
                bundleId: ServiceFixtures.app, productId: Self.product, offerIdentifier: offer,
                field: "promotionalOffer.offerIdentifier", firstRead: .milliseconds(50), logger: Logger(label: "test"))
        }
        // No copy, and the ledger does not answer: refused, naming why; the read goes on.
        let hanging = await check("comeback")
        #expect(hanging?.contains("were not read yet") == true, "\(hanging ?? "nil")")
        #expect(reads.value == 1)
        // The read ends (the check above did not wait for it); from then on the copy answers.
        mode.set("answer")
        try await cache.check(
            bundleId: ServiceFixtures.app, productId: "warm.up", offerIdentifier: "any", field: "offerIdentifier",
            logger: Logger(label: "test"))
        #expect(await check("comeback") == nil)
        let refusal = await check("other")
        #expect(
            refusal?.hasPrefix(#"promotionalOffer.offerIdentifier "other" is not one of the promotional offers"#)
                == true, "\(refusal ?? "nil")")
    }

    @Test(
        "a single, a legacy and a batch signature of an offer the ledger does not know for the product: 422 at offerIdentifier naming its offers",
        arguments: LedgerBackend.allCases)
    func unknownOffersAreRefused(backend: LedgerBackend) async throws {
        try await F.withLedger(backend) { ledger in
            try await ledger.recordConnectResources([Self.promotional("comeback")])
            let app = ServiceFixtures.application(try F.service(ledger: ledger))
            try await app.test(.router) { client in
                let key = ServiceFixtures.admin.secret
                for path in ["/v1/signatures/promotional-offer", "/v1/signatures/legacy-promotional-offer"] {
                    let known = try await client.call(.post, path, body: Self.body("comeback"), key: key)
                    #expect(known.status == 200, "\(known.text)")
                    let unknown = try await client.call(.post, path, body: Self.body("comeback_typo"), key: key)
                    #expect(unknown.status == 422, "\(unknown.text)")
                    #expect(unknown.json?["type"] == .string("urn:offerkit:problem:invalid-field"))
                    #expect(unknown.json?["field"] == .string("offerIdentifier"))
                    var detail = ""
                    if case .string(let text)? = unknown.json?["detail"] { detail = text }
                    #expect(
                        detail.contains(
                            #"offerIdentifier "comeback_typo" is not one of the promotional offers of product "com.example.offerkit.monthly""#
                        ) && detail.contains(": comeback."), "\(detail)")
                    // A product the ledger knows no promotional offer of is not checked.
                    let other = try await client.call(
                        .post, path, body: Self.body("anything", product: "com.example.offerkit.yearly"), key: key)
                    #expect(other.status == 200, "\(other.text)")
                }
                let batch = try await client.call(
                    .post, "/v1/signatures/batch",
                    body: #"{"requests":[{"type":"promotional-offer","#
                        + Self.body("comeback").dropFirst() + #",{"type":"promotional-offer","#
                        + Self.body("nope").dropFirst() + "]}",
                    key: key)
                #expect(batch.status == 200, "\(batch.text)")
                var results: [JSONValue] = []
                if case .array(let items)? = batch.json?["results"] { results = items }
                #expect(results.count == 2)
                #expect(results.first?["jws"] != nil, "\(batch.text)")
                #expect(results.last?["status"] == .integer(422), "\(batch.text)")
                #expect(results.last?["problem"]?["field"] == .string("offerIdentifier"), "\(batch.text)")
            }
        }
    }

    @Test(
        "an offer codes apply created after the service started is signable at once (the ledger is read again before a refusal)",
        arguments: LedgerBackend.allCases)
    func aNewOfferIsSignableAtOnce(backend: LedgerBackend) async throws {
        try await F.withLedger(backend) { ledger in
            try await ledger.recordConnectResources([Self.promotional("comeback")])
            let app = ServiceFixtures.application(try F.service(ledger: ledger))
            try await app.test(.router) { client in
                let key = ServiceFixtures.admin.secret
                let path = "/v1/signatures/promotional-offer"
                #expect(try await client.call(.post, path, body: Self.body("comeback"), key: key).status == 200)
                #expect(try await client.call(.post, path, body: Self.body("loyal"), key: key).status == 422)
                try await ledger.recordConnectResources([Self.promotional("loyal", number: 2)])
                // A refusal reads the ledger again once its copy is a second old.
                try await Task.sleep(for: .milliseconds(1100))
                let now = try await client.call(.post, path, body: Self.body("loyal"), key: key)
                #expect(now.status == 200, "\(now.text)")
            }
        }
    }

    @Test("without a ledger, nothing is checked")
    func withoutALedger() async throws {
        let app = ServiceFixtures.application(try ServiceFixtures.service())
        try await app.test(.router) { client in
            let signed = try await client.call(
                .post, "/v1/signatures/promotional-offer", body: Self.body("whatever"),
                key: ServiceFixtures.admin.secret)
            #expect(signed.status == 200, "\(signed.text)")
        }
    }

    /// The example rules sign WINBACK50 of the monthly product in two rules (rules 0 and 1).
    @Test(
        "Retention Messaging rules whose promotional offer the ledger does not know for the product stop the service from starting, each rule named",
        arguments: LedgerBackend.allCases)
    func retentionRulesAreChecked(backend: LedgerBackend) async throws {
        try await F.withLedger(backend) { ledger in
            var configuration = RetentionServiceFixtures.configuration()
            configuration.apiKeys += [F.codesOnly.key]
            let service = try OfferService(configuration: configuration, ledger: ledger, clock: F.clock)
            // The ledger knows no promotional offer of the product: nothing to check against.
            try await service.checkRetentionOffers(source: "service.json")
            try await ledger.recordConnectResources([Self.promotional("comeback")])
            let error = await #expect(throws: ConfigurationError.self) {
                try await service.checkRetentionOffers(source: "service.json")
            }
            guard case .invalidFields(let problems)? = error else {
                Issue.record("expected the rules' problems, got \(String(describing: error))")
                return
            }
            #expect(
                problems.map(\.field) == [
                    #"retention.apps["\#(ServiceFixtures.app)"][0].promotionalOffer.offerIdentifier"#,
                    #"retention.apps["\#(ServiceFixtures.app)"][1].promotionalOffer.offerIdentifier"#,
                ])
            #expect(problems.allSatisfy { $0.message.contains(#""WINBACK50" is not one of the promotional offers"#) })
            try await ledger.recordConnectResources([Self.promotional("WINBACK50", number: 2)])
            try await service.checkRetentionOffers(source: "service.json")
        }
    }
}

/// A value tests share with a closure the cache calls.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }
    func set(_ value: Value) { lock.withLock { stored = value } }
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
