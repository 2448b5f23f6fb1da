import FoundationEssentials
import OpenWidgetKit

extension CalendarEvent {
    /// The calendar's colour (#RRGGBB), red when it cannot be read.
    var tint: Color {
        let hex = color.dropFirst()
        guard color.hasPrefix("#"), hex.count == 6, let v = Int(hex, radix: 16) else { return .red }
        return Color(red: Double((v >> 16) & 0xFF) / 255, green: Double((v >> 8) & 0xFF) / 255, blue: Double(v & 0xFF) / 255)
    }

    /// "10:30–11:00", "All Day", or "from 09:00" for an event that started before `now`'s day.
    func timeText(on day: Date) -> String {
        if isAllDay { return "All Day" }
        if start < day { return "until " + LocalDay.time(end) }
        return LocalDay.time(start) + "–" + LocalDay.time(end)
    }
}

/// Apple's Calendar widget, "Up Next": the weekday in red capitals over the big day number, then
/// the next events with their calendar's colour bar; a month grid in the large family; the
/// next event on the Lock Screen's accessories.
struct UpNextView: View {
    let entry: UpNextEntry
    @Environment(\.widgetFamily) private var family

    private var today: Date { LocalDay.start(of: entry.date) }
    private var tomorrow: Date { LocalDay.start(of: entry.date, adding: 1) }
    private var todays: [CalendarEvent] { entry.events.filter { $0.start < tomorrow } }
    private var next: CalendarEvent? { entry.events.first { !$0.isAllDay && $0.start < tomorrow } ?? todays.first }

    var body: some View {
        switch family {
        case .accessoryInline:
            if let e = next {
                Text(e.isAllDay ? e.title : LocalDay.time(e.start) + " " + e.title)
            } else {
                Text("No more events today")
            }
        case .accessoryCircular:
            ZStack {
                AccessoryWidgetBackground()
                VStack(spacing: 0) {
                    Text(LocalDay.weekday(entry.date).prefix(3).uppercased())
                        .font(.system(size: 11, weight: .semibold))
                    Text("\(LocalDay.day(entry.date))")
                        .font(.system(size: 24, weight: .semibold))
                        .widgetAccentable()
                }
            }
        case .accessoryRectangular:
            VStack(alignment: .leading, spacing: 1) {
                if let e = next {
                    Text(e.title).font(.headline).lineLimit(1).widgetAccentable()
                    Text(e.timeText(on: today)).font(.body).lineLimit(1)
                    if !e.location.isEmpty { Text(e.location).font(.body).foregroundStyle(.secondary).lineLimit(1) }
                } else {
                    Text(LocalDay.weekday(entry.date) + " \(LocalDay.day(entry.date))").font(.headline).widgetAccentable()
                    Text("No more events today").font(.body).foregroundStyle(.secondary)
                }
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        case .systemMedium:
            HStack(alignment: .top, spacing: 12) {
                DateHeader(date: entry.date, large: true)
                    .frame(width: 96, alignment: .leading)
                EventList(entry: entry, height: 126)
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
        case .systemLarge:
            VStack(alignment: .leading, spacing: 8) {
                MonthGrid(date: entry.date, busyDays: entry.busyDays)
                Divider()
                EventList(entry: entry, height: 140)
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
        default:
            VStack(alignment: .leading, spacing: 4) {
                DateHeader(date: entry.date, large: false)
                EventList(entry: entry, height: 72, todayOnly: true)
            }
            .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .topLeading)
        }
    }
}

/// The weekday in red capitals over the day number.
struct DateHeader: View {
    let date: Date
    let large: Bool

    var body: some View {
        VStack(alignment: .leading, spacing: 0) {
            Text(LocalDay.weekday(date).uppercased())
                .font(.system(size: 11, weight: .semibold))
                .foregroundStyle(.red)
            Text("\(LocalDay.day(date))")
                .font(.system(size: large ? 40 : 32, weight: .regular))
        }
    }
}

/// One event: its calendar's colour bar, the title, the time.
struct EventRow: View {
    let event: CalendarEvent
    let day: Date

    var body: some View {
        HStack(alignment: .top, spacing: 6) {
            RoundedRectangle(cornerRadius: 1.5)
                .fill(event.tint)
                .frame(width: 3, height: 30)
                .widgetAccentable()
            VStack(alignment: .leading, spacing: 0) {
                Text(event.title).font(.system(size: 13, weight: .semibold)).lineLimit(1)
                Text(event.timeText(on: day)).font(.system(size: 12)).foregroundStyle(.secondary).lineLimit(1)
            }
        }
    }
}

/// The next events that fit `height` points: today's, then (unless `todayOnly`) the following
/// days' under a day heading; "No more events today" when today has none left.
struct EventList: View {
    let entry: UpNextEntry
    let height: Double
    var todayOnly = false

    static let rowHeight = 32.0, headingHeight = 14.0, spacing = 5.0

    /// What fits, in order: a day heading (nil event) or an event row.
    var lines: [(heading: String?, event: CalendarEvent?)] {
        let tomorrow = LocalDay.start(of: entry.date, adding: 1)
        var out: [(heading: String?, event: CalendarEvent?)] = []
        var used = 0.0, lastDay: Date? = nil
        func fits(_ h: Double) -> Bool { used + h + (out.isEmpty ? 0 : Self.spacing) <= height }
        func add(_ line: (heading: String?, event: CalendarEvent?), _ h: Double) { used += h + (out.isEmpty ? 0 : Self.spacing); out.append(line) }
        if !entry.events.contains(where: { $0.start < tomorrow }) { add(("No more events today", nil), Self.headingHeight) }
        for e in entry.events {
            let day = LocalDay.start(of: e.start)
            if day >= tomorrow {
                if todayOnly { break }
                if day != lastDay {
                    guard fits(Self.headingHeight + Self.spacing + Self.rowHeight) else { break }
                    add((day == tomorrow ? "TOMORROW" : LocalDay.weekday(e.start).uppercased(), nil), Self.headingHeight)
                }
            }
            guard fits(Self.rowHeight) else { break }
            add((nil, e), Self.rowHeight)
            lastDay = max(day, LocalDay.start(of: entry.date))
        }
        return out
    }

    var body: some View {
        let today = LocalDay.start(of: entry.date)
        VStack(alignment: .leading, spacing: Self.spacing) {
            ForEach(Array(lines.enumerated()), id: \.offset) { _, line in
                if let e = line.event {
                    EventRow(event: e, day: max(today, LocalDay.start(of: e.start)))
                } else if let heading = line.heading {
                    Text(heading)
                        .font(.system(size: heading.hasPrefix("No more") ? 13 : 11, weight: heading.hasPrefix("No more") ? .regular : .semibold))
                        .foregroundStyle(.secondary)
                }
            }
            Spacer(minLength: 0)
        }
        .frame(maxWidth: .infinity, alignment: .leading)
    }
}

/// The month at a glance: the month in red over a grid of its days (weeks from Monday), today
/// circled in red, a dot under each day with an event.
struct MonthGrid: View {
    let date: Date
    let busyDays: Set<Int>

    var body: some View {
        let first = LocalDay.startOfMonth(date)
        let count = LocalDay.day(LocalDay.start(of: LocalDay.startOfMonth(date, adding: 1), adding: -1))
        let leading = (Int(LocalDay.parts(first).tm_wday) + 6) % 7
        let cells: [Int?] = Array(repeating: nil, count: leading) + (1...count).map { Optional($0) }
        let today = LocalDay.day(date)
        let columns = Array(repeating: GridItem(.flexible(), spacing: 2), count: 7)
        VStack(alignment: .leading, spacing: 4) {
            HStack(spacing: 4) {
                Text(LocalDay.month(date).uppercased()).font(.system(size: 13, weight: .semibold)).foregroundStyle(.red)
                Text(String(LocalDay.year(date))).font(.system(size: 13, weight: .semibold)).foregroundStyle(.secondary)
            }
            LazyVGrid(columns: columns, spacing: 1) {
                ForEach(Array(["M", "T", "W", "T", "F", "S", "S"].enumerated()), id: \.offset) { _, s in
                    Text(s).font(.system(size: 10, weight: .semibold)).foregroundStyle(.secondary)
                }
                ForEach(Array(cells.enumerated()), id: \.offset) { _, day in
                    if let day {
                        VStack(spacing: 1) {
                            Text("\(day)")
                                .font(.system(size: 11, weight: day == today ? .bold : .regular))
                                .foregroundStyle(day == today ? Color.white : Color.primary)
                                .frame(width: 18, height: 18)
                                .background { if day == today { Circle().fill(.red) } }
                            Circle().fill(busyDays.contains(day) ? Color.secondary : Color.clear).frame(width: 3, height: 3)
                        }
                    } else {
                        Color.clear.frame(height: 1)
                    }
                }
            }
        }
    }
}
