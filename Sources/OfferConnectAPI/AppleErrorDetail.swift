import OfferJSON

/// One entry of App Store Connect's error answer (`ErrorResponse.errors[]`, API 4.4.1), with the
/// campaign path it concerns when OfferKit can tell (`$.offers[1].prices[0]`).
public struct AppleErrorDetail: Sendable, Equatable {
    /// The HTTP status, as App Store Connect writes it (`"409"`).
    public var status: String
    /// Apple's code, for example `ENTITY_ERROR.ATTRIBUTE.INVALID`.
    public var code: String
    public var title: String
    public var detail: String
    /// `source.pointer` (a JSON pointer into the request body) or `source.parameter`.
    public var source: String?
    /// Where in the campaign file the problem is, when the pointer maps to it.
    public var campaignPath: String?

    public init(
        status: String, code: String, title: String, detail: String, source: String?, campaignPath: String?
    ) {
        self.status = status
        self.code = code
        self.title = title
        self.detail = detail
        self.source = source
        self.campaignPath = campaignPath
    }

    /// The longest text kept from any one field of Apple's answer.
    static let fieldLimit = 500

    /// "409 ENTITY_ERROR.ATTRIBUTE.INVALID at $.offers[1].prices[0]: title: detail"
    public var summary: String {
        var text = "\(status) \(code)"
        if let campaignPath { text += " at \(campaignPath)" } else if let source { text += " at \(source)" }
        let words = [title, detail].filter { !$0.isEmpty }
        if !words.isEmpty { text += ": " + words.joined(separator: ": ") }
        return text
    }

    /// The errors of an answer's body, or one built from the status when the body is not
    /// Apple's error format. Every text is bounded; control characters are dropped.
    package static func parse(status: Int, body: [UInt8]) -> [AppleErrorDetail] {
        let fallback = [
            AppleErrorDetail(
                status: String(status), code: "HTTP_\(status)", title: "", detail: "the answer held no JSON:API errors",
                source: nil, campaignPath: nil)
        ]
        guard body.count <= 1 << 20, let value = try? JSONValue.parse(body), case .array(let errors)? = value["errors"],
            !errors.isEmpty
        else { return fallback }
        return errors.prefix(20).map { error in
            func text(_ value: JSONValue?) -> String {
                guard case .string(let string)? = value else { return "" }
                return clean(string)
            }
            let source = error["source"]
            let pointer = text(source?["pointer"])
            let parameter = text(source?["parameter"])
            let statusText = text(error["status"])
            return AppleErrorDetail(
                status: statusText.isEmpty ? String(status) : statusText, code: text(error["code"]),
                title: text(error["title"]), detail: text(error["detail"]),
                source: !pointer.isEmpty ? pointer : (!parameter.isEmpty ? "parameter " + parameter : nil),
                campaignPath: nil)
        }
    }

    private static func clean(_ text: String) -> String {
        let printable = String(
            String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
        return printable.count > fieldLimit ? String(printable.prefix(fieldLimit)) + "…" : printable
    }
}
