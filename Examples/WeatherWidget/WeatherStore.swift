import FoundationEssentials
import OpenWidgetKit

let weatherAppGroup = "group.org.widgethost.weather"

/// The last good forecast of a location and unit, kept in the bundle's app group container
/// (`SharedDefaults`, so it outlives the worker's rest and the host's restart), and the places
/// geocoding found. Safe from any thread (each call reads or writes the file under its lock).
///
/// Every write to the container is a change the host watches and answers with a reload: the
/// store writes only what is new, so that reload finds nothing to write and ends the chain.
struct WeatherStore {
    struct Saved: Codable, Equatable {
        let place: String
        let fetchedAt: Double
        let forecast: OpenMeteoForecast
    }

    private let defaults = SharedDefaults(suiteName: weatherAppGroup)

    func forecast(for key: String) -> Saved? {
        guard let text = defaults?.string(forKey: "forecast " + key) else { return nil }
        return try? JSONDecoder().decode(Saved.self, from: Data(text.utf8))
    }

    /// Stores `saved` unless the same forecast is there already (its fetch date aside).
    func save(_ saved: Saved, for key: String) {
        if let old = forecast(for: key), old.forecast == saved.forecast, old.place == saved.place { return }
        guard let data = try? JSONEncoder().encode(saved) else { return }
        defaults?.set(String(decoding: data, as: UTF8.self), forKey: "forecast " + key)
    }

    func place(named name: String) -> OpenMeteoPlaces.Place? {
        guard let o = defaults?.value(forKey: "place " + name.lowercased())?.objectValue,
              let n = o["name"]?.stringValue, let la = o["latitude"]?.doubleValue, let lo = o["longitude"]?.doubleValue else { return nil }
        return OpenMeteoPlaces.Place(name: n, latitude: la, longitude: lo)
    }

    func save(_ place: OpenMeteoPlaces.Place, named name: String) {
        defaults?.set(.object(["name": .string(place.name), "latitude": .number(place.latitude), "longitude": .number(place.longitude)]),
                      forKey: "place " + name.lowercased())
    }
}
