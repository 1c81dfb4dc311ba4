import Foundation
import OfferRetentionEndpoint
import OfferRetentionEndpointTesting
import Testing

@testable import CLITestSupport

/// `RealtimeAnswer(body:)`, the reader of `retention try-endpoint`: Apple's `RealtimeResponseBody`
/// strictly, bounded.
@Suite("RealtimeAnswer: an endpoint's answer read strictly")
struct RealtimeAnswerTests {
    static let message = "7c9e6679-7425-40de-944b-e07fc1f90ae7"

    static func read(_ text: String) -> Result<RealtimeAnswer, RealtimeAnswerError> {
        Result { () throws(RealtimeAnswerError) in try RealtimeAnswer(body: Array(text.utf8)) }
    }

    @Test("each kind reads; {} is the default message")
    func kinds() throws {
        #expect(try Self.read("{}").get() == .default)
        #expect(try Self.read(#"{"message":{"messageIdentifier":"\#(Self.message)"}}"#).get().kind == "message")
        let switchPlan = try Self.read(
            #"{"alternateProduct":{"messageIdentifier":"\#(Self.message)","productId":"p","billingPlanType":"MONTHLY"}}"#
        ).get()
        #expect(switchPlan.kind == "alternateProduct" && switchPlan.customerSees.contains("offering p (MONTHLY)"))
    }

    @Test("refused: over 64 KiB, two members, an unknown member, a wrong shape, null, not JSON")
    func refusals() {
        let padding = String(repeating: " ", count: RealtimeAnswer.maximumBytes)
        let refused: [(String, String)] = [
            ("{}" + padding, "larger than 65536 bytes"),
            (
                #"{"message":{"messageIdentifier":"\#(Self.message)"},"alternateProduct":{}}"#,
                "at most one member"
            ),
            // An unknown member is named as a member, not as a string value.
            (#"{"message":{"messageIdentifier":"\#(Self.message)","extra":1}}"#, #"found the member "extra""#),
            (#"{"promotional":{}}"#, "only message, alternateProduct"),
            (#"{"promotional":{}}"#, #"found the member "promotional""#),
            (#"{"message":{"messageIdentifier":"not-a-uuid"}}"#, "message.messageIdentifier: expected a UUID"),
            (#"{"message":null}"#, "message: expected an object, found null"),
            (
                #"{"promotionalOffer":{"messageIdentifier":"\#(Self.message)"}}"#,
                "exactly one of promotionalOfferSignatureV1 and promotionalOfferSignatureV2"
            ),
            (#"{"alternateProduct":{"messageIdentifier":"\#(Self.message)","productId":""}}"#, "non-empty string"),
            ("[]", "a JSON object, found an array"),
            ("{", "not JSON"),
        ]
        for (body, expected) in refused {
            guard case .failure(let error) = Self.read(body) else {
                Issue.record("read: \(body.prefix(120))")
                continue
            }
            #expect(error.errorDescription?.contains(expected) == true, "\(body.prefix(120)): \(error)")
        }
    }
}
