import AppleTestChain
import Foundation
import OfferRetentionEndpoint
import OfferSigning
import Testing

@Suite("Retention rules: the strict reader")
struct RetentionRulesParsingTests {
    static let app = #"retention.apps["com.example.offerkit.demo"]"#
    static let message = #"{"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7"}"#
    static let modify = #"""
        {"operation": "MODIFY_SUBSCRIPTION", "retainBillingCycle": true,
         "changeItems": [{"SKU": "B", "currentSKU": "A", "description": "d", "displayName": "n", "price": 1,
                          "effective": "IMMEDIATELY", "reason": "UPGRADE"}]}
        """#

    static func parse(_ rules: String) throws(RetentionRulesError) -> RetentionRules {
        try RetentionRules(json: Array(rules.utf8), path: app)
    }

    @Test("the example rules read as written, in order")
    func example() throws {
        let rules = try Self.parse(RetentionExample.rulesJSON)
        #expect(rules.rules.count == 5)
        #expect(rules.rules[0].productId == "com.example.offerkit.monthly" && rules.rules[0].locale == "en")
        #expect(
            rules.rules[0].decision
                == .promotionalOffer(
                    messageIdentifier: RetentionExample.offerMessage, productId: "com.example.offerkit.monthly",
                    offerIdentifier: "WINBACK50", signature: .v2))
        #expect(rules.rules[1].decision.kind == .promotionalOffer)
        #expect(
            rules.rules[2].decision
                == .alternateProduct(
                    messageIdentifier: RetentionExample.switchMessage, productId: "com.example.offerkit.monthly",
                    billingPlanType: .monthly))
        guard case .advancedCommerceInfo(let id, let request) = rules.rules[3].decision else {
            Issue.record("rule 3 is \(rules.rules[3].decision)")
            return
        }
        #expect(id == RetentionExample.advancedCommerceMessage)
        #expect(request.changeItems?.first?.offer?.reason == .retention)
        #expect(rules.rules[4].decision == .message(messageIdentifier: RetentionExample.plainMessage))
        #expect(try Self.parse("[]").rules.isEmpty)
    }

    @Test(
        "each mistake is named with its JSON path, what was expected and what was found",
        arguments: [
            (#"{}"#, #"retention.apps["com.example.offerkit.demo"]: expected an array of rules, found an object"#),
            (#"[1]"#, #"[0]: expected an object, found an integer"#),
            (
                #"[{"message": \#(message), "promotionalOffer": {}}]"#,
                "[0]: expected exactly one of message, alternateProduct, promotionalOffer, advancedCommerceInfo, "
                    + "found message and promotionalOffer"
            ),
            (#"[{"productId": "p"}]"#, "[0]: expected exactly one of message, alternateProduct, promotionalOffer, "),
            (#"[{"message": \#(message), "product": "p"}]"#, "[0].product: expected one of productId, locale, "),
            (
                #"[{"message": {"messageIdentifier": "abc"}}]"#,
                #"[0].message.messageIdentifier: expected the UUID of a message uploaded to Apple, such as 7c9e6679-7425-40de-944b-e07fc1f90ae7, found "abc""#
            ),
            (
                #"[{"message": {}}]"#,
                "[0].message.messageIdentifier: expected the UUID of a message uploaded to Apple, found nothing"
            ),
            (
                #"[{"message": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "x": 1}}]"#,
                "[0].message.x: expected one of messageIdentifier, found an unknown member"
            ),
            (
                #"[{"productId": "", "message": \#(message)}]"#,
                #"[0].productId: expected a non-empty string without control characters or U+2063, found """#
            ),
            (#"[{"locale": "en_US", "message": \#(message)}]"#, #"[0].locale: expected a locale or its prefix"#),
            (
                #"[{"message": \#(message)}, {"promotionalOffer": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "productId": "p", "offerIdentifier": "o", "signature": "v3"}}]"#,
                #"[1].promotionalOffer.signature: expected "v1" or "v2" (in any case), found "v3""#
            ),
            (
                #"[{"promotionalOffer": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "productId": "p", "offerIdentifier": "o"}}]"#,
                #"[0].promotionalOffer.signature: expected "v1" or "v2", found nothing"#
            ),
            (
                #"[{"promotionalOffer": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "productId": "p", "offerIdentifier": "a\u2063b", "signature": "v1"}}]"#,
                "[0].promotionalOffer.offerIdentifier: expected a non-empty string without control characters"
            ),
            (
                #"[{"alternateProduct": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "productId": "p", "billingPlanType": "YEARLY"}}]"#,
                #"[0].alternateProduct.billingPlanType: expected "MONTHLY" or "BILLED_UPFRONT" (in any case), found "YEARLY""#
            ),
            (
                #"[{"advancedCommerceInfo": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "request": {"operation": "REACTIVATE_SUBSCRIPTION"}}}]"#,
                #"[0].advancedCommerceInfo.request.operation: expected "MODIFY_SUBSCRIPTION" (SubscriptionModifyInAppRequest), found "REACTIVATE_SUBSCRIPTION""#
            ),
            (
                #"[{"advancedCommerceInfo": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "request": {"operation": "MODIFY_SUBSCRIPTION", "retainBillingCycle": true}}}]"#,
                "[0].advancedCommerceInfo.request.changeItems: expected exactly one entry (a single SubscriptionModifyChangeItem), found none"
            ),
            (
                #"[{"advancedCommerceInfo": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "request": {"operation": "MODIFY_SUBSCRIPTION", "retainBillingCycle": true, "removeItems": [{"SKU": "X"}], "changeItems": [{"SKU": "B", "currentSKU": "A", "description": "d", "displayName": "n", "price": 1, "effective": "IMMEDIATELY", "reason": "UPGRADE"}]}}}]"#,
                "[0].advancedCommerceInfo.request.removeItems: expected no removeItems"
            ),
            (
                #"[{"advancedCommerceInfo": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "request": {"operation": "MODIFY_SUBSCRIPTION", "retainBillingCycle": true, "addItems": [{"SKU": "X", "description": "d", "displayName": "n", "price": 1}], "changeItems": [{"SKU": "B", "currentSKU": "A", "description": "d", "displayName": "n", "price": 1, "effective": "IMMEDIATELY", "reason": "UPGRADE"}]}}}]"#,
                "[0].advancedCommerceInfo.request.addItems: expected no addItems"
            ),
            (
                #"[{"advancedCommerceInfo": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "request": {"operation": "MODIFY_SUBSCRIPTION", "transactionId": "1", "retainBillingCycle": true}}}]"#,
                "[0].advancedCommerceInfo.request.transactionId: expected no transactionId"
            ),
            (
                #"[{"advancedCommerceInfo": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "request": {"operation": "MODIFY_SUBSCRIPTION", "requestInfo": {"requestReferenceId": "7c9e6679-7425-40de-944b-e07fc1f90ae7"}, "retainBillingCycle": true}}}]"#,
                "[0].advancedCommerceInfo.request.requestInfo.requestReferenceId: expected no requestReferenceId"
            ),
            (
                #"[{"advancedCommerceInfo": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "request": {"operation": "MODIFY_SUBSCRIPTION", "retainBillingCycle": true, "changeItems": [{"SKU": "B", "currentSKU": "A", "description": "d", "displayName": "n", "price": 1, "effective": "IMMEDIATELY", "reason": "SIDEGRADE"}]}}}]"#,
                "[0].advancedCommerceInfo.request.changeItems[0].reason: "
            ),
            (
                #"[{"advancedCommerceInfo": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "request": {"operation": "MODIFY_SUBSCRIPTION", "retainBillingCycle": true, "changeItems": [{"SKU": "B", "currentSKU": "A", "description": "\#(String(repeating: "d", count: 46))", "displayName": "n", "price": 1, "effective": "IMMEDIATELY", "reason": "UPGRADE"}]}}}]"#,
                "[0].advancedCommerceInfo.request.changeItems[0].description"
            ),
        ])
    func mistakes(rules: String, message: String) throws {
        let error = try #require(throws: RetentionRulesError.self) { try Self.parse(rules) }
        let description = try #require(error.errorDescription)
        let expected = message.hasPrefix("retention.") ? message : Self.app + message
        #expect(description.hasPrefix(expected), "\(description)")
        #expect(description.hasPrefix(error.path), "the path leads the message: \(description)")
    }

    @Test("more than 1,000 rules for an app are refused")
    func bounded() throws {
        let one = #"{"message": \#(Self.message)}"#
        let many = "[" + Array(repeating: one, count: RetentionRules.maximumCount + 1).joined(separator: ",") + "]"
        let error = try #require(throws: RetentionRulesError.self) { try Self.parse(many) }
        #expect(error == .tooManyRules(path: Self.app, count: 1001, limit: 1000))
        let full = "[" + Array(repeating: one, count: RetentionRules.maximumCount).joined(separator: ",") + "]"
        #expect(try Self.parse(full).rules.count == 1000)
    }

    @Test("an Advanced Commerce rule keeps its request without transactionId or requestReferenceId of its own")
    func advancedCommerceTemplate() throws {
        let rules = try Self.parse(
            #"[{"advancedCommerceInfo": {"messageIdentifier": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "request": \#(Self.modify)}}]"#
        )
        guard case .advancedCommerceInfo(_, let request) = rules.rules[0].decision else {
            Issue.record("")
            return
        }
        #expect(request.changeItems?.count == 1 && request.addItems == nil && request.removeItems == nil)
    }
}
