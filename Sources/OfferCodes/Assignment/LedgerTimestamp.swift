import Foundation

/// How the ledger writes times: ISO 8601 in UTC with milliseconds (`2027-01-05T09:30:00.125Z`), as
/// SQLite's `strftime` does for `recorded_at`.
///
/// A time is rounded to the nearest millisecond, in whole numbers: Foundation's formatter cuts the
/// fraction of the `Double` it is given, so `…00.007` (held as `…00.00699…`) would be written
/// `…00.006`, and a time read back would not be written as before.
package enum LedgerTimestamp {
    private static let seconds = Date.ISO8601FormatStyle(timeZone: .gmt)
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    /// `date` as the ledger writes it.
    package static func text(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (whole, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (second, millisecond) = fraction < 0 ? (whole - 1, fraction + 1000) : (whole, fraction)
        let text = seconds.format(Date(timeIntervalSince1970: TimeInterval(second)))
        let digits = String(millisecond)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// The date that `text` holds, or `nil` when it is not written as the ledger writes dates.
    package static func date(_ text: String) -> Date? { try? style.parse(text) }

    /// `date` to the millisecond: the time an assignment is recorded with, so that what is printed
    /// when a code is handed out is what is read back later, on every backend.
    package static func milliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
