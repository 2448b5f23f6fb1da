import CICal
import FoundationEssentials
import Glibc
import Testing
@testable import CalendarWidget

/// The calendar bundle's iCalendar reading through libical, on fixed dates: zones (a VTIMEZONE
/// in the file, the system's zone by name, UTC, floating), all-day events, RRULE with BYDAY
/// across Europe/Berlin's DST change, COUNT, UNTIL, EXDATE, RDATE, RECURRENCE-ID overrides,
/// cancelled events, and hostile input (garbage, an endless rule). The local zone is passed to
/// the reader (`local:`), so these hold whatever the process's `TZ` is.
@Suite struct ICalendarReaderTests {
    static let berlin = icaltimezone_get_builtin_timezone("Europe/Berlin")
    static let newYork = icaltimezone_get_builtin_timezone("America/New_York")

    /// An instant from UTC parts.
    static func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0) -> Date {
        var p = tm()
        p.tm_year = Int32(y - 1900); p.tm_mon = Int32(mo - 1); p.tm_mday = Int32(d); p.tm_hour = Int32(h); p.tm_min = Int32(mi)
        return Date(timeIntervalSince1970: Double(timegm(&p)))
    }

    static let berlinZone = """
        BEGIN:VTIMEZONE
        TZID:Europe/Berlin
        BEGIN:DAYLIGHT
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        TZNAME:CEST
        DTSTART:19700329T020000
        RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
        END:DAYLIGHT
        BEGIN:STANDARD
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        TZNAME:CET
        DTSTART:19701025T030000
        RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
        END:STANDARD
        END:VTIMEZONE
        """

    static func calendar(_ body: String, zone: Bool = false) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//widgethost tests//EN\r\n" + (zone ? berlinZone + "\r\n" : "") + body + "\r\nEND:VCALENDAR\r\n"
    }

    static func read(_ text: String, from: Date, to: Date, local: OpaquePointer? = berlin) -> ICalendarReader.Result {
        ICalendarReader.events(in: text, window: from..<to, calendar: "Test", color: "#FF0000", local: local)
    }

    static let standup = """
        BEGIN:VEVENT
        UID:standup@test
        DTSTAMP:20260101T000000Z
        DTSTART;TZID=Europe/Berlin:20260316T103000
        DTEND;TZID=Europe/Berlin:20260316T104500
        RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR
        SUMMARY:Standup
        END:VEVENT
        """

    @Test(arguments: [true, false])
    func aWeeklyByDaySeriesKeepsItsWallTimeAcrossTheDSTChange(withVTimezone: Bool) {
        // Without the VTIMEZONE, the TZID is the system's zone of that name (tzdata).
        let r = Self.read(Self.calendar(Self.standup, zone: withVTimezone), from: Self.utc(2026, 3, 25), to: Self.utc(2026, 4, 2))
        #expect(r.problems.isEmpty)
        // Wed 25, Fri 27 (CET, UTC+1), Mon 30, Wed 1 April (CEST, UTC+2): 10:30 in Berlin each time.
        #expect(r.events.map(\.start) == [Self.utc(2026, 3, 25, 9, 30), Self.utc(2026, 3, 27, 9, 30),
                                          Self.utc(2026, 3, 30, 8, 30), Self.utc(2026, 4, 1, 8, 30)])
        #expect(r.events.allSatisfy { $0.end.timeIntervalSince($0.start) == 900 && !$0.isAllDay && $0.title == "Standup" })
    }

    @Test func countAndUntilEndASeries() {
        let counted = Self.standup.replacing("BYDAY=MO,WE,FR", with: "BYDAY=MO,WE,FR;COUNT=4")
        let until = Self.standup.replacing("BYDAY=MO,WE,FR", with: "BYDAY=MO,WE,FR;UNTIL=20260320T235959Z")
        let c = Self.read(Self.calendar(counted, zone: true), from: Self.utc(2026, 3, 1), to: Self.utc(2026, 5, 1))
        #expect(c.events.map(\.start) == [Self.utc(2026, 3, 16, 9, 30), Self.utc(2026, 3, 18, 9, 30), Self.utc(2026, 3, 20, 9, 30),
                                          Self.utc(2026, 3, 23, 9, 30)])
        let u = Self.read(Self.calendar(until, zone: true), from: Self.utc(2026, 3, 1), to: Self.utc(2026, 5, 1))
        #expect(u.events.count == 3)
    }

    @Test func aLongSeriesWithoutCountStartsNearTheWindow() {
        // A daily series since 1990: ~13 000 days before the window, more than the step cap.
        let text = Self.calendar("""
            BEGIN:VEVENT
            UID:pills@test
            DTSTAMP:20260101T000000Z
            DTSTART;TZID=Europe/Berlin:19900101T080000
            DTEND;TZID=Europe/Berlin:19900101T081000
            RRULE:FREQ=DAILY
            SUMMARY:Pills
            END:VEVENT
            """, zone: true)
        let r = Self.read(text, from: Self.utc(2026, 3, 28), to: Self.utc(2026, 3, 31))
        #expect(r.problems.isEmpty, "\(r.problems)")
        #expect(r.events.map(\.start) == [Self.utc(2026, 3, 28, 7), Self.utc(2026, 3, 29, 6), Self.utc(2026, 3, 30, 6)])
    }

    @Test func anAllDayEventRunsFromLocalMidnightToLocalMidnight() {
        let text = Self.calendar("""
            BEGIN:VEVENT
            UID:bday@test
            DTSTAMP:20260101T000000Z
            DTSTART;VALUE=DATE:20260316
            SUMMARY:Birthday
            END:VEVENT
            BEGIN:VEVENT
            UID:trip@test
            DTSTAMP:20260101T000000Z
            DTSTART;VALUE=DATE:20260328
            DTEND;VALUE=DATE:20260330
            SUMMARY:Trip
            END:VEVENT
            """)
        let r = Self.read(text, from: Self.utc(2026, 3, 1), to: Self.utc(2026, 4, 1))
        #expect(r.events.count == 2)
        #expect(r.events[0].isAllDay && r.events[0].title == "Birthday")
        #expect(r.events[0].start == Self.utc(2026, 3, 15, 23) && r.events[0].end == Self.utc(2026, 3, 16, 23))
        // Two days across the change to summer time: 47 hours, midnight to midnight in Berlin.
        #expect(r.events[1].start == Self.utc(2026, 3, 27, 23) && r.events[1].end == Self.utc(2026, 3, 29, 22))
        // The same day in New York starts five hours later.
        let ny = Self.read(text, from: Self.utc(2026, 3, 1), to: Self.utc(2026, 4, 1), local: Self.newYork)
        #expect(ny.events[0].start == Self.utc(2026, 3, 16, 4))
    }

    @Test func exdateLeavesAnInstanceOutAndRdateAddsOne() {
        let text = Self.calendar("""
            BEGIN:VEVENT
            UID:daily@test
            DTSTAMP:20260101T000000Z
            DTSTART;TZID=Europe/Berlin:20260316T090000
            DTEND;TZID=Europe/Berlin:20260316T093000
            RRULE:FREQ=DAILY;COUNT=5
            EXDATE;TZID=Europe/Berlin:20260318T090000
            RDATE;TZID=Europe/Berlin:20260325T090000
            SUMMARY:Daily
            END:VEVENT
            """, zone: true)
        let r = Self.read(text, from: Self.utc(2026, 3, 1), to: Self.utc(2026, 4, 1))
        #expect(r.events.map(\.start) == [Self.utc(2026, 3, 16, 8), Self.utc(2026, 3, 17, 8), Self.utc(2026, 3, 19, 8),
                                          Self.utc(2026, 3, 20, 8), Self.utc(2026, 3, 25, 8)])
    }

    @Test func anOverrideReplacesItsInstanceAndACancelledOneIsGone() {
        let text = Self.calendar(Self.standup + "\r\n" + """
            BEGIN:VEVENT
            UID:standup@test
            DTSTAMP:20260101T000000Z
            RECURRENCE-ID;TZID=Europe/Berlin:20260318T103000
            DTSTART;TZID=Europe/Berlin:20260318T150000
            DTEND;TZID=Europe/Berlin:20260318T153000
            SUMMARY:Standup (moved)
            END:VEVENT
            BEGIN:VEVENT
            UID:standup@test
            DTSTAMP:20260101T000000Z
            RECURRENCE-ID;TZID=Europe/Berlin:20260320T103000
            DTSTART;TZID=Europe/Berlin:20260320T103000
            DTEND;TZID=Europe/Berlin:20260320T104500
            STATUS:CANCELLED
            SUMMARY:Standup
            END:VEVENT
            """, zone: true)
        let r = Self.read(text, from: Self.utc(2026, 3, 16), to: Self.utc(2026, 3, 21))
        #expect(r.events.map(\.title) == ["Standup", "Standup (moved)"])
        #expect(r.events[1].start == Self.utc(2026, 3, 18, 14) && r.events[1].end == Self.utc(2026, 3, 18, 14, 30))
    }

    @Test func aFloatingTimeIsReadInTheLocalZoneAndUTCStaysUTC() {
        let text = Self.calendar("""
            BEGIN:VEVENT
            UID:float@test
            DTSTAMP:20260101T000000Z
            DTSTART:20260316T090000
            DURATION:PT1H
            SUMMARY:Floating
            END:VEVENT
            BEGIN:VEVENT
            UID:utc@test
            DTSTAMP:20260101T000000Z
            DTSTART:20260316T120000Z
            DTEND:20260316T130000Z
            SUMMARY:Call
            END:VEVENT
            """)
        let berlin = Self.read(text, from: Self.utc(2026, 3, 16), to: Self.utc(2026, 3, 17))
        #expect(berlin.events.map(\.start) == [Self.utc(2026, 3, 16, 8), Self.utc(2026, 3, 16, 12)])
        #expect(berlin.events[0].end == Self.utc(2026, 3, 16, 9))
        let ny = Self.read(text, from: Self.utc(2026, 3, 16), to: Self.utc(2026, 3, 17), local: Self.newYork)
        #expect(ny.events.map(\.start) == [Self.utc(2026, 3, 16, 12), Self.utc(2026, 3, 16, 13)])
    }

    @Test func anEndlessRuleIsCutAndReportedAndGarbageIsOneProblem() {
        let text = Self.calendar("""
            BEGIN:VEVENT
            UID:storm@test
            DTSTAMP:20260101T000000Z
            DTSTART:20260316T000000Z
            RRULE:FREQ=SECONDLY
            SUMMARY:Storm
            END:VEVENT
            BEGIN:VEVENT
            UID:broken@test
            SUMMARY:No start
            END:VEVENT
            BEGIN:VEVENT
            UID:fine@test
            DTSTAMP:20260101T000000Z
            DTSTART:20260316T100000Z
            SUMMARY:Fine
            END:VEVENT
            """)
        // In the window: the series is cut at its cap of occurrences; the other event still shows.
        let r = Self.read(text, from: Self.utc(2026, 3, 16), to: Self.utc(2026, 3, 18))
        #expect(r.events.filter { $0.title == "Storm" }.count == ICalendarReader.maxInstances)
        #expect(r.events.contains { $0.title == "Fine" })
        #expect(r.problems.contains { $0.contains("\"Storm\": more than \(ICalendarReader.maxInstances) occurrences") }, "\(r.problems)")
        #expect(r.problems.contains { $0.contains("\"No start\" has no valid DTSTART") })
        // A day after its start: the iterator is stopped at its cap of steps before the window.
        let later = Self.read(text, from: Self.utc(2026, 3, 17), to: Self.utc(2026, 3, 18))
        #expect(!later.events.contains { $0.title == "Storm" })
        #expect(later.problems.contains { $0.contains("\"Storm\": the rule was cut after \(ICalendarReader.maxSteps)") }, "\(later.problems)")
        let garbage = Self.read("this is not a calendar\n\u{0}\u{1}", from: Self.utc(2026, 3, 16), to: Self.utc(2026, 3, 18))
        #expect(garbage.events.isEmpty && garbage.problems.count == 1)
    }
}
