/// What an export of issued codes looks like.
public enum ExportFormat: Sendable, Equatable {
    /// A CSV file (RFC 4180, CRLF line ends): a header, then one record per code with the code, its
    /// redemption link, the offer's reference name and the expiration date (empty when there is none).
    case csv
    /// A JSON array with one object per code: `code`, `url`, `offer`, `expirationDate` (a string or
    /// `null`), `redemptionLimit`, `environment`.
    case json
    /// A CSV file of ready-to-send messages, one per code (or one per recipient): columns `code`,
    /// `language`, `message`, preceded by `name` when recipients are given.
    ///
    /// - Parameter language: the messages' language, one of ``CodeExporter/languages``; a
    ///   recipient's own language takes precedence.
    case messages(language: String)

    /// The line end written after each rendered header, record and footer.
    var lineEnd: String {
        switch self {
        case .csv, .messages: "\r\n"
        case .json: "\n"
        }
    }

    /// The name of the format in template contexts and file names (`csv`, `json`, `messages`).
    var name: String {
        switch self {
        case .csv: "csv"
        case .json: "json"
        case .messages: "messages"
        }
    }
}
