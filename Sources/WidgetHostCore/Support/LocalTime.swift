import FoundationEssentials
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// Wall-clock dates as a person reads them: "17:56", "tomorrow 17:56", in a time zone given as
/// its UTC offset at a date — `system` (libc's `localtime_r`, so `$TZ` and DST apply) or `fixed`
/// (tests, any zone, any day). Times are rounded up to the minute, so "until 17:56" is never
/// before the date. Pure value; safe from any thread.
public struct LocalTime: Sendable {
    /// Seconds east of UTC at a date.
    public let utcOffset: @Sendable (Date) -> Int

    public init(utcOffset: @escaping @Sendable (Date) -> Int) { self.utcOffset = utcOffset }

    public static let system = LocalTime { d in
        var t = time_t(d.timeIntervalSince1970.rounded(.down))
        var tmv = tm()
        localtime_r(&t, &tmv)
        return Int(tmv.tm_gmtoff)
    }

    public static func fixed(hours: Double) -> LocalTime { LocalTime { _ in Int(hours * 3600) } }

    /// Local seconds since 1970-01-01 00:00 local, rounded up to the minute.
    private func localMinuteSeconds(_ d: Date) -> Int {
        let s = Int(d.timeIntervalSince1970.rounded(.up)) + utcOffset(d)
        return (s + 59) / 60 * 60
    }

    private func day(_ localSeconds: Int) -> Int { Int((Double(localSeconds) / 86_400).rounded(.down)) }

    /// "HH:MM".
    public func hhmm(_ d: Date) -> String {
        let s = localMinuteSeconds(d)
        let minutes = ((s / 60) % 1440 + 1440) % 1440
        let h = minutes / 60, m = minutes % 60
        return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
    }

    /// `d` seen from `now`: "17:56" today, "tomorrow 17:56", "yesterday 17:56", else
    /// "2026-11-24 17:56".
    public func dayAndTime(_ d: Date, now: Date) -> String {
        let s = localMinuteSeconds(d)
        let delta = day(s) - day(Int(now.timeIntervalSince1970.rounded(.down)) + utcOffset(now))
        switch delta {
        case 0: return hhmm(d)
        case 1: return "tomorrow " + hhmm(d)
        case -1: return "yesterday " + hhmm(d)
        default:
            let (y, mo, da) = CivilDate.from(days: day(s))
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            return "\(y)-\(two(mo))-\(two(da)) " + hhmm(d)
        }
    }

    /// A duration as people say it: "12 s", "4 min 10 s", "2 h 5 min", "1 d 3 h".
    public static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" + (s % 60 == 0 ? "" : " \(s % 60) s") }
        if s < 86_400 { return "\(s / 3600) h" + (s % 3600 / 60 == 0 ? "" : " \(s % 3600 / 60) min") }
        return "\(s / 86_400) d" + (s % 86_400 / 3600 == 0 ? "" : " \(s % 86_400 / 3600) h")
    }
}
