import FoundationEssentials

/// What one city's clock shows at one instant: the hands' angles (degrees clockwise from 12),
/// its wall time as text and its day and offset against the local zone ("Today, +9HRS").
/// Pure arithmetic over the offsets in force at the instant; a value type, any thread.
struct CityTime: Hashable, Sendable {
    let city: City
    /// Seconds since the city's midnight, 0..<86 400.
    let wallSeconds: Int
    let hourAngle: Double
    let minuteAngle: Double
    /// Night in the city: 18:00 to 06:00 (the face turns black, as Apple's does).
    var isNight: Bool { wallSeconds < 6 * 3600 || wallSeconds >= 18 * 3600 }
    /// `HH:MM`, 24-hour.
    let time: String
    /// As Apple's Clock widget: "Today, +0HRS", "Tomorrow, +9HRS", "Yesterday, -5:30HRS".
    let dayLabel: String

    /// `city` at `instant`; `zone` its rules (nil: its file is missing, UTC is shown and the
    /// day label says "No time zone data") and `localOffset` the reader's offset
    /// (seconds east) at the same instant.
    init(city: City, at instant: Date, zone: ZoneInfo?, localOffset: Int) {
        self.city = city
        let t = Int(instant.timeIntervalSince1970.rounded(.down))
        let offset = zone?.offset(at: instant) ?? 0
        let cityLocal = t + offset, readerLocal = t + localOffset
        let wall = ((cityLocal % 86_400) + 86_400) % 86_400
        wallSeconds = wall
        (hourAngle, minuteAngle) = Self.angles(wallSeconds: Double(wall) + (instant.timeIntervalSince1970 - Double(t)))
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        time = "\(two(wall / 3600)):\(two(wall % 3600 / 60))"
        let dayDelta = Self.floorDiv(cityLocal, 86_400) - Self.floorDiv(readerLocal, 86_400)
        let day = dayDelta == 0 ? "Today" : dayDelta > 0 ? "Tomorrow" : "Yesterday"
        // Without the zone's file (no tzdata) the face would show UTC: say so instead of an offset.
        dayLabel = zone == nil && city != .utc ? "No time zone data" : "\(day), \(Self.hours(offset - localOffset))HRS"
    }

    /// What a screen reader — and the text outputs — say for a city: "Tokyo, 19:09, Today, +9HRS".
    var spoken: String { "\(city.name), \(time), \(dayLabel)" }

    /// The hour and minute hands' angles for a wall time (seconds since midnight, fractions
    /// allowed): the hour hand turns 30° an hour, the minute hand 6° a minute, both sweeping.
    static func angles(wallSeconds s: Double) -> (hour: Double, minute: Double) {
        let inHalfDay = s.truncatingRemainder(dividingBy: 43_200)
        return (inHalfDay / 120, s.truncatingRemainder(dividingBy: 3600) / 10)
    }

    /// A difference of offsets as Apple writes it: "+0", "-8", "+5:30".
    static func hours(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+", a = abs(seconds)
        let h = a / 3600, m = a % 3600 / 60
        return m == 0 ? "\(sign)\(h)" : "\(sign)\(h):\(m < 10 ? "0" : "")\(m)"
    }

    static func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
