import Foundation
import HummingbirdTesting
import OfferCodes
import OfferJSON
import OfferLedger
import OfferSigning
import Testing

@testable import LedgerTestSupport
@testable import OfferService

/// `GET /v1/campaigns/{name}/status`, on an SQLite and a PostgreSQL ledger (``CodeLedgerFixtures``).
@Suite("GET /v1/campaigns/{name}/status")
struct CampaignStatusTests {
    typealias F = CodeLedgerFixtures

    @Test(
        "the status counts every batch: recorded, stored, assigned, left, expired; and the quarter's usage",
        arguments: LedgerBackend.allCases)
    func statusNumbers(backend: LedgerBackend) async throws {
        try await F.withLedger(backend) { ledger in
            let app = ServiceFixtures.application(try F.service(ledger: ledger))
            try await app.test(.router) { client in
                for recipient in ["a", "b"] { #expect(try await client.claim(recipient).status == 200) }
                #expect(try await client.claim("a", offer: "Gems").status == 200)
                #expect(try await client.claim("a", offer: "Trial", environment: "sandbox").status == 200)

                let response = try await client.send(.get, F.statusPath(), key: F.codesOnly.secret)
                #expect(response.status == 200, "\(response.text)")
                #expect(response.headers[.cacheControl] == "no-store")
                let json = try #require(response.json)
                try SchemaValidator().validate(json, against: CodeSchemas.status)
                let report = CampaignStatusReport(
                    try await ledger.status(campaign: F.campaignName, today: F.today), today: F.today,
                    resources: try await ledger.connectResources(campaign: F.campaignName))
                #expect(json == report.json)
                #expect(json["today"] == .string(F.today.description) && json["appStoreConnect"] == .array([]))
                #expect(json["campaign"] == .string(F.campaignName) && json["appAppleId"] == .string(F.appAppleId))

                guard case .array(let offers)? = json["offers"] else {
                    Issue.record("offers is not an array: \(response.text)")
                    return
                }
                #expect(offers.map { $0["offer"] } == F.offers.map { .string($0) })
                #expect(offers.map { $0["active"] } == F.offers.map { .bool($0 != "Old") })
                func batches(_ offer: String) -> [JSONValue] {
                    guard case .array(let list)? = offers.first(where: { $0["offer"] == .string(offer) })?["batches"]
                    else {
                        return []
                    }
                    return list
                }
                func counts(_ batch: JSONValue) -> [Int64?] {
                    ["codeCount", "storedCodes", "assigned", "left"].map { batch[$0]?.int64 }
                }
                let half = try #require(batches("Half").first)
                #expect(counts(half) == [3, 3, 2, 1])
                #expect(half["kind"] == .string("custom") && half["batch"] == .integer(1))
                #expect(half["quarter"] == .string("2027-Q1") && half["expirationDate"] == .string("2027-05-31"))
                #expect(half["expired"] == .bool(false) && half["environment"] == .string("PRODUCTION"))
                let gems = try #require(batches("Gems").first)
                #expect(counts(gems) == [1, 1, 1, 1] && gems["redemptionLimit"] == .integer(2))
                let trial = batches("Trial")
                #expect(trial.map(counts) == [[2, 2, 0, 2], [1, 1, 1, 0]])
                #expect(trial.map { $0["environment"] } == [.string("PRODUCTION"), .string("SANDBOX")])
                #expect(trial.map { $0["batch"] } == [.integer(1), .integer(2)])
                #expect(trial.map { $0["kind"] } == [.string("oneTimeUse"), .string("oneTimeUse")])
                #expect(batches("Later").map(counts) == [[5, 0, 0, 0]])
                let expired = try #require(batches("Expired").first)
                #expect(expired["expired"] == .bool(true) && expired["expirationDate"] == .string("2027-01-15"))

                let usage = try #require(json["usage"])
                #expect(usage["quarter"] == .string("2027-Q1"))
                // Half 3, Gems 1 × 2, Trial 2, Later 5, Old 1, Expired 1 in production; Trial 1 in the sandbox.
                #expect(usage["productionCodes"] == .integer(14) && usage["sandboxCodes"] == .integer(1))
                #expect(usage["productionLimit"] == .integer(CampaignLimits.productionCodesPerQuarter))
                #expect(usage["sandboxLimit"] == .integer(CampaignLimits.sandboxCodesPerQuarter))
                #expect(usage["activeOffers"] == .integer(5))
                #expect(usage["activeOfferLimit"] == .integer(CampaignLimits.activeOffersPerApp))
            }
        }
    }

    @Test(
        "an unknown campaign is 404, a name the schema refuses 422, another method 405, no codes scope 403",
        arguments: LedgerBackend.allCases)
    func problems(backend: LedgerBackend) async throws {
        try await F.withLedger(backend) { ledger in
            let app = ServiceFixtures.application(try F.service(ledger: ledger))
            try await app.test(.router) { client in
                let unknown = try await client.send(.get, F.statusPath("summer-2027"), key: F.codesOnly.secret)
                #expect(unknown.status == 404 && unknown.problemSlug == "unknown-campaign", "\(unknown.text)")
                #expect(unknown.string("detail")?.contains("summer-2027") == true)
                let long = try await client.send(
                    .get, F.statusPath(String(repeating: "n", count: 65)), key: F.codesOnly.secret)
                #expect(long.status == 422 && long.string("field") == "name", "\(long.text)")
                // The parameter is percent-decoded: %2D is "-".
                let encoded = try await client.send(.get, F.statusPath("spring%2D2027"), key: F.codesOnly.secret)
                #expect(encoded.status == 200, "\(encoded.text)")
                let post = try await client.send(.post, F.statusPath(), json: "{}", key: F.codesOnly.secret)
                #expect(post.status == 405 && post.problemSlug == "method-not-allowed", "\(post.text)")
                #expect(post.headers[.allow] == "GET, HEAD")
                let forbidden = try await client.send(.get, F.statusPath(), key: F.campaignsOnly.secret)
                #expect(forbidden.status == 403 && forbidden.problemSlug == "forbidden", "\(forbidden.text)")
                let anonymous = try await client.send(.get, F.statusPath())
                #expect(anonymous.status == 401, "\(anonymous.text)")
            }
        }
    }

    @Test("without a ledger: no status route (404) and no ledger operations in the served OpenAPI document")
    func absentWithoutLedger() async throws {
        let stateless = ServiceFixtures.application(try F.service(ledger: nil))
        try await stateless.test(.router) { client in
            let status = try await client.send(.get, F.statusPath(), key: ServiceFixtures.admin.secret)
            #expect(status.status == 404 && status.problemSlug == "not-found", "\(status.text)")
            let document = try #require(try await client.send(.get, "/openapi.json").json)
            #expect(document == OpenAPIDocument.document(includingLedger: false, retentionPath: nil))
            #expect(document["paths"]?[F.claimPath] == nil)
            #expect(document["paths"]?["/v1/campaigns/{name}/status"] == nil)
            #expect(document["components"]?["schemas"]?["CodeClaim"] == nil)
            guard case .array(let tags)? = document["tags"] else {
                Issue.record("no tags")
                return
            }
            #expect(!tags.contains { $0["name"] == .string("Codes") })
        }
        let withLedger = ServiceFixtures.application(try F.service(ledger: try await CodeLedger.inMemory()))
        try await withLedger.test(.router) { client in
            let document = try #require(try await client.send(.get, "/openapi.json").json)
            #expect(document == OpenAPIDocument.document(includingLedger: true, retentionPath: nil))
            #expect(document["paths"]?[F.claimPath]?["post"]?["x-offerkit-requires-ledger"] == .bool(true))
        }
    }
}
