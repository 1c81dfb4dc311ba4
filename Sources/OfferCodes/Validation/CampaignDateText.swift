/// An `expirationDate` as a campaign file writes it: `YYYY-MM-DD`, or `P<n>D` / `P<n>M` counted
/// from today (UTC).
enum CampaignDateText {
    /// What the campaign format accepts, for problems.
    static let allowed = "a date YYYY-MM-DD, or P<n>D / P<n>M (n >= 1) counted from today (UTC), such as P90D"

    /// Why a text is not a date.
    enum Failure: Error, Equatable {
        /// Not `YYYY-MM-DD`, `P<n>D` or `P<n>M`.
        case notADate
        /// `YYYY-MM-DD`, but no such day (February 30).
        case noSuchDay
        /// `P0D` or `P0M`.
        case zeroPeriod
        /// Resolves past the year 9999.
        case tooFar
    }

    /// The calendar day `text` names, relative forms resolved against `today`.
    static func resolve(_ text: String, today: CalendarDate) -> Result<CalendarDate, Failure> {
        if let date = CalendarDate(text) { return .success(date) }
        let bytes = Array(text.utf8)
        if bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || isDigit($0.element) })
        {
            return .failure(.noSuchDay)
        }
        guard bytes.count >= 3, bytes.count <= 8, bytes.first == UInt8(ascii: "P"),
            let unit = bytes.last, unit == UInt8(ascii: "D") || unit == UInt8(ascii: "M"),
            bytes.dropFirst().dropLast().allSatisfy(isDigit),
            let count = Int(String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self))
        else { return .failure(.notADate) }
        guard count >= 1 else { return .failure(.zeroPeriod) }
        if unit == UInt8(ascii: "M") {
            guard today.year * 12 + today.month - 1 + count < 10_000 * 12 else { return .failure(.tooFar) }
            return .success(today.adding(months: count))
        }
        let date = today.adding(days: count)
        guard date.year <= 9999 else { return .failure(.tooFar) }
        return .success(date)
    }

    /// Words for a failure, for a problem's message.
    static func describe(_ failure: Failure) -> String {
        switch failure {
        case .notADate: "is not a date"
        case .noSuchDay: "is not a day of the calendar"
        case .zeroPeriod: "counts zero days or months; the count must be at least 1"
        case .tooFar: "is after the year 9999"
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
