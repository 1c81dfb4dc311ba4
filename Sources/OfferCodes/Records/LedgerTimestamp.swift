import Foundation

/// How the ledger writes times: ISO 8601 in UTC with milliseconds (`2027-01-05T09:30:00.125Z`),
/// as the SQLite ledger's `strftime` does for `recorded_at`, and as the CLI and the service show
/// them.
///
/// Times are kept to whole milliseconds (``milliseconds(_:)``): an assignment's time is rounded
/// before it is stored, so that what a claim answers and what a later read shows are the same
/// text on both backends (PostgreSQL keeps microseconds, SQLite's text milliseconds).
package enum LedgerTimestamp {
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

    /// The date that `text` holds, to the nearest millisecond, or `nil` when it is not written as
    /// the ledger writes dates: `YYYY-MM-DDTHH:MM:SS.fZ` in UTC, with 1 to 9 digits of the second
    /// (SQLite's `strftime` writes 3, PostgreSQL's `to_char` 6).
    ///
    /// Read by hand rather than with Foundation's ISO 8601 parser: a claim reads back the time it
    /// has just written, and that parser took 3.6 % of the samples of a process claiming codes one
    /// at a time (perf, release build; each claim's time is new, so ``DateCache`` cannot help).
    /// It is also stricter: only the one form the ledgers write.
    package static func date(_ text: String) -> Date? {
        let bytes = text.utf8
        guard (22...30).contains(bytes.count) else { return nil }
        var index = bytes.startIndex
        // `YYYY-MM-DDTHH:MM:SS.`, the digits of the second, `Z`.
        let digits = bytes.count - 21
        /// The next `count` bytes as a number, or `nil` unless they are all digits.
        func number(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                let byte = bytes[index]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                index = bytes.index(after: index)
            }
            return value
        }
        /// Whether the next byte is `separator` (and steps over it).
        func skip(_ separator: Unicode.Scalar) -> Bool {
            guard bytes[index] == UInt8(ascii: separator) else { return false }
            index = bytes.index(after: index)
            return true
        }
        guard let year = number(4), skip("-"), let month = number(2), skip("-"), let day = number(2), skip("T"),
            let hour = number(2), hour < 24, skip(":"), let minute = number(2), minute < 60, skip(":"),
            let second = number(2), second < 60, skip("."),
            let date = CalendarDate(year: year, month: month, day: day)
        else { return nil }
        guard let fraction = number(digits), skip("Z") else { return nil }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let seconds = Int64(date.daysSince1970) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return milliseconds(Date(timeIntervalSince1970: Double(seconds) + Double(fraction) / scale))
    }

    /// Whole milliseconds since 1970, for dates from 1970 to 9999 (others are clamped).
    private static func wholeMilliseconds(_ date: Date) -> Int64 {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Int64(min(max(milliseconds, 0), 253_402_300_799_999))
    }
}
