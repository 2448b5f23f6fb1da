import FoundationEssentials
import OpenWidgetKit

/// The World Clock widget's view in each family, after Apple's Clock widget: a face filling the
/// small widget, four faces with their cities in a row on the medium one, a list of faces
/// with each city's time on the large one, and a face on the Lock Screen families.
struct WorldClockView: View {
    @Environment(\.widgetFamily) var family
    let entry: WorldClockEntry

    var body: some View {
        switch family {
        case .accessoryCircular:
            ClockFace(clock: entry.clocks[0], diameter: 64, numerals: false, label: entry.clocks[0].city.abbreviation, accessory: true)
                .widgetLabel(entry.clocks[0].city.name)
        case .accessoryRectangular:
            // A small face for the first city, then three cities with their times; read (by a
            // screen reader, and the text outputs) as the three cities and times.
            HStack(spacing: 8) {
                ClockFace(clock: entry.clocks[0], diameter: 46, numerals: false, accessory: true)
                VStack(alignment: .leading, spacing: 1) {
                    ForEach(entry.clocks.prefix(3), id: \.self) { c in
                        HStack(spacing: 4) {
                            Text(c.city.name).font(.system(size: 14, weight: .semibold)).lineLimit(1).minimumScaleFactor(0.7)
                            Spacer(minLength: 0)
                            Text(c.time).font(.system(size: 14, weight: .semibold)).monospacedDigit()
                        }
                    }
                }
            }
            .accessibilityElement(children: .ignore)
            .accessibilityLabel(entry.clocks.prefix(3).map { "\($0.city.name) \($0.time)" }.joined(separator: ", "))
        case .systemMedium:
            HStack(spacing: 0) {
                ForEach(entry.clocks.prefix(4), id: \.self) { c in
                    VStack(spacing: 2) {
                        ClockFace(clock: c, diameter: 66)
                        Text(c.city.name).font(.caption.weight(.semibold)).lineLimit(1).minimumScaleFactor(0.7).padding(.top, 6)
                        Text(c.dayLabel).font(.system(size: 10)).foregroundStyle(.secondary).lineLimit(1).minimumScaleFactor(0.7)
                    }
                    .frame(maxWidth: .infinity)
                    .accessibilityElement(children: .ignore)
                    .accessibilityLabel(c.spoken)
                }
            }
        case .systemLarge:
            VStack(spacing: 0) {
                ForEach(entry.clocks.prefix(4), id: \.self) { c in
                    HStack(spacing: 12) {
                        ClockFace(clock: c, diameter: 64)
                        VStack(alignment: .leading, spacing: 2) {
                            Text(c.city.name).font(.headline).lineLimit(1)
                            Text(c.dayLabel).font(.caption).foregroundStyle(.secondary)
                        }
                        Spacer(minLength: 4)
                        Text(c.time).font(.system(size: 34, weight: .light)).monospacedDigit()
                    }
                    .frame(maxHeight: .infinity)
                    .accessibilityElement(children: .ignore)
                    .accessibilityLabel(c.spoken)
                }
            }
        default:
            ClockFace(clock: entry.clocks[0], diameter: 128, label: entry.clocks[0].city.abbreviation)
        }
    }
}

/// The widget: its background as the Clock widget's (white, black in dark mode).
struct WorldClockWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "worldclock", intent: WorldClockIntent.self, provider: WorldClockProvider()) { entry in
            WorldClockView(entry: entry)
                .containerBackground(.background, for: .widget)
        }
        .configurationDisplayName("World Clock")
        .description("The time in cities around the world.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular])
    }
}

struct WorldClockWidgets: WidgetBundle {
    var body: some Widget {
        WorldClockWidget()
    }
}

// The plugin's entry point.
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer { WidgetPluginExport.entry(WorldClockWidgets.self, bundleId: "org.widgethost.worldclock") }
