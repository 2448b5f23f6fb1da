import FoundationEssentials

/// A simplified `.dateTime` style. In a `Text(date, format: .dateTime…)` it becomes a live node
/// the host renders in its own locale and time zone: style `time` when only time fields
/// (`hour`, `minute`, `second`) were asked for, `date` otherwise; interpolated into a string
/// (`"At \(d, format: .dateTime.hour().minute())"`) it stays such a live run. `format(_:)`, for
/// callers that want a string, renders ISO-like UTC text: `2025-01-31`, `14:05`, or both.
public struct DateTimeFormatStyle: TextFormatStyle, Hashable, Sendable {
    var date = false
    var time = false
    var seconds = false

    public init() {}

    var liveStyle: String { time && !date ? "time" : "date" }

    public func year() -> Self { var s = self; s.date = true; return s }
    public func month() -> Self { year() }
    public func month(_ style: Symbol) -> Self { year() }
    public func day() -> Self { year() }
    public func weekday() -> Self { year() }
    public func weekday(_ style: Symbol) -> Self { year() }
    public func hour() -> Self { var s = self; s.time = true; return s }
    public func hour(_ style: Symbol) -> Self { hour() }
    public func minute() -> Self { hour() }
    public func second() -> Self { var s = hour(); s.seconds = true; return s }

    /// Field widths (`.abbreviated`, `.wide`, `.narrow`, `.twoDigits`…); accepted, not used.
    public struct Symbol: Hashable, Sendable {
        let name: String
        public static let abbreviated = Symbol(name: "abbreviated")
        public static let wide = Symbol(name: "wide")
        public static let narrow = Symbol(name: "narrow")
        public static let twoDigits = Symbol(name: "twoDigits")
        public static let defaultDigits = Symbol(name: "defaultDigits")
        public static func twoDigits(amPM: Symbol) -> Symbol { .twoDigits }
        public static func defaultDigits(amPM: Symbol) -> Symbol { .defaultDigits }
    }

    public func format(_ value: Date) -> String {
        let secs = Int(value.timeIntervalSince1970.rounded(.down))
        let days = secs >= 0 ? secs / 86_400 : (secs - 86_399) / 86_400
        let rem = secs - days * 86_400
        let (y, m, d) = CivilDate.from(days: days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let datePart = "\(y)-\(two(m))-\(two(d))"
        var timePart = "\(two(rem / 3600)):\(two(rem % 3600 / 60))"
        if seconds { timePart += ":\(two(rem % 60))" }
        switch (date, time) {
        case (false, true): return timePart
        case (true, false): return datePart
        default: return datePart + " " + timePart
        }
    }
}

extension TextFormatStyle where Self == DateTimeFormatStyle {
    public static var dateTime: DateTimeFormatStyle { DateTimeFormatStyle() }
}
