/// A calendar day (`YYYY-MM-DD`, proleptic Gregorian, no time zone), as App Store Connect's
/// `expirationDate` fields take it.
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid date, or `nil` (for example for February 30).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The UTC calendar day of a moment given in seconds since 1970.
    public init(unixSeconds: Int64) {
        self.init(daysSince1970: Int(unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400))
    }

    /// The day `daysSince1970` days after 1970-01-01 (before it when negative).
    init(daysSince1970: Int) {
        // Howard Hinnant's civil_from_days.
        let days = daysSince1970 + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// The last day a `CalendarDate` can be: 9999-12-31.
    public static let latest = CalendarDate(year: 9999, month: 12, day: 31)!

    /// The same day `months` (0 or more) calendar months later, clamped to the month's last day
    /// (2027-08-31 plus 6 months is 2028-02-29), and to ``latest`` when it would fall after it.
    public func adding(months: Int) -> CalendarDate {
        let latestIndex = 9999 * 12 + 11
        let (index, overflow) = (year * 12 + (month - 1)).addingReportingOverflow(max(0, months))
        guard !overflow, index <= latestIndex else { return Self.latest }
        let newYear = index / 12
        let newMonth = index % 12 + 1
        let newDay = min(day, Self.daysIn(month: newMonth, year: newYear))
        return CalendarDate(year: newYear, month: newMonth, day: newDay) ?? Self.latest
    }

    /// The same day `days` days later.
    public func adding(days: Int) -> CalendarDate { CalendarDate(daysSince1970: daysSince1970 + days) }

    /// Days from 1970-01-01 to this day (Howard Hinnant's days_from_civil): the inverse of
    /// ``init(daysSince1970:)``.
    var daysSince1970: Int {
        let year = month <= 2 ? self.year - 1 : self.year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar quarter the day falls in, for example `2027-Q2`.
    public var quarter: String { "\(year)-Q\((month - 1) / 3 + 1)" }

    public static func < (lhs: CalendarDate, rhs: CalendarDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
