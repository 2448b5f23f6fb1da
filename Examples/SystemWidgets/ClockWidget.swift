import FoundationEssentials
import OpenWidgetKit

struct ClockEntry: TimelineEntry {
    let date: Date
}

/// One entry per second for the next five minutes, then a reload: 288 reloads a day, so the
/// shipped config.json raises this bundle's budget.
struct ClockProvider: TimelineProvider {
    func placeholder(in context: Context) -> ClockEntry { ClockEntry(date: .now) }
    func getSnapshot(in context: Context, completion: @escaping (ClockEntry) -> Void) { completion(ClockEntry(date: .now)) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<ClockEntry>) -> Void) {
        let start = Date(timeIntervalSince1970: Double(Int(Date.now.timeIntervalSince1970)))
        let entries = (0..<300).map { ClockEntry(date: start.addingTimeInterval(Double($0))) }
        completion(Timeline(entries: entries, policy: .atEnd))
    }
}

struct ClockView: View {
    @Environment(\.widgetFamily) var family
    let entry: ClockEntry

    var body: some View {
        switch family {
        case .accessoryInline:
            Label(ProcReader.format(entry.date, "%a %d %b %H:%M:%S"), systemImage: "clock")
        case .accessoryCircular:
            VStack(spacing: 0) {
                Text(ProcReader.format(entry.date, "%H:%M")).font(.headline).monospacedDigit()
                Text(ProcReader.format(entry.date, "%S")).font(.caption2)
            }
        case .accessoryRectangular:
            VStack(alignment: .leading) {
                Text(ProcReader.format(entry.date, "%H:%M:%S")).font(.headline).monospacedDigit()
                Text(ProcReader.format(entry.date, "%A")).font(.caption)
                Text(ProcReader.format(entry.date, "%d %B %Y")).font(.caption2).foregroundStyle(.secondary)
            }
        default:
            VStack(alignment: .leading, spacing: 4) {
                Label("Clock", systemImage: "clock").font(.caption).foregroundStyle(.secondary)
                Spacer()
                // Eight digits of largeTitle are wider than a small widget (on iOS too): the
                // time shrinks to fit instead of ending in "…".
                Text(ProcReader.format(entry.date, "%H:%M:%S")).font(.largeTitle.bold()).monospacedDigit()
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
