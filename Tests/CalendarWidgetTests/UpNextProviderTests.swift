import FoundationEssentials
import Glibc
import OpenWidgetKit
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
            // A config written when the parameter was free text: names, any case, commas.
            onlyWork.calendars = CalendarEntity.named("WORK, nothing", among: [])
            #expect(UpNextProvider.entries(for: onlyWork, now: now, roots: [dir])[0].events.map(\.title) == ["Standup", "Lunch"])
            let noAllDay = UpNextConfiguration()
            noAllDay.showAllDay = false
            #expect(UpNextProvider.entries(for: noAllDay, now: now, roots: [dir])[0].events.map(\.title) == ["Standup", "Lunch"])
        }
    }

    /// The picker (`calendars`): "All Calendars" first, then each calendar by name with its
    /// colour — a folder's `displayname` and `color` files, a file's `X-WR-CALNAME` and
    /// `X-APPLE-CALENDAR-COLOR` (folded, with parameters), else its name and the palette's.
    @Test func theQueryListsTheCalendarsWithTheirNamesAndColours() {
        Self.withFolder { dir in
            Self.write(dir + "/calendars/work/a.ics", Self.event("a", ":20260315T100000Z", ":20260315T110000Z", "A"))
            Self.write(dir + "/calendars/work/color", "#1E88E5FF\n")
            Self.write(dir + "/calendars/work/displayname", "Office\n")
            Self.write(dir + "/calendars/home/b.ics", Self.event("b", ":20260315T120000Z", ":20260315T130000Z", "B"))
            Self.write(dir + "/team.ics", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-WR-CALNAME;VALUE=TEXT:Team \r\n Off-sites\r\n"
                       + "X-APPLE-CALENDAR-COLOR:#34c759\r\nBEGIN:VEVENT\r\nX-WR-CALNAME:not this\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
            Self.write(dir + "/plain.ics", Self.event("p", ":20260315T100000Z", ":20260315T110000Z", "P"))
            let listed = CalendarQuery.suggested(roots: [dir + "/calendars", dir + "/team.ics", dir + "/plain.ics", dir + "/missing.ics"])
            #expect(listed.map(\.id) == ["", dir + "/calendars/work", dir + "/team.ics", dir + "/calendars/home", dir + "/plain.ics"])
            #expect(listed.map(\.name) == ["All Calendars", "Office", "Team Off-sites", "home", "plain"])
            #expect(listed[1].color == "#1E88E5" && listed[2].color == "#34C759")
            #expect(CalendarSources.palette.contains(listed[3].color) && CalendarSources.palette.contains(listed[4].color))
            #expect(listed[3].color != listed[4].color)
            // The picker shows the title, the colour is its subtitle.
            #expect(listed[1].displayRepresentation == DisplayRepresentation(title: "Office", subtitle: "#1E88E5"))
            #expect(listed[0].displayRepresentation.subtitle == nil)
        }
    }

    /// Picking a calendar (its path) shows its events only; "All Calendars" ("") all of them;
    /// an old config's free text matches a file by its plain name too; a calendar gone, nothing.
    @Test func aPickedCalendarShowsOnlyItsEvents() {
        Self.withFolder { dir in
            Self.write(dir + "/cals/work/standup.ics", Self.event("s", ":20260315T103000Z", ":20260315T104500Z", "Standup"))
            Self.write(dir + "/cals/home/trip.ics", Self.event("t", ":20260315T150000Z", ":20260315T160000Z", "Trip"))
            Self.write(dir + "/team.ics", Self.event("o", ":20260315T140000Z", ":20260315T150000Z", "Offsite")
                .replacing("VERSION:2.0\n", with: "VERSION:2.0\nX-WR-CALNAME:Team\n"))
            let roots = [dir + "/cals", dir + "/team.ics"]
            let now = ICalendarReaderTests.utc(2026, 3, 15, 10, 10)
            let sources = CalendarSources.discover(roots: roots)
            func titles(_ id: String) -> [String] {
                let c = UpNextConfiguration()
                c.calendars = CalendarEntity.named(id, among: sources)
                return UpNextProvider.entries(for: c, now: now, roots: roots)[0].events.map(\.title)
            }
            #expect(titles(dir + "/cals/home") == ["Trip"])
            #expect(titles(dir + "/team.ics") == ["Offsite"])
            #expect(titles("") == ["Standup", "Offsite", "Trip"])
            #expect(UpNextProvider.entries(for: UpNextConfiguration(), now: now, roots: roots)[0].events.map(\.title) == ["Standup", "Offsite", "Trip"])
            #expect(titles("team, WORK") == ["Standup", "Offsite"])
            #expect(titles(dir + "/gone") == [])
        }
    }

    @Test func withoutCalendarsTheTimelineStillHasItsMidnights() {
        let now = ICalendarReaderTests.utc(2026, 3, 15, 22)
        let entries = UpNextProvider.entries(for: UpNextConfiguration(), now: now, roots: ["/nonexistent"])
        #expect(entries.map(\.date) == [now, ICalendarReaderTests.utc(2026, 3, 16), ICalendarReaderTests.utc(2026, 3, 17)])
        #expect(entries.allSatisfy { $0.events.isEmpty })
    }
}
