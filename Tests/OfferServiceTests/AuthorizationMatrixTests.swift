import Foundation
import HTTPTypes
import HummingbirdTesting
import OfferCodes
import OfferJSON
import OfferLedger
import OfferSigning
import Testing

@testable import OfferService

/// Every operation that needs an API key applies the key's scope and its bundle-ID limit, to the
/// app the operation acts for (``BundleLimit``): a request's `bundleId`, each batch item's, the
/// campaign's `app.bundleId`, the app the ledger recorded for a campaign, or every app.
@Suite("Authorization: every operation applies the key's scope and its bundle-ID limit")
struct AuthorizationMatrixTests {
    typealias F = CodeLedgerFixtures

    /// How a key is wrong for an operation.
    enum Wrong: String, CaseIterable, Sendable {
        /// Every scope but the one the operation needs (every bundle ID).
        case scope
        /// Every scope, but only the other app's bundle ID.
        case bundle
        /// No `Authorization` at all.
        case noKey
    }

    /// One operation, called for ``ServiceFixtures/app`` (the campaigns and the ledger's campaign
    /// belong to it).
    struct Call: Sendable, CustomTestStringConvertible {
        let operation: String
        let method: HTTPRequest.Method
        let path: String
        let body: String?
        /// The scope a key needs; for the batch, its item's.
        let scope: OperationScope
        /// The member a refused bundle ID names; `nil` for operations that act for every app.
        let bundleField: String?
        /// Whether the answer is a batch whose one item is refused, not the request.
        var isBatch = false

        var testDescription: String { "\(operation) (\(method.rawValue) \(path))" }
    }

    static let app = ServiceFixtures.app
    static let promotional =
        #"{"bundleId":"com.example.offerkit.demo","productId":"com.example.monthly","offerIdentifier":"WINBACK50"}"#
    static let legacy =
        #"{"bundleId":"com.example.offerkit.demo","productId":"com.example.monthly","offerIdentifier":"WINBACK50","appAccountToken":"e3b1c9a2-5f4d-4c8e-9a7b-1d2e3f4a5b6c"}"#
    /// A valid campaign of the app with one given custom code, planned without `customCodes`.
    static let campaign = """
        {"name":"gems-launch","app":{"bundleId":"com.example.offerkit.demo","appAppleId":"1234567890"},
         "offers":[{"referenceName":"Gem pack launch",
           "product":{"id":"6450000009","productId":"com.example.offerkit.gems100","type":"CONSUMABLE"},
           "paymentMode":"ONE_TIME","customerEligibilities":["NON_SPENDER"],"prices":[{"territory":"USA","free":true}],
           "customCodes":[{"codes":["VIPABCD"],"redemptionLimit":5}]}]}
        """

    static let calls: [Call] = [
        Call(
            operation: "signPromotionalOffer", method: .post, path: "/v1/signatures/promotional-offer",
            body: promotional, scope: .promotionalOffer, bundleField: "bundleId"),
        Call(
            operation: "signLegacyPromotionalOffer", method: .post, path: "/v1/signatures/legacy-promotional-offer",
            body: legacy, scope: .legacyPromotionalOffer, bundleField: "bundleId"),
        Call(
            operation: "signLegacyPromotionalOfferDeprecatedPath", method: .post,
            path: "/v1/signatures/promotional-offer-v1", body: legacy, scope: .legacyPromotionalOffer,
            bundleField: "bundleId"),
        Call(
            operation: "signIntroductoryOfferEligibility", method: .post,
            path: "/v1/signatures/introductory-offer-eligibility",
            body:
                #"{"bundleId":"com.example.offerkit.demo","productId":"com.example.monthly","allowIntroductoryOffer":false,"transactionId":"2000000123456789"}"#,
            scope: .introductoryOfferEligibility, bundleField: "bundleId"),
        Call(
            operation: "signAdvancedCommerceRequest", method: .post, path: "/v1/signatures/advanced-commerce",
            body:
                #"{"bundleId":"com.example.offerkit.demo","request":{"operation":"CREATE_ONE_TIME_CHARGE","version":"1","requestInfo":{"requestReferenceId":"3a6c8a34-52b5-4a8c-9b1e-0f1c2d3e4f50"},"currency":"USD","taxCode":"C003-00-2","item":{"SKU":"GEMS_500","description":"500 gems","displayName":"500 Gems","price":4990}}}"#,
            scope: .advancedCommerce, bundleField: "bundleId"),
        Call(
            operation: "signBatch", method: .post, path: "/v1/signatures/batch",
            body: SignBatchTests.batch([SignBatchTests.item("promotional-offer", promotional)]),
            scope: .promotionalOffer, bundleField: "bundleId", isBatch: true),
        Call(
            operation: "createServerAPIToken", method: .post, path: "/v1/tokens/server-api",
            body: #"{"bundleId":"com.example.offerkit.demo"}"#, scope: .serverAPIToken, bundleField: "bundleId"),
        Call(
            operation: "createConnectAPIToken", method: .post, path: "/v1/tokens/connect-api", body: "{}",
            scope: .connectAPIToken, bundleField: nil),
        Call(
            operation: "validateCampaign", method: .post, path: "/v1/campaigns/validate",
            body: #"{"campaign":\#(campaign),"today":"2027-03-15"}"#, scope: .campaigns,
            bundleField: "campaign.app.bundleId"),
        Call(
            operation: "planCampaign", method: .post, path: "/v1/campaigns/plan",
            body: #"{"campaign":\#(campaign),"today":"2027-03-15"}"#, scope: .campaigns,
            bundleField: "campaign.app.bundleId"),
        Call(
            operation: "claimCode", method: .post, path: F.claimPath, body: F.claim("user-1"), scope: .codes,
            bundleField: "campaign"),
        Call(
            operation: "campaignStatus", method: .get, path: F.statusPath(), body: nil, scope: .codes,
            bundleField: "name"),
        Call(
            operation: "metrics", method: .get, path: "/metrics", body: nil, scope: .metrics, bundleField: nil),
    ]

    static var cases: [(Call, Wrong)] { calls.flatMap { call in Wrong.allCases.map { (call, $0) } } }

    /// A key with every scope but `scope`, for every app.
    static func withoutScope(_ scope: OperationScope) -> (secret: String, key: APIKey) {
        APIKey.generate(name: "without-\(scope.rawValue)", scopes: Set(OperationScope.allCases).subtracting([scope]))
    }

    /// A key with every scope, for the other app only.
    static let otherAppOnly = APIKey.generate(name: "other-app-only", bundleIds: [ServiceFixtures.otherApp])

    /// The fixtures' service over the ledger of ``CodeLedgerFixtures``, with `keys` besides the admin.
    static func service(keys: [APIKey]) async throws -> OfferService {
        let ledger = try await CodeLedger.inMemory()
        try await F.populate(ledger)
        return try F.service(ledger: ledger) { $0.apiKeys += keys }
    }

    @Test("every operation that needs an API key is in the matrix, and names what its bundle-ID limit covers")
    func everyOperationIsCovered() {
        let keyed = OfferService.operations.filter { $0.scope != nil || $0.authorizesPerItem }
        #expect(Set(Self.calls.map(\.operation)) == Set(keyed.map(\.id)))
        for operation in OfferService.operations {
            let needsKey = operation.scope != nil || operation.authorizesPerItem
            #expect(needsKey == (operation.bundleLimit != .none), "\(operation.id): \(operation.bundleLimit)")
        }
        for call in Self.calls {
            let operation = OfferService.operations.first { $0.id == call.operation }
            let path = operation?.path.replacingOccurrences(of: "{name}", with: F.campaignName)
            #expect(path == call.path && operation?.method == call.method, "\(call)")
            #expect(operation?.scope == (call.isBatch ? nil : call.scope), "\(call)")
            #expect((operation?.bundleLimit == .everyApp) == (call.bundleField == nil), "\(call)")
        }
    }

    @Test("each operation: a key without the scope, one for another app and no key are refused", arguments: cases)
    func refused(call: Call, wrong: Wrong) async throws {
        let withoutScope = Self.withoutScope(call.scope)
        let service = try await Self.service(keys: [withoutScope.key, Self.otherAppOnly.key])
        try await ServiceFixtures.application(service).test(.router) { client in
            // The request itself is fine: the admin key gets its answer.
            let allowed = try await client.call(
                call.method, call.path, body: call.body, key: ServiceFixtures.admin.secret)
            #expect(allowed.status == 200, "\(allowed.text.prefix(500))")
            if call.isBatch { #expect(try Self.item(allowed)["status"] == .integer(200), "\(allowed.text)") }

            let key: String? =
                switch wrong {
                case .scope: withoutScope.secret
                case .bundle: Self.otherAppOnly.secret
                case .noKey: nil
                }
            let response = try await client.call(call.method, call.path, body: call.body, key: key)
            if wrong == .noKey {
                #expect(response.status == 401 && response.problemSlug == "unauthorized", "\(response.text)")
                return
            }
            // A batch answers 200 and refuses its item, with the problem the item's own path answers.
            let problem: JSONValue
            if call.isBatch {
                #expect(response.status == 200, "\(response.text)")
                let item = try Self.item(response)
                #expect(item["status"] == .integer(403), "\(response.text)")
                problem = try #require(item["problem"])
            } else {
                #expect(response.status == 403, "\(response.text)")
                problem = try #require(response.json)
            }
            #expect(problem["type"] == .string("urn:offerkit:problem:forbidden"), "\(response.text)")
            let detail = Self.text(problem["detail"])
            switch wrong {
            case .scope:
                #expect(detail.contains("'\(call.scope.rawValue)'"), "\(detail)")
            case .bundle:
                if let field = call.bundleField {
                    #expect(problem["field"] == .string(field), "\(response.text)")
                    #expect(detail.contains(Self.app) && detail.contains("limited to \(ServiceFixtures.otherApp)"))
                } else {
                    #expect(detail.contains("limited to some bundle IDs"), "\(detail)")
                }
            case .noKey:
                break
            }
        }
    }

    /// The text of a JSON string, or "".
    static func text(_ value: JSONValue?) -> String {
        guard case .string(let text)? = value else { return "" }
        return text
    }

    /// The one result of a batch answer.
    static func item(_ response: ServiceResponse) throws -> JSONValue {
        guard case .array(let results)? = response.json?["results"], results.count == 1 else {
            throw ItemMissing(text: response.text)
        }
        return results[0]
    }

    struct ItemMissing: Error, CustomStringConvertible {
        let text: String
        var description: String { "not a batch answer of one result: \(text)" }
    }

    @Test("a key for codes of another app neither claims codes of this app's campaign nor reads its status")
    func codesKeyOfAnotherApp() async throws {
        // As `offerkit api-key create --scope codes --bundle-id com.example.offerkit.other` makes it.
        let other = APIKey.generate(name: "codes-other", scopes: [.codes], bundleIds: [ServiceFixtures.otherApp])
        let service = try await Self.service(keys: [other.key])
        try await ServiceFixtures.application(service).test(.router) { client in
            let claim = try await client.claim("user-1", key: other.secret)
            #expect(claim.status == 403 && claim.string("field") == "campaign", "\(claim.text)")
            #expect(claim.string("detail")?.contains("campaign spring-2027") == true, "\(claim.text)")
            let status = try await client.send(.get, F.statusPath(), key: other.secret)
            #expect(status.status == 403 && status.string("field") == "name", "\(status.text)")
            // Nothing was handed out.
            let read = try await client.send(.get, F.statusPath(), key: ServiceFixtures.admin.secret)
            guard case .array(let offers)? = read.json?["offers"], case .array(let batches)? = offers.first?["batches"]
            else {
                Issue.record("no offers: \(read.text)")
                return
            }
            #expect(batches.first?["assigned"] == .integer(0), "\(read.text)")
        }
    }

    @Test("a key limited to a bundle ID the service does not serve gets a 403 that says so")
    func keyLimitedToAnUnknownApp() async throws {
        let nowhere = APIKey.generate(name: "nowhere", bundleIds: ["com.example.nowhere"])
        let service = try await Self.service(keys: [nowhere.key])
        try await ServiceFixtures.application(service).test(.router) { client in
            for call in Self.calls where call.bundleField != nil && !call.isBatch {
                let response = try await client.call(call.method, call.path, body: call.body, key: nowhere.secret)
                #expect(response.status == 403, "\(call): \(response.text)")
                #expect(
                    response.string("detail")?.contains("it is limited to com.example.nowhere") == true,
                    "\(call): \(response.text)")
            }
        }
    }

    @Test("an app the service does not serve is 404 unknown-app for a key that may use it")
    func unconfiguredApp() async throws {
        // The ledger's campaign belongs to com.example.offerkit.demo, which this service does not serve.
        let ledger = try await CodeLedger.inMemory()
        try await F.populate(ledger)
        let service = try F.service(ledger: ledger) { $0.apps[ServiceFixtures.app] = nil }
        try await ServiceFixtures.application(service).test(.router) { client in
            let admin = ServiceFixtures.admin.secret
            let claim = try await client.claim("user-1", key: admin)
            #expect(claim.status == 404 && claim.problemSlug == "unknown-app", "\(claim.text)")
            #expect(claim.string("field") == "campaign", "\(claim.text)")
            let status = try await client.send(.get, F.statusPath(), key: admin)
            #expect(status.status == 404 && status.problemSlug == "unknown-app", "\(status.text)")
            #expect(status.string("field") == "name", "\(status.text)")
            for path in ["/v1/campaigns/validate", "/v1/campaigns/plan"] {
                let response = try await client.send(
                    .post, path, json: #"{"campaign":\#(Self.campaign),"today":"2027-03-15"}"#, key: admin)
                #expect(response.status == 404 && response.problemSlug == "unknown-app", "\(path): \(response.text)")
                #expect(response.string("field") == "campaign.app.bundleId", "\(path): \(response.text)")
            }
        }
    }

    @Test("the service's guide (docs/service.md) and the OpenAPI document carry the authorization table")
    func tableIsDocumented() throws {
        let table = BundleLimit.authorizationTable(OfferService.operations)
        #expect(ReadmeServiceSectionTests.readme.contains(table), "docs/service.md lacks the table:\n\(table)")
        let description = OpenAPIDocument.document(includingLedger: true, retentionPath: nil)["info"]?["description"]
        #expect(Self.text(description).contains(table))
    }
}
