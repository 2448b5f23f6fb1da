import FoundationEssentials
import Glibc
import OpenWidgetKit

/// The widget's parameters, editable in the Edit Widget form.
struct UpNextConfiguration: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Up Next"
    static var description = IntentDescription("Your next events, from your calendars.")

    /// The calendar to show (`CalendarEntity`: the id is its path, `""` all of them). One, not
    /// several: the SDK's parameters hold one entity, not an array. An old config's free text
    /// (names separated by commas) is read as before.
    @Parameter(title: "Calendar")
    var calendars: CalendarEntity?

    @Parameter(title: "Show All-Day Events", default: true)
    var showAllDay: Bool
}

/// What the views show at `date`: the events that have not ended by then, over the next
/// week, soonest first (all-day events first on their day), and the days of `date`'s month that
/// have events (the month grid's dots).
struct UpNextEntry: TimelineEntry {
    let date: Date
    let events: [CalendarEvent]
    let busyDays: Set<Int>
}

/// Local calendar arithmetic in the process's zone (`TZ` honoured), through the C library.
/// Pure functions of their arguments and the zone; any thread.
enum LocalDay {
    static func parts(_ date: Date) -> tm {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var p = tm()
        tzset()
        localtime_r(&t, &p)
        return p
    }

    /// The local midnight `days` days after the one that starts `date`'s day.
    static func start(of date: Date, adding days: Int = 0) -> Date {
        var p = parts(date)
        p.tm_hour = 0; p.tm_min = 0; p.tm_sec = 0; p.tm_mday += Int32(days); p.tm_isdst = -1
        return Date(timeIntervalSince1970: Double(mktime(&p)))
    }

    /// The first local midnight of `date`'s month, `months` months on.
    static func startOfMonth(_ date: Date, adding months: Int = 0) -> Date {
        var p = parts(date)
        p.tm_hour = 0; p.tm_min = 0; p.tm_sec = 0; p.tm_mday = 1; p.tm_mon += Int32(months); p.tm_isdst = -1
        return Date(timeIntervalSince1970: Double(mktime(&p)))
    }

    static func day(_ date: Date) -> Int { Int(parts(date).tm_mday) }

    /// "10:30" (24-hour, as the week view of Apple's Calendar in most locales).
    static func time(_ date: Date) -> String {
        let p = parts(date)
        return (p.tm_hour < 10 ? "0" : "") + "\(p.tm_hour):" + (p.tm_min < 10 ? "0" : "") + "\(p.tm_min)"
    }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]

    static func weekday(_ date: Date) -> String { weekdays[Int(parts(date).tm_wday)] }
    static func month(_ date: Date) -> String { months[Int(parts(date).tm_mon)] }
    static func year(_ date: Date) -> Int { Int(parts(date).tm_year) + 1900 }
}

/// Reads the calendars and lays out the timeline: an entry now, at every start and end of an
/// event in the next two days, and at the next two midnights; reloaded at the end (the host also
/// reloads it when a calendar file changes: the bundle declares the folders it reads).
struct UpNextProvider: AppIntentTimelineProvider {
    typealias Entry = UpNextEntry
    typealias Intent = UpNextConfiguration

    /// At most this many entries per timeline (the host caps timelines; two busy days fit).
    static let maxEntries = 48

    func placeholder(in context: Context) -> UpNextEntry {
        let now = Date.now
        let start = LocalDay.start(of: now).addingTimeInterval(10.5 * 3600)
        return UpNextEntry(date: now, events: [
            CalendarEvent(title: "Standup", location: "", start: start, end: start.addingTimeInterval(900), isAllDay: false,
                          calendar: "Work", color: "#007AFF"),
        ], busyDays: [])
    }

    func snapshot(for configuration: UpNextConfiguration, in context: Context) async -> UpNextEntry {
        Self.entries(for: configuration, now: .now).first!
    }

    func timeline(for configuration: UpNextConfiguration, in context: Context) async -> Timeline<UpNextEntry> {
        Timeline(entries: Self.entries(for: configuration, now: .now), policy: .atEnd)
    }

    /// The entries from `now` on, from the calendars under `roots`.
    static func entries(for configuration: UpNextConfiguration, now: Date, roots: [String] = CalendarPaths.roots()) -> [UpNextEntry] {
        let today = LocalDay.start(of: now)
        let window = min(today, LocalDay.startOfMonth(now))..<max(LocalDay.start(of: now, adding: 8), LocalDay.startOfMonth(now, adding: 1))
        let events = load(configuration, roots: roots, window: window)
        var dates: Set<Date> = [now, LocalDay.start(of: now, adding: 1), LocalDay.start(of: now, adding: 2)]
        let horizon = LocalDay.start(of: now, adding: 2)
        for e in events {
            for d in [e.start, e.end] where d > now && d < horizon { dates.insert(d) }
        }
        return dates.sorted().prefix(maxEntries).map { entry(at: $0, events: events) }
    }

    /// The entry at `date` from every occurrence loaded.
    static func entry(at date: Date, events: [CalendarEvent]) -> UpNextEntry {
        let monthStart = LocalDay.startOfMonth(date), monthEnd = LocalDay.startOfMonth(date, adding: 1)
        var busy = Set<Int>()
        for e in events where e.start < monthEnd && e.end > monthStart {
            var day = max(LocalDay.start(of: e.start), monthStart)
            while day < min(e.end, monthEnd) && busy.count < 31 {
                busy.insert(LocalDay.day(day)); day = LocalDay.start(of: day, adding: 1)
            }
        }
        let weekEnd = LocalDay.start(of: date, adding: 8)
        let coming = events.filter { $0.end > date && $0.start < weekEnd }
            .sorted { (LocalDay.start(of: $0.start), $0.isAllDay ? 0 : 1, $0.start, $0.title) < (LocalDay.start(of: $1.start), $1.isAllDay ? 0 : 1, $1.start, $1.title) }
        return UpNextEntry(date: date, events: Array(coming.prefix(12)), busyDays: busy)
    }

    /// The occurrences in `window` of the calendars `configuration` picks; every problem with a
    /// file is one line on stderr (the host's log) and the rest still shows.
    static func load(_ configuration: UpNextConfiguration, roots: [String], window: Range<Date>) -> [CalendarEvent] {
        let picked = configuration.calendars ?? .all
        var all: [CalendarEvent] = []
        for source in CalendarSources.discover(roots: roots) where picked.includes(source) {
            for file in source.files {
                guard let text = CalendarSources.read(file) else {
                    fputs("calendar: \(file): unreadable or larger than \(CalendarSources.maxFileBytes) bytes, skipped\n", stderr); continue
                }
                let result = ICalendarReader.events(in: text, window: window, calendar: source.name, color: source.color)
                for p in result.problems { fputs("calendar: \(file): \(p)\n", stderr) }
                all += result.events
            }
        }
        if !configuration.showAllDay { all.removeAll { $0.isAllDay } }
        return all
    }
}
