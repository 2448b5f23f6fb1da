import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// `.dateTime` with its fields: `.hour().minute()`, `.weekday(.wide)`, `.month(.abbreviated)`,
/// `.day()`, `.year()`, `.second()`. In a `Text(date, format: .dateTime…)` it becomes a live node
/// the host renders in its own locale (`LocaleFormats`, the table of docs/widgetkit-parity.md)
/// and time zone — style `time` when only time fields were asked for, `date` otherwise, with the
/// fields as a skeleton (`DateText.fields`; a host that predates them shows the style);
/// interpolated into a string (`"At \(d, format: .dateTime.hour().minute())"`) it stays such a
/// live run. `format(_:)`, for callers that want a string, formats the same fields in this
/// process's locale (`LC_TIME`) and time zone (`TZ`). Value; any thread.
public struct DateTimeFormatStyle: TextFormatStyle, Hashable, Sendable {
    var fields = DateFields()

    public init() {}

    var liveStyle: String { fields.hasTime && !fields.hasDate ? "time" : "date" }
    /// The wire skeleton (`EEEEMMMd`; `.dateTime` alone: the standard fields, `yMdjm`).
    var skeleton: String { (fields.isEmpty ? DateFields.standard : fields).skeleton }

    private func with(_ change: (inout DateFields) -> Void) -> Self { var s = self; change(&s.fields); return s }

    public func year() -> Self { year(.defaultDigits) }
    public func year(_ style: Symbol) -> Self { with { $0.year = style.name == "twoDigits" ? 2 : 1 } }
    public func month() -> Self { month(.abbreviated) }
    public func month(_ style: Symbol) -> Self { with { $0.month = style.textWidth ?? (style.name == "twoDigits" ? 2 : 1) } }
    public func day() -> Self { day(.defaultDigits) }
    public func day(_ style: Symbol) -> Self { with { $0.day = style.name == "twoDigits" ? 2 : 1 } }
    public func weekday() -> Self { weekday(.abbreviated) }
    public func weekday(_ style: Symbol) -> Self { with { $0.weekday = style.textWidth ?? 3 } }
    public func hour() -> Self { hour(.defaultDigits) }
    public func hour(_ style: Symbol) -> Self { with { $0.hour = 1 } }
    public func minute() -> Self { minute(.twoDigits) }
    public func minute(_ style: Symbol) -> Self { with { $0.minute = 1 } }
    public func second() -> Self { second(.twoDigits) }
    public func second(_ style: Symbol) -> Self { with { $0.second = 1 } }

    /// Field widths: `.abbreviated` (`Nov`, `Wed`), `.wide` (`November`, `Wednesday`),
    /// `.narrow` (`N`, `W`), `.twoDigits` (`05`), `.defaultDigits` (`5`). A month in digits
    /// gives a numeric date (`11/25`). The hour follows the locale's clock whatever its style.
    public struct Symbol: Hashable, Sendable {
        let name: String
        public static let abbreviated = Symbol(name: "abbreviated")
        public static let wide = Symbol(name: "wide")
        public static let narrow = Symbol(name: "narrow")
        public static let short = Symbol(name: "short")
        public static let twoDigits = Symbol(name: "twoDigits")
        public static let defaultDigits = Symbol(name: "defaultDigits")
        public static func twoDigits(amPM: Symbol) -> Symbol { .twoDigits }
        public static func defaultDigits(amPM: Symbol) -> Symbol { .defaultDigits }
        public static let omitted = Symbol(name: "omitted")

        /// The skeleton letter count of a text width (`MMM`, `EEEE`…); nil for digits.
        var textWidth: Int? {
            switch name {
            case "abbreviated", "short": 3
            case "wide": 4
            case "narrow": 5
            default: nil
            }
        }
    }

    public func format(_ value: Date) -> String {
        let secs = value.timeIntervalSince1970
        guard secs.isFinite, abs(secs) < 1e15 else { return "" }
        var t = time_t(Int(secs.rounded(.down)))
        var tm = tm()
        tzset()
        guard localtime_r(&t, &tm) != nil else { return "" }
        return LocaleFormats.currentTime.format(fields, CivilDateTime(tm))
    }
}

extension CivilDateTime {
    /// The fields of a `localtime_r`/`gmtime_r` result.
    public init(_ tm: tm) {
        self.init(year: Int(tm.tm_year) + 1900, month: Int(tm.tm_mon) + 1, day: Int(tm.tm_mday), weekday: Int(tm.tm_wday),
                  hour: Int(tm.tm_hour), minute: Int(tm.tm_min), second: Int(tm.tm_sec))
    }
}

extension TextFormatStyle where Self == DateTimeFormatStyle {
    public static var dateTime: DateTimeFormatStyle { DateTimeFormatStyle() }
}
