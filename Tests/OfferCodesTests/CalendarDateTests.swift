import OfferCodes
import Testing

@testable import LedgerTestSupport

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

    @Test func addsDaysAcrossMonthsYearsAndLeapDays() {
        #expect(CalendarDate("2027-12-31")!.adding(days: 1).description == "2028-01-01")
        #expect(CalendarDate("2028-02-28")!.adding(days: 1).description == "2028-02-29")
        #expect(CalendarDate("2100-02-28")!.adding(days: 1).description == "2100-03-01")
        #expect(CalendarDate("2027-01-01")!.adding(days: 90).description == "2027-04-01")
        #expect(CalendarDate("1970-01-01")!.adding(days: -1).description == "1969-12-31")
        // Day by day for 1600 years: adding agrees with the Unix-time conversion, both ways.
        var date = CalendarDate("1600-01-01")!
        var mismatches: [String] = []
        for day in -135_140...449_000 {
            if date != CalendarDate(unixSeconds: Int64(day) * 86_400) { mismatches.append(date.description) }
            date = date.adding(days: 1)
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
        #expect(date.description == "3199-04-29")
    }

    @Test("adding months stops at 9999-12-31 instead of crashing")
    func addingMonthsStopsAtTheLastDay() {
        #expect(CalendarDate("9999-07-01")!.adding(months: 6).description == "9999-12-31")
        #expect(CalendarDate("9999-06-30")!.adding(months: 6).description == "9999-12-30")
        #expect(CalendarDate("2027-01-31")!.adding(months: .max) == CalendarDate.latest)
    }

    @Test("a campaign validated on a day in 9999 is checked, not a crash")
    func validatingNearTheEndOfTheCalendar() throws {
        for today in ["9999-07-01", "9999-12-31"] {
            let report = try CampaignValidator(today: CalendarDate(today)!)
                .validate(json: CampaignFixtures.bytes(CampaignFixtures.json(CampaignFixtures.everyCombination)))
            #expect(report.problems.allSatisfy { !$0.message.isEmpty })
        }
    }

    @Test func namesTheQuarter() {
        #expect(CalendarDate("2027-03-31")!.quarter == "2027-Q1")
        #expect(CalendarDate("2027-04-01")!.quarter == "2027-Q2")
        #expect(CalendarDate("2027-12-31")!.quarter == "2027-Q4")
    }
}
