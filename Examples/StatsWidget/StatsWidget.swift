// Port of "How to Build a Widget in SwiftUI" (seed 001): a configurable stats widget.
// Changes from the article are listed in docs/porting.md.
import FoundationEssentials
import OpenWidgetKit

// MARK: - App Intent (user configuration)
struct StatsConfigIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Stats Widget"
    static var description = IntentDescription("Shows your daily stats.")

    @Parameter(title: "Stat Type", default: .steps)
    var statType: StatType
}

enum StatType: String, AppEnum {
    case steps, calories, distance
    static var typeDisplayRepresentation = TypeDisplayRepresentation(name: "Stat Type")
    static var caseDisplayRepresentations: [StatType: DisplayRepresentation] = [
        .steps:    "Steps",
        .calories: "Calories",
        .distance: "Distance"
    ]
}

// MARK: - Timeline Entry
struct StatsEntry: TimelineEntry {
    let date: Date
    let statType: StatType
    let value: Double
    let unit: String
}

// MARK: - Provider
struct StatsProvider: AppIntentTimelineProvider {
    typealias Entry = StatsEntry
    typealias Intent = StatsConfigIntent

    func placeholder(in context: Context) -> StatsEntry {
        StatsEntry(date: .now, statType: .steps, value: 8_200, unit: "steps")
    }

    func snapshot(for configuration: StatsConfigIntent,
                  in context: Context) async -> StatsEntry {
        await makeEntry(for: configuration)
    }

    func timeline(for configuration: StatsConfigIntent,
                  in context: Context) async -> Timeline<StatsEntry> {
        let entry = await makeEntry(for: configuration)
        // Refresh at midnight local time
        let midnight = Calendar.current.startOfDay(for: .now).addingTimeInterval(86_400)
        return Timeline(entries: [entry], policy: .after(midnight))
    }

    private func makeEntry(for configuration: StatsConfigIntent) async -> StatsEntry {
        // Replace with real HealthKit / network fetch
        let (value, unit): (Double, String) = switch configuration.statType {
            case .steps:    (10_432, "steps")
            case .calories: (487,    "kcal")
            case .distance: (7.3,    "km")
        }
        return StatsEntry(date: .now, statType: configuration.statType,
                          value: value, unit: unit)
    }
}

// MARK: - Widget View
struct StatsWidgetView: View {
    var entry: StatsEntry
    @Environment(\.widgetFamily) private var family

    var body: some View {
        switch family {
        case .accessoryCircular:
            Gauge(value: entry.value, in: 0...15_000) {
                Image(systemName: "figure.walk")
            } currentValueLabel: {
                Text(entry.value / 1_000, format: .number.precision(.fractionLength(1)))
            }
            .gaugeStyle(.accessoryCircular)
            .containerBackground(.clear, for: .widget)

        case .accessoryRectangular:
            HStack {
                Image(systemName: "figure.walk")
                VStack(alignment: .leading) {
                    Text("Steps").font(.caption2)
                    Text(entry.value, format: .number).font(.headline)
                }
            }
            .containerBackground(.clear, for: .widget)

        default:
            homeScreenLayout
        }
    }

    // The article's home-screen layout.
    private var homeScreenLayout: some View {
        VStack(alignment: .leading, spacing: 4) {
            Label(entry.statType.rawValue.capitalized, systemImage: iconName)
                .font(.caption.weight(.semibold))
                .foregroundStyle(.secondary)

            Spacer()

            Text(entry.value, format: .number.precision(.fractionLength(0)))
                .font(family == .systemSmall ? .title : .largeTitle)
                .fontWeight(.bold)
                .minimumScaleFactor(0.6)
                .accessibilityLabel("\(Int(entry.value)) \(entry.unit)")

            Text(entry.unit)
                .font(.footnote)
                .foregroundStyle(.secondary)
        }
        .frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .leading)
        .padding()
        .containerBackground(.fill.tertiary, for: .widget)
    }

    private var iconName: String {
        switch entry.statType {
        case .steps:    "figure.walk"
        case .calories: "flame.fill"
        case .distance: "location.fill"
        }
    }
}

// MARK: - Widget Declaration
struct StatsWidget: Widget {
    let kind = "com.example.StatsWidget"

    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: kind,
                               intent: StatsConfigIntent.self,
                               provider: StatsProvider()) { entry in
            StatsWidgetView(entry: entry)
        }
        .configurationDisplayName("Daily Stats")
        .description("Track steps, calories, or distance at a glance.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge,
                            .accessoryCircular, .accessoryRectangular])
    }
}

// The plugin's entry point (replaces @main).
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer { WidgetPluginExport.entry(StatsWidget.self, bundleId: "com.example.stats") }
