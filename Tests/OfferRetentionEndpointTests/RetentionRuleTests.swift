import Foundation
import OfferRetentionEndpoint
import Testing

@Suite("Retention rules: matching")
struct RetentionRuleTests {
    static let message = RetentionDecision.message(messageIdentifier: UUID())

    @Test(
        "a locale matches as a prefix ending at '-' or at the end",
        arguments: [
            ("en", "en-US", true), ("en", "en", true), ("en-US", "en-US", true), ("en-US", "en-GB", false),
            ("en", "eng", false), ("en-US", "en", false), ("EN", "en-us", true), ("zh-Hant", "zh-Hant-TW", true),
        ])
    func localePrefix(locale: String, userLocale: String, matches: Bool) {
        let rule = RetentionRule(locale: locale, decision: Self.message)
        #expect(rule.matches(productId: "p", userLocale: userLocale) == matches)
    }
}
