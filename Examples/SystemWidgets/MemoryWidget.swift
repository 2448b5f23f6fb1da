import FoundationEssentials
import OpenWidgetKit

/// Memory in use (MemTotal − MemAvailable), refreshed every 10 s.
struct MemoryProvider: TimelineProvider {
    func placeholder(in context: Context) -> UsageEntry {
        UsageEntry(date: .now, fraction: 0.5, title: "Memory", symbol: "memorychip", detail: "8.0 of 16.0 GiB")
    }
    func getSnapshot(in context: Context, completion: @escaping (UsageEntry) -> Void) { completion(sample()) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<UsageEntry>) -> Void) {
        completion(Timeline(entries: [sample()], policy: .after(.now.addingTimeInterval(10))))
    }

    private func sample() -> UsageEntry {
        guard let m = ProcReader.memory() else {
            return UsageEntry(date: .now, fraction: nil, title: "Memory", symbol: "memorychip", detail: "/proc/meminfo unreadable")
        }
        let used = m.total - m.available
        let gib = { (kib: Double) in ProcReader.fixed(kib / 1_048_576, 1) }
        return UsageEntry(date: .now, fraction: used / m.total, title: "Memory", symbol: "memorychip",
                          detail: "\(gib(used)) of \(gib(m.total)) GiB")
    }
}

struct MemoryWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "memory", provider: MemoryProvider()) { UsageView(entry: $0) }
            .configurationDisplayName("Memory")
            .description("Memory in use.")
            .supportedFamilies([.accessoryInline, .accessoryCircular, .accessoryRectangular, .systemSmall])
    }
}
