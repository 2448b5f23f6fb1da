import FoundationEssentials

/// The fields a `.dateTime` format asks for (`.weekday(.wide).month().day()`), as on the wire: a
/// Unicode date skeleton (`EEEEMMMd`), each field once, in the order `E y M d j m s`. Letters:
/// `EEE` abbreviated weekday, `EEEE` wide, `EEEEE` narrow; `y` year, `yy` two digits; `M`/`MM`
/// month number, `MMM` abbreviated, `MMMM` wide, `MMMMM` narrow; `d`/`dd` day; `j`/`jj` hour in
/// the locale's clock; `m` minute; `s` second. Letters this SDK does not know are ignored. Value.
public struct DateFields: Hashable, Sendable {
    /// Letter count per field letter (`E`, `y`, `M`, `d`, `j`, `m`, `s`); 0 = absent.
    public var weekday = 0, year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0

    public init() {}

    /// Reads a skeleton; unknown letters are skipped, the longest run of a letter counts.
    public init(skeleton: String) {
        var chars = Array(skeleton.unicodeScalars)
        while let c = chars.first {
            let run = chars.prefix { $0 == c }.count
            chars.removeFirst(run)
            switch c {
            case "E": weekday = max(weekday, run)
            case "y": year = max(year, run)
            case "M", "L": month = max(month, run)
            case "d": day = max(day, run)
            case "j", "h", "H": hour = max(hour, run)
            case "m": minute = max(minute, run)
            case "s": second = max(second, run)
            default: break
            }
        }
    }

    public var skeleton: String {
        [("E", weekday), ("y", year), ("M", month), ("d", day), ("j", hour), ("m", minute), ("s", second)]
            .map { String(repeating: $0.0, count: $0.1) }.joined()
    }

    public var isEmpty: Bool { self == DateFields() }
    var hasDate: Bool { weekday + year + month + day > 0 }
    var hasTime: Bool { hour + minute + second > 0 }

    /// What `.dateTime` with no fields shows, as in Foundation: the numeric date and the time.
    public static let standard = DateFields(skeleton: "yMdjm")
}

/// How a locale orders and joins `.dateTime` fields: the shape of CLDR's patterns for the
/// skeletons widgets use (`d`, `MMMd`, `yMMMd`, `EEEEMMMMd`, `yMd`, `jm`…). Value.
public struct DateFieldRules: Hashable, Sendable {
    /// Month before day (`Nov 25`, `11/25/2026`), as in en_US.
    public var monthFirst: Bool
    /// Between the numbers of a numeric date (`/` or `.`).
    public var numericSeparator: String
    /// A numeric date's day and month in two digits (`05/03/2026`).
    public var numericTwoDigits: Bool
    /// After the weekday when more of the date follows (`Wed, Nov 25`).
    public var weekdaySeparator: String
    /// Between the date and the time.
    public var dateTimeSeparator: String
    /// After the day in a date with a month name (`25. Nov.` in German).
    public var daySuffix: String
    /// A numeric date ends with its separator when it has no year (`25.11.`).
    public var numericTrailingSeparator: Bool
    /// Between day, wide month and year (`25 de noviembre de 2026`); " " elsewhere.
    public var wideMonthJoiner: String
    /// After an hour shown alone on a 24-hour clock (`14 Uhr`, `14 h`).
    public var hourOnlySuffix: String

    public init(monthFirst: Bool, numericSeparator: String, numericTwoDigits: Bool, weekdaySeparator: String,
                dateTimeSeparator: String, daySuffix: String = "", numericTrailingSeparator: Bool = false,
                wideMonthJoiner: String = " ", hourOnlySuffix: String = "") {
        self.monthFirst = monthFirst; self.numericSeparator = numericSeparator; self.numericTwoDigits = numericTwoDigits
        self.weekdaySeparator = weekdaySeparator; self.dateTimeSeparator = dateTimeSeparator; self.daySuffix = daySuffix
        self.numericTrailingSeparator = numericTrailingSeparator; self.wideMonthJoiner = wideMonthJoiner
        self.hourOnlySuffix = hourOnlySuffix
    }
}

/// A date broken down in a time zone: what `.dateTime` fields are formatted from.
public struct CivilDateTime: Hashable, Sendable {
    public var year: Int, month: Int, day: Int
    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int
    public var hour: Int, minute: Int, second: Int
    public init(year: Int, month: Int, day: Int, weekday: Int, hour: Int, minute: Int, second: Int) {
        self.year = year; self.month = month; self.day = day; self.weekday = weekday
        self.hour = hour; self.minute = minute; self.second = second
    }
}

extension LocaleFormats {
    /// The text of `fields` (all of `DateFields.standard` when empty) of the moment `t`, in this
    /// locale: `Wednesday`, `25`, `Nov 25`, `Wed, Nov 25, 2026, 2:05 PM` (en_US),
    /// `Mi., 25. Nov. 2026, 14:05` (de_DE).
    public func format(_ fields: DateFields, _ t: CivilDateTime) -> String {
        let f = fields.isEmpty ? DateFields.standard : fields
        let date = f.hasDate ? datePart(f, t) : ""
        let time = f.hasTime ? timePart(f, t) : ""
        if date.isEmpty { return time }
        if time.isEmpty { return date }
        return date + fieldRules.dateTimeSeparator + time
    }

    private static func two(_ v: Int) -> String { v < 10 && v >= 0 ? "0\(v)" : "\(v)" }

    private func weekdayName(_ width: Int, _ t: CivilDateTime) -> String {
        let i = ((t.weekday % 7) + 7) % 7
        switch width {
        case 4: return weekdays[i]
        case 5...: return String(weekdays[i].prefix(1)).uppercased()
        default: return weekdaysAbbreviated[i]
        }
    }

    private func datePart(_ f: DateFields, _ t: CivilDateTime) -> String {
        let r = fieldRules
        let m = min(max(t.month, 1), 12) - 1
        let year = f.year == 2 ? Self.two(((t.year % 100) + 100) % 100) : "\(t.year)"
        let hasOthers = f.year + f.month + f.day > 0
        let weekday = f.weekday > 0 ? weekdayName(f.weekday, t) : nil
        if !hasOthers { return weekday ?? "" }
        var core: String
        if f.month > 0 && f.month <= 2 || f.month == 0 && f.day > 0 && f.year > 0 {
            // A numeric date: 11/25/2026, 25/11/2026, 25.11.2026.
            let twoDigits = r.numericTwoDigits || f.month == 2
            let month = f.month > 0 || f.day > 0 && f.year > 0 ? (twoDigits ? Self.two(t.month) : "\(t.month)") : nil
            let day = f.day > 0 ? (twoDigits || f.day == 2 ? Self.two(t.day) : "\(t.day)") : nil
            let ordered = r.monthFirst ? [month, day] : [day, month]
            var pieces = ordered.compactMap { $0 }
            if f.year > 0 { pieces.append(year) }
            core = pieces.joined(separator: r.numericSeparator)
            if r.numericTrailingSeparator && f.year == 0 { core += r.numericSeparator }
        } else {
            // A date with a month name: Nov 25, 2026 / 25 Nov 2026 / 25. Nov. 2026 / 25 de noviembre de 2026.
            let month: String? = switch f.month {
            case 0: nil
            case 3: monthsAbbreviated[m]
            case 4: months[m]
            default: String(months[m].prefix(1)).uppercased()
            }
            let day = f.day > 0 ? (f.day == 2 ? Self.two(t.day) : "\(t.day)") + (month != nil ? r.daySuffix : "") : nil
            let joiner = f.month == 4 ? r.wideMonthJoiner : " "
            if r.monthFirst {
                core = [month, day].compactMap { $0 }.joined(separator: " ")
                if f.year > 0 { core = core.isEmpty ? year : core + (day != nil && month != nil ? ", " : " ") + year }
            } else {
                core = [day, month].compactMap { $0 }.joined(separator: joiner)
                if f.year > 0 { core = core.isEmpty ? year : core + (month != nil ? joiner : " ") + year }
            }
        }
        guard let weekday else { return core }
        return weekday + r.weekdaySeparator + core
    }

    private func timePart(_ f: DateFields, _ t: CivilDateTime) -> String {
        let h24 = ((t.hour % 24) + 24) % 24
        if f.hour == 0 {
            // Minutes and seconds without an hour: 05, 05:09.
            return [f.minute > 0 ? Self.two(t.minute) : nil, f.second > 0 ? Self.two(t.second) : nil]
                .compactMap { $0 }.joined(separator: ":")
        }
        var clock: String
        if hour24 {
            clock = Self.two(h24)
        } else {
            clock = "\(h24 % 12 == 0 ? 12 : h24 % 12)"
        }
        if f.minute > 0 || f.second > 0 { clock += ":" + Self.two(t.minute) }
        if f.second > 0 { clock += ":" + Self.two(t.second) }
        if hour24 { return f.minute + f.second == 0 ? clock + fieldRules.hourOnlySuffix : clock }
        return clock + (h24 < 12 ? " AM" : " PM")
    }
}
