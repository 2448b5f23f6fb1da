import FoundationEssentials
import Glibc
import OpenWidgetKit

/// One stretch of the wall clock: from `date` on, the local time of day is a live timer counting
/// up from `dayStart` (the local midnight under the UTC offset in force at `date`), so the host
/// ticks the seconds itself and the timeline needs no entry per second.
struct ClockEntry: TimelineEntry {
    let date: Date
    /// Where the timer counts from: `date`'s wall-clock time of day is `date - dayStart`.
    let dayStart: Date
    /// The digits the timer style leaves out to read as `HH:MM:SS`: a timer writes "9:05:03"
    /// from one hour on and "4:05" below it, so before 10:00 the entry adds "0", before 01:00
    /// "00:", before 00:10 "00:0". Each prefix holds until the next entry.
    let prefix: String

    /// The stretch that contains `date` (in the process's time zone, `TZ` honoured).
    init(at date: Date) {
        let whole = Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
        let wall = ClockDay.wallSeconds(at: whole)
        self.date = whole
        self.dayStart = whole.addingTimeInterval(-Double(wall))
        self.prefix = wall < 600 ? "00:0" : wall < 3600 ? "00:" : wall < 36_000 ? "0" : ""
    }
}

/// Local wall-clock arithmetic for the clock's timeline. Pure functions of their arguments and
/// the process's time zone; safe from any thread.
enum ClockDay {
    /// The UTC offset (seconds east) in force at `date`.
    static func offset(at date: Date) -> Int {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        tzset()
        localtime_r(&t, &parts)
        return Int(parts.tm_gmtoff)
    }

    /// Seconds since the local midnight at `date`, 0..<86 400, under the offset at `date`.
    static func wallSeconds(at date: Date) -> Int {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset(at: date)
        return ((local % 86_400) + 86_400) % 86_400
    }

    /// The instant after `date` at which the clock's text changes other than by the timer's
    /// tick: the next wall time among 00:10, 01:00, 10:00 and midnight (the prefix and the date
    /// line), or an earlier change of UTC offset (a DST change moves the timer's start).
    static func nextBoundary(after date: Date) -> Date {
        let wall = wallSeconds(at: date)
        let next = [600, 3600, 36_000, 86_400].first { $0 > wall }!
        let candidate = date.addingTimeInterval(Double(next - wall))
        let o = offset(at: date)
        guard offset(at: candidate) != o else { return candidate }
        // The offset changed on the way: the first second under the new one, found by halves.
        var lo = Int(date.timeIntervalSince1970), hi = Int(candidate.timeIntervalSince1970)
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if offset(at: Date(timeIntervalSince1970: Double(mid))) == o { lo = mid } else { hi = mid }
        }
        return Date(timeIntervalSince1970: Double(hi))
    }
}

/// Two days of the wall clock as live timers: an entry now, then only where the text changes
/// other than by a tick (00:10, 01:00, 10:00, midnight, a DST change), so about five a day and a
/// reload every other day — the worker rests between, the host ticks the seconds and sends the
/// desktop nothing per second (iOS shows a seconds clock the same way: `Text(_:style: .timer)`).
struct ClockProvider: TimelineProvider {
    func placeholder(in context: Context) -> ClockEntry { ClockEntry(at: .now) }
    func getSnapshot(in context: Context, completion: @escaping (ClockEntry) -> Void) { completion(ClockEntry(at: .now)) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<ClockEntry>) -> Void) {
        var entries = [ClockEntry(at: .now)]
        let end = entries[0].date.addingTimeInterval(2 * 86_400)
        while entries.count < 64 {
            let next = ClockDay.nextBoundary(after: entries[entries.count - 1].date)
            guard next <= end else { break }
            entries.append(ClockEntry(at: next))
        }
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}

struct ClockView: View {
    @Environment(\.widgetFamily) var family
    let entry: ClockEntry

    /// `HH:MM:SS`, ticking: the entry's prefix and a timer counting up from its local midnight.
    var time: Text { Text(entry.prefix) + Text(entry.dayStart, style: .timer) }

    var body: some View {
        switch family {
        case .accessoryInline:
            Label { Text(ProcReader.format(entry.date, "%a %d %b ")) + time } icon: { Image(systemName: "clock") }
        case .accessoryCircular:
            // A timer cannot show the seconds alone: the whole time on one line (shrunk to fit
            // the circle) over the weekday.
            VStack(spacing: 0) {
                time.font(.subheadline.weight(.semibold)).monospacedDigit().lineLimit(1).minimumScaleFactor(0.5)
                Text(ProcReader.format(entry.date, "%a")).font(.caption2)
            }
        case .accessoryRectangular:
            VStack(alignment: .leading) {
                time.font(.headline).monospacedDigit()
                Text(ProcReader.format(entry.date, "%A")).font(.caption)
                Text(ProcReader.format(entry.date, "%d %B %Y")).font(.caption2).foregroundStyle(.secondary)
            }
        default:
            VStack(alignment: .leading, spacing: 4) {
                Label("Clock", systemImage: "clock").font(.caption).foregroundStyle(.secondary)
                Spacer()
                // Eight digits of largeTitle are wider than a small widget (on iOS too): the
                // time shrinks to fit instead of ending in "…".
                time.font(.largeTitle.bold()).monospacedDigit()
                    .lineLimit(1).minimumScaleFactor(0.5)
                Text(ProcReader.format(entry.date, "%A %d %B")).font(.caption).foregroundStyle(.secondary)
            }
            .frame(maxWidth: .infinity, alignment: .leading)
            // No .padding(): the family's content margins (16 pt) already keep it off the edges.
        }
    }
}

struct ClockWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "clock", provider: ClockProvider()) { ClockView(entry: $0) }
            .configurationDisplayName("Clock")
            .description("The local time, to the second.")
            .supportedFamilies([.accessoryInline, .accessoryCircular, .accessoryRectangular, .systemSmall])
    }
}
