//
//  CityWeatherWidget.swift
//  CityWeather
//
//  Written before iOS 17: a SiriKit intent (from the .intentdefinition) configures the city, and
//  the provider is an IntentTimelineProvider with completion handlers.
//

import WidgetKit
import SwiftUI
import Intents

struct WeatherEntry: TimelineEntry {
    let date: Date
    let forecast: CityForecast
}

struct Provider: IntentTimelineProvider {
    func placeholder(in context: Context) -> WeatherEntry {
        WeatherEntry(date: Date(), forecast: .cached(for: "Berlin", from: Date()))
    }

    func getSnapshot(for configuration: SelectCityIntent, in context: Context, completion: @escaping (WeatherEntry) -> ()) {
        completion(WeatherEntry(date: Date(), forecast: .cached(for: configuration.city ?? "Berlin", from: Date())))
    }

    func getTimeline(for configuration: SelectCityIntent, in context: Context, completion: @escaping (Timeline<WeatherEntry>) -> ()) {
        let entry = WeatherEntry(date: Date(), forecast: .cached(for: configuration.city ?? "Berlin", from: Date()))
        let nextHour = Calendar.current.dateInterval(of: .hour, for: Date())!.end
        completion(Timeline(entries: [entry], policy: .after(nextHour)))
    }
}

struct CityWeatherEntryView: View {
    var entry: Provider.Entry
    @Environment(\.widgetFamily) var family

    var body: some View {
        let forecast = entry.forecast
        VStack(alignment: .leading, spacing: 4) {
            HStack {
                Text(forecast.city)
                    .font(.headline)
                Image(systemName: "location.fill")
                    .font(.caption2)
                if family == .systemMedium {
                    Spacer(minLength: 0)
                    Button(intent: RefreshForecastIntent()) {
                        Image(systemName: "arrow.clockwise")
                    }
                    .buttonStyle(.plain)
                }
            }
            Text("\(forecast.temperature)°")
                .font(.system(size: 42, weight: .light))
            Spacer(minLength: 0)
            Image(systemName: forecast.symbol)
                .symbolRenderingMode(.multicolor)
                .font(.callout)
            Text(forecast.condition)
                .font(.caption.weight(.semibold))
            Text("H:\(forecast.high)° L:\(forecast.low)°")
                .font(.caption)
        }
        .frame(maxWidth: .infinity, alignment: .leading)
        .foregroundStyle(.white)
    }
}

struct HourlyView: View {
    let hours: [HourForecast]

    var body: some View {
        HStack {
            ForEach(hours) { hour in
                VStack(spacing: 6) {
                    Text(hour.date, format: .dateTime.hour())
                        .font(.caption2.weight(.medium))
                    Image(systemName: hour.symbol)
                        .font(.callout)
                    Text("\(hour.temperature)°")
                        .font(.callout.weight(.medium))
                }
                .frame(maxWidth: .infinity)
            }
        }
        .foregroundStyle(.white)
    }
}

struct CityWeatherMediumView: View {
    var entry: Provider.Entry

    var body: some View {
        // The current conditions take a bit over a third, the hours the rest.
        GeometryReader { geometry in
            HStack(alignment: .top, spacing: 12) {
                CityWeatherEntryView(entry: entry)
                    .frame(width: geometry.size.width * 0.38)
                HourlyView(hours: Array(entry.forecast.hours.prefix(5)))
            }
        }
    }
}

struct CityWeatherWidget: Widget {
    let kind: String = "CityWeatherWidget"

    var body: some WidgetConfiguration {
        IntentConfiguration(kind: kind, intent: SelectCityIntent.self, provider: Provider()) { entry in
            CityWeatherFamilyView(entry: entry)
                .containerBackground(for: .widget) {
                    LinearGradient(colors: [Color("WidgetBackground"), Color("WidgetBackground").opacity(0.7)],
                                   startPoint: .top, endPoint: .bottom)
                }
        }
        .configurationDisplayName("Weather")
        .description("The forecast for a city you choose.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

struct CityWeatherFamilyView: View {
    var entry: Provider.Entry
    @Environment(\.widgetFamily) var family

    var body: some View {
        if family == .systemMedium {
            CityWeatherMediumView(entry: entry)
        } else {
            CityWeatherEntryView(entry: entry)
        }
    }
}
