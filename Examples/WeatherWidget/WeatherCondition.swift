import FoundationEssentials

/// A WMO weather interpretation code (Open-Meteo's `weather_code`) as Apple's Weather widget
/// names and draws it: the condition's text and its SF Symbol by day and by night. Pure.
struct WeatherCondition: Equatable {
    let text: String
    let daySymbol: String
    let nightSymbol: String
    /// Sunny or mostly clear: the blue sky background by day.
    let clearSky: Bool

    func symbol(isDay: Bool) -> String { isDay ? daySymbol : nightSymbol }

    /// Codes from Open-Meteo's documentation (WMO 4677, the subset it reports). Heavy rain and
    /// showers use `cloud.rain.fill`: the symbol font has no glyph of its own for
    /// `cloud.heavyrain` or `cloud.sun.rain`, whose fallbacks would drop the rain.
    init(code: Int) {
        switch code {
        case 0: self.init("Clear", "sun.max.fill", "moon.stars.fill", clear: true)
        case 1: self.init("Mostly Clear", "sun.max.fill", "moon.stars.fill", clear: true)
        case 2: self.init("Partly Cloudy", "cloud.sun.fill", "cloud.moon.fill", clear: true)
        case 3: self.init("Cloudy", "cloud.fill", "cloud.fill")
        case 45, 48: self.init("Foggy", "cloud.fog.fill", "cloud.fog.fill")
        case 51, 53, 55: self.init("Drizzle", "cloud.drizzle.fill", "cloud.drizzle.fill")
        case 56, 57: self.init("Freezing Drizzle", "cloud.sleet.fill", "cloud.sleet.fill")
        case 61: self.init("Light Rain", "cloud.rain.fill", "cloud.rain.fill")
        case 63: self.init("Rain", "cloud.rain.fill", "cloud.rain.fill")
        case 65: self.init("Heavy Rain", "cloud.rain.fill", "cloud.rain.fill")
        case 66, 67: self.init("Freezing Rain", "cloud.sleet.fill", "cloud.sleet.fill")
        case 71: self.init("Light Snow", "cloud.snow.fill", "cloud.snow.fill")
        case 73: self.init("Snow", "cloud.snow.fill", "cloud.snow.fill")
        case 75: self.init("Heavy Snow", "snowflake", "snowflake")
        case 77: self.init("Flurries", "cloud.snow.fill", "cloud.snow.fill")
        case 80, 81: self.init("Showers", "cloud.rain.fill", "cloud.rain.fill")
        case 82: self.init("Heavy Showers", "cloud.rain.fill", "cloud.rain.fill")
        case 85, 86: self.init("Snow Showers", "cloud.snow.fill", "cloud.snow.fill")
        case 95: self.init("Thunderstorms", "cloud.bolt.rain.fill", "cloud.bolt.rain.fill")
        case 96, 99: self.init("Hail", "cloud.bolt.rain.fill", "cloud.bolt.rain.fill")
        default: self.init("Unknown", "questionmark", "questionmark")
        }
    }

    private init(_ text: String, _ day: String, _ night: String, clear: Bool = false) {
        self.text = text; daySymbol = day; nightSymbol = night; clearSky = clear
    }
}
