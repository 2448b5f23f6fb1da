import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where the data comes from: Open-Meteo's forecast and geocoding APIs (no key), or what
/// `WIDGETHOST_WEATHER_FORECAST_URL` / `WIDGETHOST_WEATHER_GEOCODING_URL` name instead (a test's
/// local server; `WIDGETHOST_*` variables reach the sandboxed worker). Pure apart from reading
/// the environment; safe from any thread.
enum OpenMeteoAPI {
    static let defaultForecastBase = "https://api.open-meteo.com/v1/forecast"
    static let defaultGeocodingBase = "https://geocoding-api.open-meteo.com/v1/search"

    static var forecastBase: String { environment("WIDGETHOST_WEATHER_FORECAST_URL") ?? defaultForecastBase }
    static var geocodingBase: String { environment("WIDGETHOST_WEATHER_GEOCODING_URL") ?? defaultGeocodingBase }

    /// Current conditions, 48 hours and two days, times as Unix seconds, in the unit asked for.
    static func forecastURL(latitude: Double, longitude: Double, unit: TemperatureUnitChoice) -> URL? {
        var query = [
            "latitude=\(latitude)", "longitude=\(longitude)",
            "current=temperature_2m,weather_code,is_day",
            "hourly=temperature_2m,weather_code,is_day",
            "daily=temperature_2m_max,temperature_2m_min",
            "timezone=auto", "timeformat=unixtime", "forecast_days=2",
        ]
        if unit == .fahrenheit { query.append("temperature_unit=fahrenheit") }
        return URL(string: forecastBase + "?" + query.joined(separator: "&"))
    }

    static func geocodingURL(name: String) -> URL? {
        // Percent-encoding of everything but RFC 3986's unreserved characters.
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        let encoded = name.utf8.map { unreserved.contains($0) ? String(UnicodeScalar($0)) : "%" + hex($0) }.joined()
        return URL(string: geocodingBase + "?name=\(encoded)&count=1&language=en&format=json")
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        let s = String(cString: value)
        return s.isEmpty ? nil : s
    }
}

private func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
}
/// The forecast response (`timeformat=unixtime`): only the fields the widget shows.
struct OpenMeteoForecast: Codable, Equatable {
    struct Current: Codable, Equatable {
        let time: Int
        let temperature_2m: Double
        let weather_code: Int
        let is_day: Int
    }
    struct Hourly: Codable, Equatable {
        let time: [Int]
        let temperature_2m: [Double?]
        let weather_code: [Int?]
        let is_day: [Int?]
    }
    struct Daily: Codable, Equatable {
        let time: [Int]
        let temperature_2m_max: [Double?]
        let temperature_2m_min: [Double?]
    }
    let utc_offset_seconds: Int
    /// The place's zone (`timezone=auto`), e.g. "Europe/Berlin"; nil in an answer without it.
    let timezone: String?
    let current: Current
    let hourly: Hourly
    let daily: Daily

    /// Decodes and checks the body: arrays of equal length and at least one hour and one day,
    /// or an error that says what is wrong.
    static func decode(_ data: Data) throws -> OpenMeteoForecast {
        let f: OpenMeteoForecast
        do { f = try JSONDecoder().decode(OpenMeteoForecast.self, from: data) } catch {
            throw FetchFailure(description: "the forecast is not Open-Meteo's JSON (\(String(describing: error).prefix(160)))")
        }
        let h = f.hourly, d = f.daily
        guard !h.time.isEmpty, h.temperature_2m.count == h.time.count, h.weather_code.count == h.time.count,
              h.is_day.count == h.time.count, !d.time.isEmpty, d.temperature_2m_max.count == d.time.count,
              d.temperature_2m_min.count == d.time.count else {
            throw FetchFailure(description: "the forecast's hourly or daily arrays are empty or of unequal length")
        }
        return f
    }
}

/// The geocoding response: the first match, if any.
struct OpenMeteoPlaces: Decodable {
    struct Place: Decodable {
        let name: String
        let latitude: Double
        let longitude: Double
    }
    let results: [Place]?
}
