import FoundationEssentials
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// Fetches the forecast at most once an hour and lays it out as a timeline of hourly entries, so
/// the "Now" column moves on the hour without a fetch. A failed fetch keeps the last good
/// forecast (WeatherStore) and shows it as stale; with none, the entry says what went wrong.
/// Threading: the SDK calls it from its own task; it keeps no state of its own.
struct WeatherProvider: AppIntentTimelineProvider {
    typealias Entry = WeatherEntry
    typealias Intent = WeatherConfigurationIntent

    /// Open-Meteo's models update hourly: a younger forecast is used as it is, not fetched again
    /// (so the reload that the store's own write to the container causes fetches nothing).
    /// `WIDGETHOST_WEATHER_MIN_FETCH_SECONDS` sets another age (0: every reload fetches).
    static var freshFor: TimeInterval {
        getenv("WIDGETHOST_WEATHER_MIN_FETCH_SECONDS").flatMap { TimeInterval(String(cString: $0)) } ?? 50 * 60
    }
    /// The next reload after a good fetch, and after a failed one.
    static let refreshAfter: TimeInterval = 60 * 60
    static let retryAfter: TimeInterval = 30 * 60
    /// Entries ahead, one per hour of the hourly forecast.
    static let entryHours = 6

    func placeholder(in context: Context) -> WeatherEntry { .sample(at: .now) }

    func snapshot(for configuration: WeatherConfigurationIntent, in context: Context) async -> WeatherEntry {
        // The gallery shows the saved forecast when there is one, never waiting on the network.
        let store = WeatherStore()
        if let saved = store.forecast(for: Self.key(configuration)) {
            return WeatherEntry(saved: saved, at: .now, fetchFailed: false)
        }
        return .sample(at: .now)
    }

    func timeline(for configuration: WeatherConfigurationIntent, in context: Context) async -> Timeline<WeatherEntry> {
        let now = Date.now
        let store = WeatherStore()
        let key = Self.key(configuration)
        var saved = store.forecast(for: key)
        var failure: String?
        if saved == nil || now.timeIntervalSince1970 - saved!.fetchedAt >= Self.freshFor || now.timeIntervalSince1970 < saved!.fetchedAt {
            do {
                let fresh = try await fetch(configuration, store: store, at: now)
                store.save(fresh, for: key)
                saved = fresh
            } catch {
                failure = String(describing: error)
                Self.log("weather: \(configuration.location): \(failure!); \(saved == nil ? "no forecast yet" : "keeping the forecast fetched at \(Int(saved!.fetchedAt))")")
            }
        }
        guard let saved else {
            let entry = WeatherEntry(date: now, place: configuration.location, temperature: 0, condition: WeatherCondition(code: -1),
                                     isDay: true, high: 0, low: 0, hours: [], updated: nil, stale: true,
                                     problem: failure ?? "no forecast")
            return Timeline(entries: [entry], policy: .after(now.addingTimeInterval(Self.retryAfter)))
        }
        let nowSeconds = Int(now.timeIntervalSince1970)
        let hourStarts = saved.forecast.hourly.time.filter { $0 > nowSeconds }.prefix(Self.entryHours)
        let dates = [now] + hourStarts.map { Date(timeIntervalSince1970: Double($0)) }
        let entries = dates.map { WeatherEntry(saved: saved, at: $0, fetchFailed: failure != nil) }
        let next = now.addingTimeInterval(failure == nil ? Self.refreshAfter : Self.retryAfter)
        return Timeline(entries: entries, policy: .after(next))
    }

    /// Resolves the location (coordinates as given, or a name through geocoding, remembered) and
    /// fetches its forecast.
    private func fetch(_ configuration: WeatherConfigurationIntent, store: WeatherStore, at now: Date) async throws -> WeatherStore.Saved {
        let place = try await resolve(configuration.location, store: store)
        guard let url = OpenMeteoAPI.forecastURL(latitude: place.latitude, longitude: place.longitude, unit: configuration.units) else {
            throw FetchFailure(description: "cannot make a forecast URL from \(OpenMeteoAPI.forecastBase)")
        }
        let forecast = try OpenMeteoForecast.decode(try await OpenMeteoHTTP.get(url))
        return WeatherStore.Saved(place: place.name, fetchedAt: now.timeIntervalSince1970, forecast: forecast)
    }

    private func resolve(_ location: String, store: WeatherStore) async throws -> OpenMeteoPlaces.Place {
        let trimmed = location.trimmingCharacters(in: .whitespaces)
        let parts = trimmed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, let la = Double(parts[0]), let lo = Double(parts[1]), abs(la) <= 90, abs(lo) <= 180 {
            return OpenMeteoPlaces.Place(name: trimmed, latitude: la, longitude: lo)
        }
        guard !trimmed.isEmpty else { throw FetchFailure(description: "no location set") }
        if let known = store.place(named: trimmed) { return known }
        guard let url = OpenMeteoAPI.geocodingURL(name: trimmed) else { throw FetchFailure(description: "cannot make a geocoding URL") }
        let places: OpenMeteoPlaces
        do { places = try JSONDecoder().decode(OpenMeteoPlaces.self, from: try await OpenMeteoHTTP.get(url)) } catch let f as FetchFailure { throw f } catch {
            throw FetchFailure(description: "the geocoding answer is not Open-Meteo's JSON")
        }
        guard let place = places.results?.first else { throw FetchFailure(description: "no place called \"\(trimmed)\"") }
        store.save(place, named: trimmed)
        return place
    }

    private static func key(_ configuration: WeatherConfigurationIntent) -> String {
        configuration.location.trimmingCharacters(in: .whitespaces).lowercased() + " " + configuration.units.rawValue
    }

    /// One line on the worker's stderr, which is the host's log.
    static func log(_ line: String) {
        fputs(line + "\n", stderr)
        fflush(stderr)
    }
}
