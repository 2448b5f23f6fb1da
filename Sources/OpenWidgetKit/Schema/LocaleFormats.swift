import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The locale-dependent pieces of Apple's formats for the locales people run bars in, as a
/// small table instead of ICU (full Foundation + ICU costs a process ~6 MB of mapped pages and
/// ~12 ms at start just to load, ~25 MB once formatters run; see docs/performance.md).
///
/// The locale comes from the environment as POSIX defines it: `LC_ALL`, else the category
/// (`LC_TIME` for dates, `LC_NUMERIC` for numbers), else `LANG`. `C`, `POSIX`, unset and
/// locales not in the table give `posix`: 24-hour times, `22 Nov 2026`, `10,432` (what the
/// SDK printed before it knew locales). A plain value: safe from any thread.
public struct LocaleFormats: Hashable, Sendable {
    /// `en_US`, `de_DE`… or `POSIX`.
    public var identifier: String
    public var decimalSeparator: String
    public var groupingSeparator: String
    /// A currency symbol after the number (`1.234,50 €`) instead of before it (`$1,234.50`).
    public var currencyAfter: Bool
    /// What separates a number from `%` (`62 %` in German, nothing in English).
    public var percentSpace: String
    /// 24-hour times (`18:10`) instead of `6:10 PM`.
    public var hour24: Bool
    /// `Text(date, style: .date)`: `{d}`, `{MMMM}` (month name), `{MMM}` (abbreviated), `{y}`.
    public var longDatePattern: String
    public var months: [String]
    /// `.dateTime` fields (`DateFields`): abbreviated month names as CLDR writes them in a date.
    public var monthsAbbreviated: [String]
    /// Weekday names, Sunday first (`.weekday(.wide)`), and abbreviated (`.weekday()`).
    public var weekdays: [String]
    public var weekdaysAbbreviated: [String]
    /// How `.dateTime` orders and joins its fields (CLDR's patterns for this locale).
    public var fieldRules: DateFieldRules

    public static let englishMonths = ["January", "February", "March", "April", "May", "June", "July", "August",
                                       "September", "October", "November", "December"]
    static let englishMonthsAbbreviated = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let englishWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let englishWeekdaysAbbreviated = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    public static let posix = LocaleFormats(identifier: "POSIX", decimalSeparator: ".", groupingSeparator: ",", currencyAfter: false,
                                            percentSpace: "", hour24: true, longDatePattern: "{d} {MMM} {y}", months: englishMonths,
                                            monthsAbbreviated: englishMonthsAbbreviated, weekdays: englishWeekdays,
                                            weekdaysAbbreviated: englishWeekdaysAbbreviated,
                                            fieldRules: DateFieldRules(monthFirst: false, numericSeparator: "/", numericTwoDigits: true,
                                                                       weekdaySeparator: " ", dateTimeSeparator: " "))
    public static let enUS = LocaleFormats(identifier: "en_US", decimalSeparator: ".", groupingSeparator: ",", currencyAfter: false,
                                           percentSpace: "", hour24: false, longDatePattern: "{MMMM} {d}, {y}", months: englishMonths,
                                           monthsAbbreviated: englishMonthsAbbreviated, weekdays: englishWeekdays,
                                           weekdaysAbbreviated: englishWeekdaysAbbreviated,
                                           fieldRules: DateFieldRules(monthFirst: true, numericSeparator: "/", numericTwoDigits: false,
                                                                      weekdaySeparator: ", ", dateTimeSeparator: ", "))
    public static let enGB = LocaleFormats(identifier: "en_GB", decimalSeparator: ".", groupingSeparator: ",", currencyAfter: false,
                                           percentSpace: "", hour24: true, longDatePattern: "{d} {MMMM} {y}", months: englishMonths,
                                           monthsAbbreviated: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"],
                                           weekdays: englishWeekdays, weekdaysAbbreviated: englishWeekdaysAbbreviated,
                                           fieldRules: DateFieldRules(monthFirst: false, numericSeparator: "/", numericTwoDigits: true,
                                                                      weekdaySeparator: ", ", dateTimeSeparator: ", "))
    public static let deDE = LocaleFormats(identifier: "de_DE", decimalSeparator: ",", groupingSeparator: ".", currencyAfter: true,
                                           percentSpace: "\u{A0}", hour24: true, longDatePattern: "{d}. {MMMM} {y}",
                                           months: ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August",
                                                    "September", "Oktober", "November", "Dezember"],
                                           monthsAbbreviated: ["Jan.", "Feb.", "März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.", "Okt.",
                                                               "Nov.", "Dez."],
                                           weekdays: ["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"],
                                           weekdaysAbbreviated: ["So.", "Mo.", "Di.", "Mi.", "Do.", "Fr.", "Sa."],
                                           fieldRules: DateFieldRules(monthFirst: false, numericSeparator: ".", numericTwoDigits: false,
                                                                      weekdaySeparator: ", ", dateTimeSeparator: ", ", daySuffix: ".",
                                                                      numericTrailingSeparator: true, hourOnlySuffix: " Uhr"))
    public static let frFR = LocaleFormats(identifier: "fr_FR", decimalSeparator: ",", groupingSeparator: "\u{202F}", currencyAfter: true,
                                           percentSpace: "\u{202F}", hour24: true, longDatePattern: "{d} {MMMM} {y}",
                                           months: ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août",
                                                    "septembre", "octobre", "novembre", "décembre"],
                                           monthsAbbreviated: ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.",
                                                               "nov.", "déc."],
                                           weekdays: ["dimanche", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi"],
                                           weekdaysAbbreviated: ["dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."],
                                           fieldRules: DateFieldRules(monthFirst: false, numericSeparator: "/", numericTwoDigits: true,
                                                                      weekdaySeparator: " ", dateTimeSeparator: " ", hourOnlySuffix: " h"))
    public static let esES = LocaleFormats(identifier: "es_ES", decimalSeparator: ",", groupingSeparator: ".", currencyAfter: true,
                                           percentSpace: "\u{A0}", hour24: true, longDatePattern: "{d} de {MMMM} de {y}",
                                           months: ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
                                                    "septiembre", "octubre", "noviembre", "diciembre"],
                                           monthsAbbreviated: ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"],
                                           weekdays: ["domingo", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado"],
                                           weekdaysAbbreviated: ["dom", "lun", "mar", "mié", "jue", "vie", "sáb"],
                                           fieldRules: DateFieldRules(monthFirst: false, numericSeparator: "/", numericTwoDigits: false,
                                                                      weekdaySeparator: ", ", dateTimeSeparator: ", ", wideMonthJoiner: " de "))

    /// The table: exact identifiers first, then the first locale of a language.
    public static let known: [LocaleFormats] = [.enUS, .enGB, .deDE, .frFR, .esES]

    /// The formats of a POSIX locale name (`de_DE.UTF-8`, `en_GB@euro`, `de`); `posix` when unknown.
    public static func named(_ raw: String) -> LocaleFormats {
        var name = Substring(raw)
        if let cut = name.firstIndex(where: { $0 == "." || $0 == "@" }) { name = name[..<cut] }
        let id = String(name.map { $0 == "-" ? "_" : $0 })
        if let exact = known.first(where: { $0.identifier.lowercased() == id.lowercased() }) { return exact }
        let language = id.split(separator: "_").first.map { $0.lowercased() } ?? ""
        return known.first { $0.identifier.lowercased().hasPrefix(language + "_") } ?? .posix
    }

    /// The locale of `category` (`LC_TIME`, `LC_NUMERIC`) in an environment.
    public static func resolve(category: String, environment: (String) -> String?) -> LocaleFormats {
        for key in ["LC_ALL", category, "LANG"] {
            if let v = environment(key), !v.isEmpty { return named(v) }
        }
        return .posix
    }

    /// This process's locale for dates, read once.
    public static let currentTime = resolve(category: "LC_TIME", environment: processEnvironment)
    /// This process's locale for numbers, read once.
    public static let currentNumeric = resolve(category: "LC_NUMERIC", environment: processEnvironment)

    static func processEnvironment(_ key: String) -> String? { getenv(key).map { String(cString: $0) } }

    // MARK: - Pieces

    /// `18:10` or `6:10 PM`.
    public func time(hour: Int, minute: Int) -> String {
        let mm = minute < 10 ? "0\(minute)" : "\(minute)"
        if hour24 { return (hour < 10 ? "0\(hour)" : "\(hour)") + ":" + mm }
        let h = hour % 12 == 0 ? 12 : hour % 12
        return "\(h):\(mm) \(hour < 12 ? "AM" : "PM")"
    }

    /// `November 22, 2026`, `22. November 2026`… (`month` 1…12).
    public func longDate(day: Int, month: Int, year: Int) -> String {
        let m = min(max(month, 1), 12) - 1
        return longDatePattern
            .replacing("{d}", with: "\(day)")
            .replacing("{MMMM}", with: months[m])
            .replacing("{MMM}", with: String(months[m].prefix(3)))
            .replacing("{y}", with: "\(year)")
    }
}
