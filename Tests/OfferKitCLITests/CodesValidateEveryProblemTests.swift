import Foundation
import Testing

@testable import CLITestSupport

/// `offerkit codes validate` shows, in one run, the rule problems of an offer that also has shape
/// problems (issue 15: users ran it four times to see everything).
@Suite("offerkit codes validate: every problem at once")
struct CodesValidateEveryProblemTests {
    /// A FREE_TRIAL offer with an unknown member and a price entry with both a price point and
    /// `"free": true` (shape), no duration, a repeated eligibility and a bad custom code (rules);
    /// `fixed` is the same offer with all five fixed.
    static func campaign(fixed: Bool) -> String {
        """
        {"name":"spring-2027","app":{"bundleId":"com.example.offerkit.demo","appAppleId":"1234567890"},
         "offers":[{"referenceName":"Spring trial",
           "product":{"id":"6450000001","productId":"com.example.offerkit.monthly","type":"AUTO_RENEWABLE_SUBSCRIPTION"},
           "paymentMode":"FREE_TRIAL",\(fixed ? #""duration":"ONE_WEEK","# : #""colour":"red","#)
           "customerEligibilities":\(fixed ? #"["NEW"]"# : #"["NEW","NEW"]"#),
           "offerEligibility":"STACK_WITH_INTRO_OFFERS",
           "prices":[{"territory":"USA",\(fixed ? "" : #""pricePoint":"USA-10002","#)"free":true}],
           "customCodes":[{"codes":[\(fixed ? #""SPRING27""# : #""spring 27""#)],"redemptionLimit":1}]}]}
        """
    }

    @Test func shapeProblemsHideNoRuleProblem() async throws {
        let files = try CampaignFiles.make()
        defer { files.remove() }
        let broken = try files.write(Self.campaign(fixed: false), to: "broken.json")
        let result = try await files.run("validate", broken, ["--format", "json"])
        #expect(result.status == 4, "\(result)")
        let problems = try #require(result.json?["problems"]?.array, "\(result)")
        #expect(
            problems.map { "\($0["rule"]?.string ?? "") \($0["path"]?.string ?? "")" } == [
                "unknown-member $.offers[0].colour",
                "duplicate-customer-eligibility $.offers[0].customerEligibilities[1]",
                "price-or-free $.offers[0].prices[0]",
                "custom-code-format $.offers[0].customCodes[0].codes[0]",
                "duration-for-product-type $.offers[0].duration",
            ], "\(result)")

        let fixed = try files.write(Self.campaign(fixed: true), to: "fixed.json")
        let second = try await files.run("validate", fixed)
        #expect(second.status == 0, "the first run should have shown everything: \(second)")
    }
}
