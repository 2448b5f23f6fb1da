//
//  WeatherWidget.swift
//  IntentsWidget
//
//  An `IntentConfiguration` widget as written before iOS 17: the entry carries the intent.
//

import WidgetKit
import SwiftUI
import Intents

struct WeatherProvider: IntentTimelineProvider {
    func placeholder(in context: Context) -> WeatherEntry {
        WeatherEntry(date: Date(), configuration: WeatherIntent())
    }

    func getSnapshot(for configuration: WeatherIntent, in context: Context, completion: @escaping (WeatherEntry) -> ()) {
        completion(WeatherEntry(date: Date(), configuration: configuration))
    }

    func getTimeline(for configuration: WeatherIntent, in context: Context, completion: @escaping (Timeline<WeatherEntry>) -> ()) {
        let entry = WeatherEntry(date: Date(), configuration: configuration)
        completion(Timeline(entries: [entry], policy: .atEnd))
    }
}

struct WeatherEntry: TimelineEntry {
    let date: Date
    let configuration: WeatherIntent
}

/// Fixed readings, so the widget shows the same on any day.
let readings: [String: (celsius: Int, feels: Int)] = ["Cupertino": (21, 20), "Oslo": (4, 1), "Lisbon": (18, 17)]

struct WeatherWidgetEntryView: View {
    var entry: WeatherProvider.Entry

    var location: String { entry.configuration.location ?? "Cupertino" }
    func shown(_ celsius: Int) -> String {
        entry.configuration.unit == .fahrenheit ? "\(celsius * 9 / 5 + 32)°F" : "\(celsius)°C"
    }

    var body: some View {
        let reading = readings[location] ?? (0, 0)
        VStack(alignment: .leading) {
            Text(location)
                .font(.headline)
            Text(shown(reading.celsius))
                .font(.largeTitle)
            if entry.configuration.showFeelsLike == true {
                Text("Feels like \(shown(reading.feels))")
                    .font(.caption)
            }
        }
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

struct WeatherWidget: Widget {
    let kind: String = "WeatherWidget"

    var body: some WidgetConfiguration {
        IntentConfiguration(kind: kind, intent: WeatherIntent.self, provider: WeatherProvider()) { entry in
            WeatherWidgetEntryView(entry: entry)
        }
        .configurationDisplayName("Weather")
        .description("The weather where you choose.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}
