import OfferCodes
import OfferConnectAPI

extension FuzzTarget {
    /// What `codes apply` reads from App Store Connect, all from the same bytes: an error body
    /// (every text bounded, at most 20 errors), a list page (with its included resources and their
    /// relationships, as `codes lookup` reads them) and a `201` body (ids 1 to 256 bytes),
    /// the `X-Rate-Limit` header (in range, remaining at most the limit), `Retry-After` (never
    /// negative), and Apple's `source.pointer` mapped to a campaign path (always under the offer).
    static func fuzzConnectAnswers(_ input: [UInt8]) {
        let errors = AppleErrorDetail.parse(status: 409, body: input)
        check(!errors.isEmpty && errors.count <= 20, "error bodies give 1 to 20 errors")
        for error in errors {
            for text in [error.code, error.title, error.detail, error.source ?? ""] {
                check(text.count <= 2 * 500 + 20, "an error text is not bounded")
                check(
                    !text.unicodeScalars.contains { $0.properties.generalCategory == .control },
                    "a control character passed")
            }
            _ = error.summary
        }
        if let page = ConnectListPage(input) {
            for item in page.items + page.included {
                check(
                    !item.id.isEmpty && item.id.utf8.count <= ConnectResource.maximumIdBytes,
                    "an unusable id was listed")
                for kind in ConnectResource.Kind.allCases {
                    _ = ConnectListPage.matches(item.attributes, nil, kind: kind)
                }
                _ = item.related("territory")
            }
        }
        if let id = ConnectListPage.createdId(input) {
            check(!id.isEmpty && id.utf8.count <= ConnectResource.maximumIdBytes, "an unusable id was taken")
        }
        let text = String(decoding: input, as: UTF8.self)
        if let status = RateLimitStatus(header: text) {
            check(
                status.limit > 0 && (0...status.limit).contains(status.remaining), "a rate limit out of range was taken"
            )
        }
        if let delay = RetryAfter.delay(text) { check(delay >= .zero, "a negative Retry-After was taken") }
        for kind in ConnectResource.Kind.allCases {
            let path = CampaignPointer.campaignPath(
                text, subject: .init(offerIndex: 2, kind: kind, batchIndex: 1, customCode: "CODE"))
            check(path.hasPrefix("$.offers[2]"), "a pointer was mapped outside its offer: \(path)")
        }
    }
}
