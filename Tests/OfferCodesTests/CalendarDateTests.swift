import OfferCodes
import Testing

@Suite("Calendar dates")
struct CalendarDateTests {
    @Test func parsesOnlyExactDates() {
        #expect(CalendarDate("2027-02-28")?.description == "2027-02-28")
        #expect(CalendarDate("2028-02-29") != nil)
        for text in [
            "2027-02-29", "2027-13-01", "2027-00-10", "2027-1-01", "27-01-01", "2027-01-01T00:00", " 2027-01-01",
            "２０２７-01-01",
        ] {
            #expect(CalendarDate(text) == nil, "\(text)")
        }
    }

    @Test func addsCalendarMonthsClampingTheDay() {
        #expect(CalendarDate("2027-08-31")!.adding(months: 6).description == "2028-02-29")
        #expect(CalendarDate("2027-01-15")!.adding(months: 6).description == "2027-07-15")
        #expect(CalendarDate("2027-10-31")!.adding(months: 6).description == "2028-04-30")
        #expect(CalendarDate("2027-12-01")!.adding(months: 1).description == "2028-01-01")
    }

    @Test func convertsUnixTimeToTheUTCDay() {
        #expect(CalendarDate(unixSeconds: 0).description == "1970-01-01")
        #expect(CalendarDate(unixSeconds: 1_795_000_000).description == "2026-11-18")
        #expect(CalendarDate(unixSeconds: 951_782_400).description == "2000-02-29")
        #expect(CalendarDate(unixSeconds: -1).description == "1969-12-31")
    }

    @Test func namesTheQuarter() {
        #expect(CalendarDate("2027-03-31")!.quarter == "2027-Q1")
        #expect(CalendarDate("2027-04-01")!.quarter == "2027-Q2")
        #expect(CalendarDate("2027-12-31")!.quarter == "2027-Q4")
    }
}
