//
//  CityWidget.swift
//  IntentsWidget
//

import WidgetKit
import SwiftUI
import AppIntents

struct CityEntry: TimelineEntry {
    let date: Date
    let city: CityEntity?
}

struct CityProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> CityEntry {
        CityEntry(date: Date(), city: nil)
    }

    func snapshot(for configuration: SelectCityIntent, in context: Context) async -> CityEntry {
        CityEntry(date: Date(), city: configuration.city)
    }

    func timeline(for configuration: SelectCityIntent, in context: Context) async -> Timeline<CityEntry> {
        Timeline(entries: [CityEntry(date: Date(), city: configuration.city)], policy: .never)
    }
}

struct CityWidgetView: View {
    var entry: CityEntry

    var body: some View {
        VStack {
            Text(entry.city?.name ?? "No city")
                .font(.headline)
            if let city = entry.city {
                Text(city.utcOffset < 0 ? "UTC\(city.utcOffset)" : "UTC+\(city.utcOffset)")
                    .font(.title)
            }
        }
        .containerBackground(.fill.tertiary, for: .widget)
    }
}

struct CityWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "CityWidget", intent: SelectCityIntent.self, provider: CityProvider()) { entry in
            CityWidgetView(entry: entry)
        }
        .configurationDisplayName("City Time")
        .description("The time difference of a city you pick.")
        .supportedFamilies([.systemSmall, .accessoryInline])
    }
}
