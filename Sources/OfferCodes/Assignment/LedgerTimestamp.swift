import Foundation

/// How the SQLite ledger writes times: ISO 8601 in UTC with milliseconds
/// (`2027-01-05T09:30:00.125Z`), as its `strftime` does for `recorded_at`.
package enum LedgerTimestamp {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    /// `date` as the ledger writes it.
    package static func text(_ date: Date) -> String { style.format(date) }

    /// The date that `text` holds, or `nil` when it is not written as the ledger writes dates.
    package static func date(_ text: String) -> Date? { try? style.parse(text) }
}
