import FoundationEssentials
import OpenWidgetKit

struct HeartPointsWidget: Widget {
    let kind: String = "heartRateWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: HeartPointsProvider()) { entry in
            HeartPointsEntryView(entry: entry)
        }
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
        .configurationDisplayName("Heart Points")
        .description("Today's heart points and when you earned them.")
    }
}

/// The bundle's second widget: the latest heart rate, for the lock screen.
struct LatestHeartRateWidget: Widget {
    let kind: String = "latestHeartRate"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: HeartPointsProvider()) { entry in
            LatestHeartRateView(entry: entry)
        }
        .supportedFamilies([.accessoryInline, .accessoryRectangular, .accessoryCircular])
        .configurationDisplayName("Heart Rate")
        .description("Your latest heart rate.")
    }
}

struct LatestHeartRateView: View {
    @Environment(\.widgetFamily) var family
    let entry: HeartPointsViewModel

    var body: some View {
        let bpm = entry.heartRates.last?.bpm
        switch family {
        case .accessoryCircular:
            Gauge(value: Double(bpm ?? 0), in: 40...Double(entry.maxHeartRate)) {
                Image(systemName: "heart.fill")
            } currentValueLabel: {
                Text(bpm.map { "\($0)" } ?? "–")
            }
            .gaugeStyle(.accessoryCircular)
        case .accessoryRectangular:
            VStack(alignment: .leading) {
                Label("Heart Rate", systemImage: "heart.fill").font(.caption2)
                Text(bpm.map { "\($0) BPM" } ?? "No data").font(.headline)
                Text("\(entry.heartPoints) heart points").font(.caption2)
            }
        default:
            Label(bpm.map { "\($0) BPM · \(entry.heartPoints) pts" } ?? "No heart data", systemImage: "heart.fill")
        }
    }
}

struct CardioBotWidgets: WidgetBundle {
    var body: some Widget {
        HeartPointsWidget()
        LatestHeartRateWidget()
    }
}

// The plugin's entry point (replaces @main).
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer { WidgetPluginExport.entry(CardioBotWidgets.self, bundleId: "com.cardiobot.widgets", appGroups: [cardioAppGroup]) }
