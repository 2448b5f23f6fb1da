import OpenWidgetKit
import WidgetPreviews

struct CityEntry: TimelineEntry {
    let date: Date
    let city: City
    let temperature: Int
}

struct CityProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> CityEntry {
        CityEntry(date: Date(), city: .berlin, temperature: 21)
    }

    func snapshot(for configuration: SelectCityIntent, in context: Context) async -> CityEntry {
        CityEntry(date: Date(), city: configuration.city, temperature: 18)
    }

    func timeline(for configuration: SelectCityIntent, in context: Context) async -> Timeline<CityEntry> {
        let now = Date()
        let entries = (0..<3).map { CityEntry(date: now.addingTimeInterval(Double($0) * 3600), city: configuration.city, temperature: 18 + $0) }
        return Timeline(entries: entries, policy: .atEnd)
    }
}

struct CityWidgetView: View {
    var entry: CityProvider.Entry
    @Environment(\.widgetFamily) var family

    var body: some View {
        VStack(alignment: .leading) {
            Text(entry.city.rawValue.prefix(1).uppercased() + entry.city.rawValue.dropFirst())
                .font(.headline)
            Text("\(entry.temperature)°")
                .font(.largeTitle)
            Button(intent: RefreshIntent()) {
                Text("Refresh")
            }
        }
    }
}

struct CityWidget: Widget {
    let kind: String = "CityWidget"

    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: kind, intent: SelectCityIntent.self, provider: CityProvider()) { entry in
            CityWidgetView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("City")
        .description("The weather in one city.")
    }
}

#Preview(as: .systemSmall) {
    CityWidget()
} timeline: {
    CityEntry(date: .now, city: .berlin, temperature: 21)
    CityEntry(date: .now.addingTimeInterval(3600), city: .tokyo, temperature: 25)
}

#Preview("Lisbon, medium", as: .systemMedium) {
    CityWidget()
} timeline: {
    CityEntry(date: .now, city: .lisbon, temperature: 19)
}
