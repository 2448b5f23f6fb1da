import FoundationEssentials
import OpenWidgetKit

struct BatteryEntry: TimelineEntry {
    let date: Date
    let percent: Int?
    let status: String
    var relevance: TimelineEntryRelevance? {
        // A draining, low battery matters more than anything else on the bar.
        guard let percent, status == "Discharging" else { return nil }
        return TimelineEntryRelevance(score: percent < 15 ? 100 : Float(100 - percent) / 10)
    }
}

struct BatteryProvider: TimelineProvider {
    func placeholder(in context: Context) -> BatteryEntry { BatteryEntry(date: .now, percent: 80, status: "Charging") }
    func getSnapshot(in context: Context, completion: @escaping (BatteryEntry) -> Void) { completion(sample()) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<BatteryEntry>) -> Void) {
        completion(Timeline(entries: [sample()], policy: .after(.now.addingTimeInterval(30))))
    }
    private func sample() -> BatteryEntry {
        let b = ProcReader.battery()
        return BatteryEntry(date: .now, percent: b?.percent, status: b?.status ?? "No battery")
    }
}

struct BatteryView: View {
    @Environment(\.widgetFamily) var family
    let entry: BatteryEntry

    private var symbol: String {
        switch entry.percent ?? 0 {
        case 88...: "battery.100"
        case 63..<88: "battery.75"
        case 38..<63: "battery.50"
        case 13..<38: "battery.25"
        default: "battery.0"
        }
    }

    var body: some View {
        let text = entry.percent.map { "\($0)%" } ?? "–"
        switch family {
        case .accessoryCircular:
            Gauge(value: Double(entry.percent ?? 0), in: 0...100) {
                Image(systemName: symbol)
            } currentValueLabel: {
                Text(text)
            }
            .gaugeStyle(.accessoryCircularCapacity)
        default:
            Label("\(text) \(entry.status)", systemImage: symbol)
                .foregroundStyle((entry.percent ?? 100) < 15 ? .red : .primary)
        }
    }
}

struct BatteryWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "battery", provider: BatteryProvider()) { BatteryView(entry: $0) }
            .configurationDisplayName("Battery")
            .description("Charge and state of the first battery.")
            .supportedFamilies([.accessoryInline, .accessoryCircular])
    }
}
