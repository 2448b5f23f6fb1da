// Port of "Building widgets in SwiftUI" (seed 002): CardioBot's heart points. The article shows
// the provider, the family-dependent entry view and the bundle; the model, the health service
// and the chart were not shown and are written here. Changes are listed in docs/porting.md.
import FoundationEssentials
import OpenWidgetKit

/// The app group CardioBot's app (or a script) writes heart-rate samples into.
let cardioAppGroup = "group.com.cardiobot"

struct HeartRate: Hashable {
    let bpm: Int
    /// The minute the sample covers.
    let interval: DateInterval

    init(bpm: Int, interval: DateInterval = DateInterval(start: .now, duration: 60)) {
        self.bpm = bpm
        self.interval = interval
    }
}

/// The view model the widget shows: today's heart-rate samples, one per minute of activity,
/// scored like Google Fit's heart points (1 point per moderate minute, 2 per vigorous one).
struct HeartPointsViewModel {
    let heartRates: [HeartRate]
    let age: Int
    let goal: Int

    var maxHeartRate: Int { 220 - age }

    func points(for rate: HeartRate) -> Int {
        let share = Double(rate.bpm) / Double(maxHeartRate)
        if share >= 0.77 { return 2 }
        if share >= 0.64 { return 1 }
        return 0
    }

    var heartPoints: Int { heartRates.reduce(0) { $0 + points(for: $1) } }

    var progress: Double { goal > 0 ? min(1, Double(heartPoints) / Double(goal)) : 0 }

    /// Points per hour of the day (0–23), for the chart.
    var pointsByHour: [Int] {
        var hours = [Int](repeating: 0, count: 24)
        let calendar = Calendar.current
        for rate in heartRates {
            hours[calendar.component(.hour, from: rate.interval.start)] += points(for: rate)
        }
        return hours
    }
}

extension HeartPointsViewModel: TimelineEntry {
    var date: Date {
        heartRates.last?.interval.end ?? Date()
    }
}

/// Reads today's samples from the shared container (`heartRates`: an array of
/// `[start seconds since 1970, bpm]` pairs; `age`, `goal`), as the app's HealthKit sync writes them.
struct HealthService {
    func today() -> HeartPointsViewModel {
        let defaults = SharedDefaults(suiteName: cardioAppGroup)
        let age = defaults?.object(forKey: "age") == nil ? 29 : defaults!.integer(forKey: "age")
        let goal = defaults?.object(forKey: "goal") == nil ? 20 : defaults!.integer(forKey: "goal")
        let startOfDay = Calendar.current.startOfDay(for: .now)
        let samples: [HeartRate] = (defaults?.value(forKey: "heartRates")?.arrayValue ?? []).compactMap { item in
            guard let pair = item.arrayValue, pair.count == 2,
                  let start = pair[0].doubleValue, let bpm = pair[1].intValue else { return nil }
            let date = Date(timeIntervalSince1970: start)
            guard date >= startOfDay else { return nil }
            return HeartRate(bpm: bpm, interval: DateInterval(start: date, duration: 60))
        }
        return HeartPointsViewModel(heartRates: samples.sorted { $0.interval.start < $1.interval.start }, age: age, goal: goal)
    }
}
