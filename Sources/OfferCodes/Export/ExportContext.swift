import OfferJSON

/// The small Mustache contexts of an export: one for the header and footer, one per code.
///
/// Keys (see also `templates/codes/README.md`):
/// - everywhere: `appAppleId`, `bundleId`, `format` (`csv`, `json`, `messages`), `hasRecipients`;
/// - per code: `code`, `url`, `offer` (the reference name: data, never for customers), `title`
///   (the offer's `displayName` in the record's language, else its `en` one; absent when none),
///   `shared` (the redemption limit is above 1: a campaign's code, not the customer's own),
///   `expirationDate` (`YYYY-MM-DD`, absent when none),
///   `expiration` (`year`, `month`, `day` as numbers, absent when none), `redemptionLimit`,
///   `environment` (`PRODUCTION`, `SANDBOX`), `kind` (`custom`, `oneTimeUse`), `number` (1, 2, …),
///   `first`, `last`;
/// - CSV rows: `csv.code`, `csv.url`, `csv.offer`, `csv.expirationDate` (empty when none),
///   `csv.redemptionLimit`, `csv.environment`, `csv.kind`, each a finished CSV field;
/// - JSON rows: `json.code`, `json.url`, `json.offer`, `json.expirationDate` (`null` when none),
///   `json.redemptionLimit`, `json.environment`, `json.kind`, each a finished JSON value;
/// - messages: `language` and, with recipients, `name` and `hasRecipient`; the row adds `message`
///   and `csv.code`, `csv.url`, `csv.offer`, `csv.expirationDate`, `csv.language`, `csv.message`,
///   `csv.name`;
/// - rows of an export with recipients (every format): `hasRecipient`, `recipient` (the recipient
///   id), `assignedAt` (ISO 8601, UTC, with milliseconds), `name` (when the recipient has one),
///   and `csv.recipient`, `csv.assignedAt`, `json.recipient`, `json.assignedAt`.
enum ExportContext {
    /// The context of the header and footer.
    static func frame(app: CampaignApp, format: ExportFormat, hasRecipients: Bool) -> [String: Any] {
        var context: [String: Any] = [
            "appAppleId": app.appAppleId, "bundleId": app.bundleId, "format": format.name,
            "hasRecipients": hasRecipients,
        ]
        if case .messages(let language) = format {
            context["language"] = language
        }
        return context
    }

    /// The values of one code, shared by every format.
    ///
    /// - Parameter title: the offer's customer-facing title in the record's language, if it has one.
    static func code(
        _ code: IssuedCode, title: String?, app: CampaignApp, number: Int, last: Bool, hasRecipients: Bool
    ) -> [String: Any] {
        var context: [String: Any] = [
            "appAppleId": app.appAppleId, "bundleId": app.bundleId, "hasRecipients": hasRecipients,
            "code": code.code, "url": RedemptionLink.url(appAppleId: app.appAppleId, code: code.code),
            "offer": code.offer, "redemptionLimit": code.redemptionLimit, "shared": code.redemptionLimit > 1,
            "environment": code.environment.rawValue, "kind": code.kind.rawValue, "number": number,
            "first": number == 1, "last": last,
        ]
        if let title {
            context["title"] = title
        }
        if let date = code.expirationDate {
            context["expirationDate"] = date.description
            context["expiration"] = ["year": date.year, "month": date.month, "day": date.day]
        }
        return context
    }

    /// Adds the keys of an assignment to a code's context: `hasRecipient`, `recipient`,
    /// `assignedAt` and, when the recipient has a name, `name`.
    static func addAssignment(_ assignment: CodeAssignment, name: String?, to context: inout [String: Any]) {
        context["hasRecipient"] = true
        context["recipient"] = assignment.recipient
        context["assignedAt"] = LedgerTimestamp.text(assignment.assignedAt)
        if let name { context["name"] = name }
    }

    /// The finished CSV fields of a code's context (`recipient` and `assignedAt` are empty
    /// without an assignment).
    static func csvFields(_ context: [String: Any]) -> [String: String] {
        var fields: [String: String] = [:]
        for key in [
            "code", "url", "offer", "expirationDate", "redemptionLimit", "environment", "kind", "recipient",
            "assignedAt",
        ] {
            fields[key] = CSVField.encode(context[key].map { "\($0)" } ?? "")
        }
        return fields
    }

    /// The finished JSON values of a code's context.
    static func jsonValues(_ code: IssuedCode, url: String) -> [String: String] {
        [
            "code": json(code.code), "url": json(url), "offer": json(code.offer),
            "expirationDate": code.expirationDate.map { json($0.description) } ?? "null",
            "redemptionLimit": String(code.redemptionLimit), "environment": json(code.environment.rawValue),
            "kind": json(code.kind.rawValue),
        ]
    }

    /// The finished JSON values of an assignment's keys.
    static func jsonValues(_ assignment: CodeAssignment) -> [String: String] {
        ["recipient": json(assignment.recipient), "assignedAt": json(LedgerTimestamp.text(assignment.assignedAt))]
    }

    /// `text` as a JSON string literal.
    static func json(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 2)
        JSONWriter.appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
