import Foundation
import OfferRetentionEndpoint
import OfferSigning
import Testing

/// ``RealtimeAnswer`` is the one description of the endpoint's answer: what ``RealtimeAnswer/body``
/// writes, ``RealtimeAnswer/init(body:)`` reads back as the same answer, for every kind.
@Suite("Realtime answer: written and read by one model")
struct RealtimeAnswerBodyTests {
    static let message = UUID(uuidString: "E4E2D11C-1A4B-4A44-9A43-8E5B0A11C0DE")!

    static let answers: [RealtimeAnswer] = [
        .message(messageIdentifier: message),
        .alternateProduct(messageIdentifier: message, productId: "com.example.yearly", billingPlanType: nil),
        .alternateProduct(messageIdentifier: message, productId: "com.example.yearly", billingPlanType: "MONTHLY"),
        .promotionalOfferV2(messageIdentifier: message, jws: "eyJhbGciOiJFUzI1NiJ9.eyJ4IjoxfQ.c2ln"),
        .promotionalOfferV1(
            messageIdentifier: message,
            signature: LegacyPromotionalOfferSignature(
                keyId: "DEMOKEY123", nonce: UUID(uuidString: "0f2d7c3a-6f56-4b8e-9b7d-2c1f5a4e3d21")!,
                timestamp: 1_800_000_000_000, signature: "MEUCIQ==", productId: "com.example.monthly",
                offerIdentifier: "comeback", appAccountToken: "")),
        .promotionalOfferV1(
            messageIdentifier: message,
            signature: LegacyPromotionalOfferSignature(
                keyId: "DEMOKEY123", nonce: UUID(uuidString: "0f2d7c3a-6f56-4b8e-9b7d-2c1f5a4e3d21")!,
                timestamp: 1_800_000_000_000, signature: "MEUCIQ==", productId: "com.example.monthly",
                offerIdentifier: "comeback", appAccountToken: "7e3fb20b-4cdb-47cc-936d-99d65f608138")),
        .advancedCommerceInfo(messageIdentifier: message, advancedCommerceData: Array(#"{"signatureInfo":{}}"#.utf8)),
        .default,
    ]

    @Test(arguments: answers)
    func whatIsWrittenIsReadBack(_ answer: RealtimeAnswer) throws {
        let body = answer.body
        #expect(try RealtimeAnswer(body: body) == answer, "\(String(decoding: body, as: UTF8.self))")
        // Apple's member of the answer, and nothing else at the top.
        let text = String(decoding: body, as: UTF8.self)
        #expect(answer == .default ? text == "{}" : text.hasPrefix("{\"\(answer.kind)\":"), "\(text)")
    }

    @Test func identifiersAreWrittenInLowerCase() {
        let text = String(decoding: RealtimeAnswer.message(messageIdentifier: Self.message).body, as: UTF8.self)
        #expect(text == #"{"message":{"messageIdentifier":"e4e2d11c-1a4b-4a44-9a43-8e5b0a11c0de"}}"#)
    }
}
