import Foundation

/// The rules, apps and identifiers the endpoint's tests share: one rule of each decision kind for
/// the demo app (bundle ID `com.example.offerkit.demo`, App Apple ID 1234567890, an example).
public enum RetentionExample {
    public static let bundleId = "com.example.offerkit.demo"
    public static let appAppleId: Int64 = 1_234_567_890
    /// The other app of `keys-example/service.json`, with an App Apple ID of its own.
    public static let otherBundleId = "com.example.offerkit.other"
    public static let otherAppAppleId: Int64 = 1_234_567_891

    public static let offerMessage = UUID(uuidString: "7c9e6679-7425-40de-944b-e07fc1f90ae7")!
    public static let legacyOfferMessage = UUID(uuidString: "5f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f")!
    public static let switchMessage = UUID(uuidString: "0b7a5e2c-1d3f-4e6a-9b8c-7d6e5f4a3b2c")!
    public static let advancedCommerceMessage = UUID(uuidString: "9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b")!
    public static let plainMessage = UUID(uuidString: "2a3b4c5d-6e7f-4a8b-9c0d-1e2f3a4b5c6d")!

    /// One request of each kind the rules answer: `(productId, userLocale, kind)`; the last
    /// matches no rule.
    public static let requests: [(productId: String, userLocale: String, kind: String)] = [
        ("com.example.offerkit.monthly", "en-US", "promotionalOffer"),
        ("com.example.offerkit.monthly", "fr-FR", "promotionalOffer"),
        ("com.example.offerkit.yearly", "en-US", "alternateProduct"),
        ("com.example.offerkit.pro", "en-US", "advancedCommerceInfo"),
        ("com.example.offerkit.weekly", "de-DE", "message"),
        ("com.example.offerkit.weekly", "en-US", "default"),
    ]

    /// The rules of the demo app: a V2 offer in English, a V1 offer in French, a switch plan, an
    /// Advanced Commerce offer, a message in German; nothing else matches.
    public static let rulesJSON = """
        [
          { "productId": "com.example.offerkit.monthly", "locale": "en",
            "promotionalOffer": { "messageIdentifier": "\(offerMessage.uuidString.lowercased())",
                                  "productId": "com.example.offerkit.monthly", "offerIdentifier": "WINBACK50",
                                  "signature": "v2" } },
          { "productId": "com.example.offerkit.monthly", "locale": "fr",
            "promotionalOffer": { "messageIdentifier": "\(legacyOfferMessage.uuidString.lowercased())",
                                  "productId": "com.example.offerkit.monthly", "offerIdentifier": "WINBACK50",
                                  "signature": "v1" } },
          { "productId": "com.example.offerkit.yearly",
            "alternateProduct": { "messageIdentifier": "\(switchMessage.uuidString.lowercased())",
                                  "productId": "com.example.offerkit.monthly", "billingPlanType": "MONTHLY" } },
          { "productId": "com.example.offerkit.pro",
            "advancedCommerceInfo": {
              "messageIdentifier": "\(advancedCommerceMessage.uuidString.lowercased())",
              "request": { "operation": "MODIFY_SUBSCRIPTION", "version": "1", "retainBillingCycle": true,
                           "changeItems": [ { "SKU": "PRO_MONTHLY_RETAIN", "currentSKU": "PRO_MONTHLY",
                                              "description": "Pro at half price for three months",
                                              "displayName": "Pro, half price", "price": 4990,
                                              "effective": "IMMEDIATELY", "reason": "APPLY_OFFER",
                                              "offer": { "period": "P1M", "periodCount": 3, "price": 2490,
                                                         "reason": "RETENTION" } } ] } } },
          { "productId": "com.example.offerkit.weekly", "locale": "de",
            "message": { "messageIdentifier": "\(plainMessage.uuidString.lowercased())" } }
        ]
        """
}
