import FoundationEssentials
import OpenWidgetKit

/// One hour's column of the medium widget.
struct HourColumn: Equatable {
    let label: String
    let symbol: String
    let temperature: Int
}

/// What the widget shows at `date`: built from a saved forecast (`init(saved:at:…)`), or the
/// problem when there is no forecast at all yet.
struct WeatherEntry: TimelineEntry {
    let date: Date
    let place: String
    let temperature: Int
    let condition: WeatherCondition
    let isDay: Bool
    let high: Int
    let low: Int
    let hours: [HourColumn]
    /// When the forecast shown was fetched.
    let updated: Date?
    /// The last fetch failed or the data is old: shown greyed, with "Updated … ago".
    let stale: Bool
    /// No forecast at all (first fetch failed): what went wrong, shown instead of numbers.
    let problem: String?

    /// A forecast older than this at an entry's date is shown as stale even if no fetch failed.
    static let staleAge: TimeInterval = 90 * 60

    init(date: Date, place: String, temperature: Int, condition: WeatherCondition, isDay: Bool, high: Int, low: Int,
         hours: [HourColumn], updated: Date?, stale: Bool, problem: String? = nil) {
        self.date = date; self.place = place; self.temperature = temperature; self.condition = condition
        self.isDay = isDay; self.high = high; self.low = low; self.hours = hours; self.updated = updated
        self.stale = stale; self.problem = problem
    }

    /// The forecast as it stands at `date`: the current conditions until the next hour of the
    /// hourly forecast begins, that hour's values after; "Now" and the five hours that follow.
    init(saved: WeatherStore.Saved, at date: Date, fetchFailed: Bool) {
        let f = saved.forecast, h = f.hourly
        let t = Int(date.timeIntervalSince1970)
        let index = h.time.lastIndex { $0 <= t } ?? 0
        let useCurrent = t < (h.time.first { $0 > f.current.time } ?? Int.max)
        let temperature = useCurrent ? f.current.temperature_2m : (h.temperature_2m[index] ?? f.current.temperature_2m)
        let code = useCurrent ? f.current.weather_code : (h.weather_code[index] ?? f.current.weather_code)
        let isDay = (useCurrent ? f.current.is_day : (h.is_day[index] ?? f.current.is_day)) != 0
        let condition = WeatherCondition(code: code)
        var hours = [HourColumn(label: "Now", symbol: condition.symbol(isDay: isDay), temperature: Int(temperature.rounded()))]
        // Hours in the place's own time: its zone when the calendar knows it (right across a
        // daylight-saving change), else the answer's one offset.
        var calendar = Calendar(identifier: .gregorian)
        let zone = f.timezone.flatMap { TimeZone(identifier: $0) }
        calendar.timeZone = zone ?? TimeZone(secondsFromGMT: f.utc_offset_seconds) ?? .gmt
        for i in h.time.indices where h.time[i] > t && hours.count < 6 {
            guard let value = h.temperature_2m[i], let c = h.weather_code[i] else { continue }
            let hour = calendar.component(.hour, from: Date(timeIntervalSince1970: Double(h.time[i])))
            hours.append(HourColumn(label: String(hour), symbol: WeatherCondition(code: c).symbol(isDay: (h.is_day[i] ?? 1) != 0),
                                    temperature: Int(value.rounded())))
        }
        // The local day of `date` at the place (daily times are its local midnights).
        let localDay = (t + f.utc_offset_seconds) / 86_400
        let d = f.daily
        let day = d.time.firstIndex { ($0 + f.utc_offset_seconds + 43_200) / 86_400 == localDay } ?? 0
        let high = d.temperature_2m_max[day] ?? temperature, low = d.temperature_2m_min[day] ?? temperature
        let updated = Date(timeIntervalSince1970: saved.fetchedAt)
        self.init(date: date, place: saved.place, temperature: Int(temperature.rounded()), condition: condition, isDay: isDay,
                  high: Int(max(high, temperature).rounded()), low: Int(min(low, temperature).rounded()), hours: hours,
                  updated: updated, stale: fetchFailed || date.timeIntervalSince(updated) > Self.staleAge)
    }

    /// What a gallery and a loading widget show.
    static func sample(at date: Date) -> WeatherEntry {
        WeatherEntry(date: date, place: "Berlin", temperature: 8, condition: WeatherCondition(code: 2), isDay: true, high: 11, low: 3,
                     hours: [HourColumn(label: "Now", symbol: "cloud.sun.fill", temperature: 8)]
                        + [(11, 9, 2), (12, 10, 2), (13, 11, 3), (14, 10, 61), (15, 9, 61)].map {
                            HourColumn(label: String($0.0), symbol: WeatherCondition(code: $0.2).daySymbol, temperature: $0.1)
                        },
                     updated: nil, stale: false)
    }
}
