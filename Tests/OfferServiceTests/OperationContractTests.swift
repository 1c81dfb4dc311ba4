import Foundation
import NIOHTTP1
import OfferCodes
import OfferJSON
import OfferLedger
import OfferRetentionEndpoint
import OfferService
import OfferSigning
import Testing

/// The contract (module OfferServiceContract, which links no server) and the service that answers it
/// agree: every operation has its handler, and what the contract states without the server's
/// modules is what they say.
@Suite("Operation contracts")
struct OperationContractTests {
    @Test("the service routes every operation of the contract, in its order, and no other")
    func everyContractHasItsHandler() {
        let routed = ServiceOperation.all.map { "\($0.id) \($0.method.rawValue) \($0.path)" }
        let described = OperationContract.all.map { "\($0.id) \($0.method.rawValue) \($0.path)" }
        #expect(routed == described)
        #expect(OfferService.operations.map(\.contract.id) == OperationContract.all.map(\.id))
    }

    @Test("each batch item type is signed by the operation the contract names for it")
    func batchItemsHaveTheirOperation() {
        for type in SigningOperation.allCases {
            #expect(ServiceOperation.signingByType[type]?.id == BatchSchemas.operation(for: type).id, "\(type)")
        }
    }

    @Test("the Get Retention Message endpoint's body limit is the one OfferRetentionEndpoint reads with")
    func retentionBodyLimit() {
        #expect(RetentionSchemas.maximumRequestBytes == RealtimeRequestBody.maximumBytes)
        #expect(OperationContract.getRetentionMessage(path: "/x").rawBodyLimit == RealtimeRequestBody.maximumBytes)
        #expect(RetentionConfiguration.defaultPath == RetentionSchemas.defaultPath)
    }

    @Test("the bad-request example quotes what NIO's parser says of a body cut short")
    func badRequestExample() {
        #expect("\(HTTPParserError.invalidEOFState)" == ProblemType.exampleParserError)
        #expect(
            ServiceProblem.badRequest(HTTPParserError.invalidEOFState).detail
                == ServiceProblem.badRequest(ServiceProblem.bodyEndedEarly, parser: ProblemType.exampleParserError)
                .detail)
    }

    @Test("the API key format the document states is the service's")
    func apiKeyPrefix() {
        #expect(APIKey.secretPrefix == APIKeyFormat.secretPrefix)
    }

    @Test("the campaign status example is what the ledger's report writes for the example campaign")
    func campaignStatusExample() throws {
        // Compared as text: the members' order counts too.
        let stated = try JSONValue.parse(Array(CodeSchemas.exampleStatusText.utf8))
        #expect(Self.exampleReport.json.text(pretty: true) == stated.text(pretty: true))
    }

    /// The example campaign's status, two of its offers, on 2027-03-15, after `codes apply` created
    /// the first offer.
    static let exampleReport = CampaignStatusReport(
        exampleLedgerStatus, today: CampaignSchemas.exampleToday,
        resources: [
            ConnectResource(
                campaign: "spring-2027", offer: "Spring trial, 1 month free", kind: .offer, key: "",
                requestId: "offer-1", resourceType: "subscriptionOfferCodes", state: .created, id: "6450000101",
                bodyDigest: "", updatedAt: Date(timeIntervalSince1970: 1_805_103_000.125))
        ])

    /// The ledger's status of the example campaign, two of its offers.
    static let exampleLedgerStatus: CampaignStatus = {
        func batch(
            _ offer: String, _ kind: LedgerBatch.Kind, _ index: Int, limit: Int = 1, count: Int, expires: String?,
            environment: CodeEnvironment = .production, stored: Int, assigned: Int
        ) -> CampaignStatus.Batch {
            let recorded = LedgerBatch(
                campaign: "spring-2027", offer: offer, kind: kind, index: index, quarter: "2027-Q1",
                redemptionLimit: limit, codeCount: count, expirationDate: expires.flatMap(CalendarDate.init),
                environment: environment)
            return CampaignStatus.Batch(
                batch: recorded, storedCodes: stored, assigned: assigned, left: stored * limit - assigned,
                expired: false)
        }
        let trial = "Spring trial, 1 month free"
        let half = "Spring half price, 3 months"
        return CampaignStatus(
            campaign: "spring-2027", appAppleId: CodeSchemas.exampleAppAppleId, bundleId: "com.example.offerkit.demo",
            offers: [
                .init(
                    name: trial, active: true,
                    batches: [
                        batch(trial, .oneTimeUse, 0, count: 1000, expires: "2027-06-13", stored: 1000, assigned: 412),
                        batch(
                            trial, .oneTimeUse, 1, count: 20, expires: "2027-04-14", environment: .sandbox, stored: 0,
                            assigned: 0),
                    ]),
                .init(
                    name: half, active: true,
                    batches: [
                        batch(half, .custom, 0, limit: 10_000, count: 1, expires: "2027-06-15", stored: 1, assigned: 0),
                        batch(half, .custom, 1, count: 200, expires: nil, stored: 200, assigned: 57),
                    ]),
            ],
            usage: CampaignStatus.LimitUsage(
                quarter: "2027-Q1",
                summary: LedgerSummary(
                    activeOfferNames: [
                        trial, half, "Win-back, first year paid up front", "Gem pack launch",
                        "Pro unlock for press and reviewers",
                    ],
                    productionCodes: 12_000, sandboxCodes: 20)))
    }()
}
