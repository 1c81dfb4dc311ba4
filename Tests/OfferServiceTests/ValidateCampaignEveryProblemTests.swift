import OfferSigning
import Testing

@testable import OfferService

/// `POST /v1/campaigns/validate` reports, in one response, the rule problems of an offer that
/// also has shape problems: fixing what it reported leaves a valid campaign.
@Suite("POST /v1/campaigns/validate: every problem at once")
struct ValidateCampaignEveryProblemTests {
    let route = OperationRoute(path: "/v1/campaigns/validate")

    /// A FREE_TRIAL offer; `broken` adds an unknown member, a price entry with both a price point
    /// and `"free": true` (shape problems), and leaves out the duration and repeats an eligibility
    /// (rule problems).
    static func campaign(broken: Bool) -> String {
        """
        {"name":"spring-2027","app":{"bundleId":"com.example.offerkit.demo","appAppleId":"1234567890"},
         "offers":[{"referenceName":"Spring trial",
           "product":{"id":"6450000001","productId":"com.example.offerkit.monthly","type":"AUTO_RENEWABLE_SUBSCRIPTION"},
           "paymentMode":"FREE_TRIAL",\(broken ? "" : #""duration":"ONE_WEEK","#)
           "customerEligibilities":\(broken ? #"["NEW","NEW"]"# : #"["NEW"]"#),
           "offerEligibility":"STACK_WITH_INTRO_OFFERS",\(broken ? #""colour":"red","# : "")
           "prices":[{"territory":"USA",\(broken ? #""pricePoint":"USA-10002","# : "")"free":true}]}]}
        """
    }

    @Test("shape and rule problems of one offer come in one response; fixing them leaves none")
    func shapeProblemsHideNoRuleProblem() async throws {
        let response = try await route.post(#"{"campaign":\#(Self.campaign(broken: true)),"today":"2027-03-15"}"#)
        #expect(response.status == 200, "\(response.text)")
        #expect(response.json?["valid"] == .bool(false))
        guard case .array(let problems)? = response.json?["problems"] else {
            Issue.record("no problems in \(response.text)")
            return
        }
        let found = problems.compactMap { problem -> String? in
            guard case .string(let rule)? = problem["rule"], case .string(let path)? = problem["path"] else {
                return nil
            }
            return "\(rule) \(path)"
        }
        #expect(
            found == [
                "duplicate-customer-eligibility $.offers[0].customerEligibilities[1]",
                "unknown-member $.offers[0].colour",
                "price-or-free $.offers[0].prices[0]",
                // Not in the file: after the offer's members.
                "duration-for-product-type $.offers[0].duration",
            ], "\(response.text)")

        let fixed = try await route.post(#"{"campaign":\#(Self.campaign(broken: false)),"today":"2027-03-15"}"#)
        #expect(fixed.json?["valid"] == .bool(true), "\(fixed.text)")
    }
}
