import Foundation

/// How the ledger writes times: ISO 8601 in UTC with milliseconds (`2027-01-05T09:30:00.125Z`),
/// as the SQLite ledger's `strftime` does for `recorded_at`, and as the CLI and the service show
/// them.
///
/// Times are kept to whole milliseconds (``milliseconds(_:)``): an assignment's time is rounded
/// before it is stored, so that what a claim answers and what a later read shows are the same
/// text on both backends (PostgreSQL keeps microseconds, SQLite's text milliseconds).
package enum LedgerTimestamp {
    private static let parser = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    /// `date` rounded to the nearest millisecond.
    package static func milliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(wholeMilliseconds(date)) / 1000)
    }

    /// `date` as the ledger writes it, to the nearest millisecond (formatted from whole numbers,
    /// so that a time a hair below a millisecond is not written as the one before).
    package static func text(_ date: Date) -> String {
        let total = wholeMilliseconds(date)
        let (seconds, millisecond) = total.quotientAndRemainder(dividingBy: 1000)
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let day = CalendarDate(unixSeconds: days * 86_400)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let milliText = String(millisecond + 1000).dropFirst()
        return "\(day)T\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)).\(milliText)Z"
    }

    /// The date that `text` holds, or `nil` when it is not written as the ledger writes dates.
    package static func date(_ text: String) -> Date? { (try? parser.parse(text)).map(milliseconds) }

    /// Whole milliseconds since 1970, for dates from 1970 to 9999 (others are clamped).
    private static func wholeMilliseconds(_ date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Int64(min(max(milliseconds, 0), 253_402_300_799_999))
    }
}
