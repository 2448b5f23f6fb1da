import FoundationEssentials
import Glibc
import Testing
@testable import CalendarWidget

/// Where the calendar bundle finds calendars (khal's and vdirsyncer's folders, a single file,
/// their names and colours, the folders the person granted) and the timeline it lays out
/// (entries at starts, ends and midnights; today's events; the parameters). Real files in a
/// fresh folder; the process's zone is UTC (as the other suites of this process pin it).
@Suite struct UpNextProviderTests {
    init() { setenv("TZ", "UTC", 1); tzset() }

    /// A fresh folder, removed at the end of `body`.
    static func withFolder(_ body: (String) throws -> Void) rethrows {
        var template = Array("/tmp/calendar-tests-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        defer { _ = system("rm -rf '\(dir)'") }
        try body(dir)
    }

    static func write(_ path: String, _ text: String) {
        let parent = String(path[..<path.lastIndex(of: "/")!])
        _ = system("mkdir -p '\(parent)'")
        let f = fopen(path, "w")!
        fputs(text, f)
        fclose(f)
    }

    static func event(_ uid: String, _ start: String, _ end: String, _ title: String) -> String {
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//t//EN\nBEGIN:VEVENT\nUID:\(uid)\nDTSTAMP:20260101T000000Z\n"
            + "DTSTART\(start)\nDTEND\(end)\nSUMMARY:\(title)\nEND:VEVENT\nEND:VCALENDAR\n"
    }

    @Test func findsKhalFoldersASingleFileAndTheirNamesAndColours() {
        Self.withFolder { dir in
            Self.write(dir + "/calendars/work/a.ics", Self.event("a", ":20260315T100000Z", ":20260315T110000Z", "A"))
            Self.write(dir + "/calendars/work/color", "#1E88E5FF\n")
            Self.write(dir + "/calendars/work/displayname", "Office\n")
            Self.write(dir + "/calendars/empty/readme.txt", "no calendar here")
            Self.write(dir + "/calendars/home/b.ics", Self.event("b", ":20260315T120000Z", ":20260315T130000Z", "B"))
            Self.write(dir + "/calendars/home/color", "not a colour")
            Self.write(dir + "/holidays.ics", Self.event("h", ";VALUE=DATE:20260316", ";VALUE=DATE:20260317", "Holiday"))
            let found = CalendarSources.discover(roots: [dir + "/calendars", dir + "/holidays.ics", dir + "/missing"])
            #expect(found.map(\.name) == ["Office", "holidays", "home"])
            #expect(found[0].color == "#1E88E5" && found[0].files == [dir + "/calendars/work/a.ics"])
            #expect(CalendarSources.palette.contains(found[2].color))
        }
    }

    @Test func theRootsAreTheDeclaredFoldersAndTheGrantedOnes() {
        let roots = CalendarPaths.roots(environment: ["HOME": "/home/u", "WIDGETHOST_GRANTED_PATHS": "/srv/cal\nrelative\n/media/team.ics"])
        #expect(roots == ["/home/u/.local/share/calendars", "/home/u/.calendars", "/home/u/.calendar.ics", "/srv/cal", "/media/team.ics"])
        #expect(CalendarPaths.roots(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/data"]).first == "/data/calendars")
    }

    @Test func theTimelineHasAnEntryAtEveryStartAndEndAndAtMidnight() {
        Self.withFolder { dir in
            Self.write(dir + "/work/standup.ics", Self.event("s", ":20260315T103000Z", ":20260315T104500Z", "Standup"))
            Self.write(dir + "/work/lunch.ics", Self.event("l", ":20260315T120000Z", ":20260315T130000Z", "Lunch"))
            Self.write(dir + "/work/past.ics", Self.event("p", ":20260315T080000Z", ":20260315T090000Z", "Breakfast"))
            Self.write(dir + "/home/trip.ics", Self.event("t", ";VALUE=DATE:20260316", ";VALUE=DATE:20260317", "Trip"))
            let now = ICalendarReaderTests.utc(2026, 3, 15, 10, 10)
            let entries = UpNextProvider.entries(for: UpNextConfiguration(), now: now, roots: [dir])
            func d(_ y: Int, _ mo: Int, _ da: Int, _ h: Int = 0, _ mi: Int = 0) -> Date { ICalendarReaderTests.utc(y, mo, da, h, mi) }
            #expect(entries.map(\.date) == [now, d(2026, 3, 15, 10, 30), d(2026, 3, 15, 10, 45), d(2026, 3, 15, 12), d(2026, 3, 15, 13),
                                            d(2026, 3, 16, 0), d(2026, 3, 17, 0)])
            #expect(entries[0].events.map(\.title) == ["Standup", "Lunch", "Trip"])
            #expect(entries[2].events.map(\.title) == ["Lunch", "Trip"])  // the standup has ended
            #expect(entries[0].busyDays == [15, 16])

            let onlyWork = UpNextConfiguration()
            onlyWork.calendars = "WORK"
            #expect(UpNextProvider.entries(for: onlyWork, now: now, roots: [dir])[0].events.map(\.title) == ["Standup", "Lunch"])
            let noAllDay = UpNextConfiguration()
            noAllDay.showAllDay = false
            #expect(UpNextProvider.entries(for: noAllDay, now: now, roots: [dir])[0].events.map(\.title) == ["Standup", "Lunch"])
        }
    }

    @Test func withoutCalendarsTheTimelineStillHasItsMidnights() {
        let now = ICalendarReaderTests.utc(2026, 3, 15, 22)
        let entries = UpNextProvider.entries(for: UpNextConfiguration(), now: now, roots: ["/nonexistent"])
        #expect(entries.map(\.date) == [now, ICalendarReaderTests.utc(2026, 3, 16), ICalendarReaderTests.utc(2026, 3, 17)])
        #expect(entries.allSatisfy { $0.events.isEmpty })
    }
}
