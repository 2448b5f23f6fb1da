import FoundationEssentials
import OpenWidgetKit
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

struct UsageEntry: TimelineEntry {
    let date: Date
    /// 0…1, nil when the source could not be read.
    let fraction: Double?
    let title: String
    let symbol: String
    let detail: String
}

/// CPU use since the previous reload (the worker lives between reloads); the first reading of a
/// fresh worker (or a second reading within a few jiffies) samples over 250 ms.
struct CPUProvider: TimelineProvider {
    private static let previous = Mutex<(busy: UInt64, total: UInt64)?>(nil)

    func placeholder(in context: Context) -> UsageEntry {
        UsageEntry(date: .now, fraction: 0.25, title: "CPU", symbol: "cpu", detail: "\(ProcReader.cpuCount()) cores")
    }
    func getSnapshot(in context: Context, completion: @escaping (UsageEntry) -> Void) { completion(sample()) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<UsageEntry>) -> Void) {
        completion(Timeline(entries: [sample()], policy: .after(.now.addingTimeInterval(5))))
    }

    private func sample() -> UsageEntry {
        var before = Self.previous.withLock { $0 }
        var now = ProcReader.cpuTimes()
        // A fresh worker, or two calls within a few jiffies (snapshot then timeline): sample
        // over a quarter second instead of dividing by nothing.
        if before == nil || (now?.total ?? 0) &- (before?.total ?? 0) < 20 {
            before = now
            usleep(250_000)
            now = ProcReader.cpuTimes()
        }
        Self.previous.withLock { $0 = now }
        var fraction: Double?
        if let b = before, let n = now, n.total > b.total {
            fraction = min(1, max(0, Double(n.busy &- b.busy) / Double(n.total - b.total)))
        }
        return UsageEntry(date: .now, fraction: fraction, title: "CPU", symbol: "cpu", detail: "\(ProcReader.cpuCount()) cores")
    }
}

struct UsageView: View {
    @Environment(\.widgetFamily) var family
    let entry: UsageEntry

    private var percent: String { entry.fraction.map { "\(Int(($0 * 100).rounded()))%" } ?? "n/a" }

    var body: some View {
        switch family {
        case .accessoryInline:
            Label("\(entry.title) \(percent)", systemImage: entry.symbol)
        case .accessoryCircular:
            Gauge(value: entry.fraction ?? 0) {
                Image(systemName: entry.symbol)
            } currentValueLabel: {
                Text(percent)
            }
            .gaugeStyle(.accessoryCircularCapacity)
        case .accessoryRectangular:
            VStack(alignment: .leading) {
                Label(entry.title, systemImage: entry.symbol).font(.caption)
                ProgressView(value: entry.fraction ?? 0)
                Text("\(percent) · \(entry.detail)").font(.caption2)
            }
        default:
            VStack(alignment: .leading, spacing: 4) {
                Label(entry.title, systemImage: entry.symbol).font(.caption).foregroundStyle(.secondary)
                Spacer()
                Text(percent).font(.largeTitle.bold()).monospacedDigit().lineLimit(1).minimumScaleFactor(0.5)
                ProgressView(value: entry.fraction ?? 0)
                    .tint((entry.fraction ?? 0) > 0.9 ? .red : .blue)
                Text(entry.detail).font(.caption2).foregroundStyle(.secondary)
            }
            // No .padding(): the family's content margins (16 pt) already keep it off the edges.
        }
    }
}

struct CPUWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "cpu", provider: CPUProvider()) { UsageView(entry: $0) }
            .configurationDisplayName("CPU")
            .description("Processor use over the last few seconds.")
            .supportedFamilies([.accessoryInline, .accessoryCircular, .accessoryRectangular, .systemSmall])
    }
}
