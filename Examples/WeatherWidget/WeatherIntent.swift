import FoundationEssentials
import OpenWidgetKit

/// The widget's parameters, edited in the Edit Widget form: where, and in which unit.
struct WeatherConfigurationIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Weather"
    static var description = IntentDescription("Current conditions and the hourly forecast for a place.")

    /// A city name (found with Open-Meteo's geocoding) or "latitude, longitude".
    @Parameter(title: "Location", default: "Berlin")
    var location: String

    @Parameter(title: "Units", default: .celsius)
    var units: TemperatureUnitChoice
}

enum TemperatureUnitChoice: String, AppEnum {
    case celsius, fahrenheit
    static var typeDisplayRepresentation = TypeDisplayRepresentation(name: "Units")
    static var caseDisplayRepresentations: [TemperatureUnitChoice: DisplayRepresentation] = [
        .celsius: "°C",
        .fahrenheit: "°F",
    ]
}
