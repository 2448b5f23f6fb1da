import FoundationEssentials
import OpenWidgetKit

/// The widget's parameters, edited in the Edit Widget form: one menu per face. (The form has
/// no list control, so the four faces of the medium widget are four parameters; the small
/// and circular widgets show the first, the rectangular one the first two.)
struct WorldClockIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "World Clock"
    static var description = IntentDescription("The time in the cities you choose.")

    @Parameter(title: "City", default: .cupertino) var city1: City
    @Parameter(title: "Second City", default: .tokyo) var city2: City
    @Parameter(title: "Third City", default: .sydney) var city3: City
    @Parameter(title: "Fourth City", default: .paris) var city4: City

    var cities: [City] { [city1, city2, city3, city4] }
}

/// One minute of the clocks: the entry dated at the start of a minute draws every hand at the
/// middle of that minute, so whatever instant of the minute the screen shows, a hand is within
/// half a minute of the true time (the minute hand within 3°, the hour hand within 0.25°) and
/// exact at the half minute. The text times are the minute's.
struct WorldClockEntry: TimelineEntry {
    let date: Date
    let clocks: [CityTime]
}

/// A timeline of one entry a minute for two hours, then a reload: the hands move with no
/// reload in between (12 reloads a day, within WidgetKit's 40–70), and the host swaps entries
/// at their dates. Two hours, not more: a medium widget's entry is ~30 KB of tree, so its
/// timeline is ~3.6 MB of the host's 8 MiB a response (limits.maxResponseBytes). No entry per second: iOS gives a third-party widget no way to turn a hand with
/// the time (only live text and progress), so there is no seconds hand (docs/widgets/world-clock.md).
struct WorldClockProvider: AppIntentTimelineProvider {
    /// Entries per timeline: 120 minutes.
    static let minutes = 120

    func placeholder(in context: Context) -> WorldClockEntry { Self.entry(minuteOf: .now, cities: WorldClockIntent().cities) }

    func snapshot(for configuration: WorldClockIntent, in context: Context) async -> WorldClockEntry {
        Self.entry(minuteOf: .now, cities: configuration.cities)
    }

    func timeline(for configuration: WorldClockIntent, in context: Context) async -> Timeline<WorldClockEntry> {
        Timeline(entries: Self.entries(from: .now, cities: configuration.cities), policy: .atEnd)
    }

    /// The entry of `now`'s minute dated `now`, then one at each following minute's start.
    static func entries(from now: Date, cities: [City], count: Int = minutes) -> [WorldClockEntry] {
        let zones = Dictionary(cities.map { ($0, ZoneInfo(named: $0.zone)) }) { a, _ in a }
        let minute = (now.timeIntervalSince1970 / 60).rounded(.down) * 60
        return (0..<count).map { i in
            let start = Date(timeIntervalSince1970: minute + Double(i) * 60)
            return entry(date: i == 0 ? now : start, drawnAt: start.addingTimeInterval(30), cities: cities, zones: zones)
        }
    }

    static func entry(minuteOf now: Date, cities: [City]) -> WorldClockEntry {
        entries(from: now, cities: cities, count: 1)[0]
    }

    static func entry(date: Date, drawnAt instant: Date, cities: [City], zones: [City: ZoneInfo?]) -> WorldClockEntry {
        let local = ZoneInfo.localOffset(at: instant)
        return WorldClockEntry(date: date, clocks: cities.map { CityTime(city: $0, at: instant, zone: zones[$0] ?? nil, localOffset: local) })
    }
}
