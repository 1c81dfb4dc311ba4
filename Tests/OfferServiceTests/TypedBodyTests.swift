import Foundation
import OfferJSON
import OfferSigning
import Testing

@testable import OfferService

@Suite("Typed operation bodies, built from the JSON their schema checked")
struct TypedBodyTests {
    /// The example of `schema`, checked against it.
    static func validatedExample(_ schema: JSONSchema) throws -> ValidatedBody {
        let example = try #require(schema.example ?? schema.resolved.example)
        return ValidatedBody(try SchemaValidator().validated(example, against: schema))
    }

    @Test("each body type is built from its schema's example")
    func examplesBuild() throws {
        let promotional = try PromotionalOfferBody(validated: Self.validatedExample(PromotionalOfferBody.schema))
        #expect(promotional.bundleId == "com.example.offerkit.demo")
        #expect(promotional.offer.transactionId == "2000000123456789")
        #expect(promotional.nonce == nil)
        let legacy = try LegacyPromotionalOfferBody(validated: Self.validatedExample(LegacyPromotionalOfferBody.schema))
        #expect(legacy.offer.offerIdentifier == "WINBACK50")
        let eligibility = try IntroductoryOfferEligibilityBody(
            validated: Self.validatedExample(IntroductoryOfferEligibilityBody.schema))
        #expect(eligibility.eligibility.allowIntroductoryOffer)
        let commerce = try AdvancedCommerceBody(validated: Self.validatedExample(AdvancedCommerceBody.schema))
        #expect(commerce.request.operation == .createOneTimeCharge)
        let server = try ServerAPITokenBody(validated: Self.validatedExample(ServerAPITokenBody.schema))
        #expect(server.lifetime == 300)
        let connect = try ConnectAPITokenBody(validated: Self.validatedExample(ConnectAPITokenBody.schema))
        #expect(connect.scope == ["GET /v1/apps"] && connect.lifetime == 600)
        let validate = try ValidateCampaignBody(validated: Self.validatedExample(ValidateCampaignBody.schema))
        #expect(validate.today == CampaignSchemas.exampleToday)
        let plan = try PlanCampaignBody(validated: Self.validatedExample(PlanCampaignBody.schema))
        #expect(plan.customCodes.map(\.batch) == [2])
        #expect(plan.customCodes.map(\.field) == ["customCodes[0]"])
    }

    @Test("a member read with a shape its schema does not have is a 500 problem, not a crash")
    func mismatchIsAProblem() throws {
        let wrong = ValidatedBody(.object([("bundleId", .integer(7))]))
        let problem = #expect(throws: ServiceProblem.self) { try wrong(CommonSchemas.bundleIdMember) }
        #expect(problem?.type == .internalError)
        #expect(problem?.detail.contains("bundleId") == true)
        let missing = ValidatedBody(.object([]), path: "customCodes[3]")
        let absent = #expect(throws: ServiceProblem.self) {
            try missing(PlanCampaignBody.SuppliedCodesEntry.Members.codes)
        }
        #expect(absent?.detail.contains("customCodes[3].codes") == true)
        // An optional member that is absent is nil, not a problem.
        #expect(try missing(CommonSchemas.nonceMember) == nil)
    }

    @Test("the Advanced Commerce request is decoded once from the parsed JSON, as decode(json:) decodes its text")
    func advancedCommerceParsedOnce() throws {
        let examples = [
            AdvancedCommerceExamples.oneTimeCharge, AdvancedCommerceExamples.createSubscription,
            AdvancedCommerceExamples.modifySubscription, AdvancedCommerceExamples.reactivateSubscription,
        ]
        for example in examples {
            let fromDocument = try AdvancedCommerce.InAppRequest.decode(document: example)
            let fromText = try AdvancedCommerce.InAppRequest.decode(json: example.serialized(pretty: false))
            #expect(fromDocument == fromText)
        }
        // A library rule the schema cannot state (UTF-16 length): the same error either way.
        let long = String(repeating: "😀", count: 16)
        let text =
            #"{"operation":"CREATE_ONE_TIME_CHARGE","requestInfo":{"requestReferenceId":"f55df048-4cd8-4261-b404-b6f813ff70e5"},"currency":"USD","taxCode":"C003-00-2","item":{"SKU":"s","description":"d","displayName":"\#(long)","price":1}}"#
        let document = try JSONValue.parse(Array(text.utf8))
        let one = #expect(throws: RequestDecodingError.self) {
            try AdvancedCommerce.InAppRequest.decode(document: document)
        }
        let other = #expect(throws: RequestDecodingError.self) {
            try AdvancedCommerce.InAppRequest.decode(json: Array(text.utf8))
        }
        #expect(one == other)
        #expect(one?.path == "item.displayName")
        // Integers in any spelling are read exactly, without a Double.
        let spelled = text.replacingOccurrences(of: #""price":1"#, with: #""price":4.99e3"#)
            .replacingOccurrences(of: long, with: "n")
        let request = try AdvancedCommerce.InAppRequest.decode(document: JSONValue.parse(Array(spelled.utf8)))
        guard case .oneTimeCharge(let charge) = request else {
            Issue.record("expected a one-time charge")
            return
        }
        #expect(charge.item.price == 4990)
    }
}
