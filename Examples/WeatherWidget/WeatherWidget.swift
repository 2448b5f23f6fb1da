import FoundationEssentials
import OpenWidgetKit

struct WeatherWidget: Widget {
    let kind = "weather"

    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: kind, intent: WeatherConfigurationIntent.self, provider: WeatherProvider()) { entry in
            WeatherWidgetView(entry: entry)
        }
        .configurationDisplayName("Weather")
        .description("Current conditions and the hourly forecast from Open-Meteo.")
        .supportedFamilies([.systemSmall, .systemMedium, .accessoryCircular, .accessoryRectangular, .accessoryInline])
    }
}

struct WeatherBundle: WidgetBundle {
    var body: some Widget {
        WeatherWidget()
    }
}

// The plugin's entry point: the network for Open-Meteo, the app group for the last good forecast.
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer {
    WidgetPluginExport.entry(WeatherBundle.self, bundleId: "org.widgethost.weather", appGroups: [weatherAppGroup], permissions: ["network"])
}
