import FoundationEssentials
import Glibc
import OpenWidgetKit

/// Turns the live dates of a view tree (`DateText`) into text at a given instant, the way
/// WidgetKit does on a device, and says when that text next changes.
///
/// Styles: `time` ("14:05", or "2:05 PM" for en_US; local), `date` ("21 Nov 2026",
/// "November 21, 2026" for en_US, "21. November 2026" for de_DE; local) — either, with the
/// `.dateTime` fields of `DateText.fields`, those fields only ("Wednesday", "25", "Nov 25"),
/// as `LocaleFormats.format(_:_:)` writes them — `relative` ("2 hr, 5 min",
/// "5 min, 3 sec", "12 sec"; the distance either way), `offset` ("+2 hours" for a future date,
/// "-5 minutes" for a past one; largest whole unit), `timer` ("4:05", "1:02:03"; counting up from
/// a past date, down to a future one, or within `start…end`), `range` ("14:00–15:30") and
/// `progress` ("62%", the fraction of `ProgressView(timerInterval:)`).
///
/// Counting down shows whole seconds rounded up (a timer reads 0:01 until it reaches 0:00);
/// counting up rounds down, so every value is shown for one full second.
///
/// Local time comes from Glibc (`localtime_r`, `strftime` in the C locale) after `tzset()`, so
/// the `TZ` environment variable is honoured. Pure functions of their arguments and the process
/// time zone: safe from any thread.
public enum LiveDateFormatter {
    /// The text of `d` at `now`, times and dates in `locale`'s formats (`LocaleFormats.posix`
    /// by default; the host passes the user's, `LocaleFormats.currentTime`).
    public static func format(_ d: DateText, now: Date, locale: LocaleFormats = .posix) -> String {
        switch d.style {
        case "time", "date":
            guard let date = d.date ?? d.start else { return "" }
            if let fields = d.fields { return dateFields(date, DateFields(skeleton: fields), locale) }
            return d.style == "time" ? time(date, locale) : longDate(date, locale)
        case "relative":
            guard let date = d.date ?? d.start else { return "" }
            return relative(magnitude(steps(now, date)))
        case "offset":
            guard let date = d.date ?? d.start else { return "" }
            let n = steps(now, date)
            return (n < 0 ? "+" : "-") + offset(magnitude(n))
        case "timer":
            return clock(timerSeconds(d, now: now))
        case "range":
            guard let s = d.start ?? d.date, let e = d.end else { return (d.start ?? d.date).map { local($0, "%H:%M") } ?? "" }
            if local(s, "%Y%m%d") == local(e, "%Y%m%d") {
                return time(s, locale) + "–" + time(e, locale)
            }
            return local(s, "%-d %b ") + time(s, locale) + " – " + local(e, "%-d %b ") + time(e, locale)
        case "progress":
            return fraction(d, now: now).map { percent($0) } ?? ""
        default:
            return (d.date ?? d.start).map { local($0, "%-d %b %Y %H:%M") } ?? ""
        }
    }

    /// The fraction (0…1) a `progress` date shows at `now`: elapsed over `start…end`, or what
    /// is left of it when it counts down (`countsDown`, default true as in SwiftUI).
    /// `nil` for other styles or a missing/empty interval.
    public static func fraction(_ d: DateText, now: Date) -> Double? {
        guard let s = d.start, let e = d.end else { return nil }
        let total = e.timeIntervalSince(s)
        guard total.isFinite, total > 0 else { return d.countsDown == false ? 1 : 0 }
        let done = min(max(now.timeIntervalSince(s) / total, 0), 1)
        return (d.countsDown ?? true) ? 1 - done : done
    }

    /// The earliest instant after `now` at which any live date in `tree` renders differently,
    /// or `nil` when none ever will (no live date, or only fixed ones such as `time` and
    /// `range`). Walks the tree without recursion, so any depth is safe.
    public static func nextChange(of tree: ViewNode, after now: Date) -> Date? {
        var best: Date?
        var stack: [ViewNode] = [tree]
        while let n = stack.popLast() {
            if let d = n.date, let t = nextChange(of: d, after: now), best.map({ t < $0 }) ?? true { best = t }
            if let c = n.children { stack.append(contentsOf: c) }
        }
        return best
    }

    /// The earliest instant after `now` at which `d` renders differently, or `nil`.
    public static func nextChange(of d: DateText, after now: Date) -> Date? {
        switch d.style {
        case "relative", "offset":
            guard let date = d.date ?? d.start else { return nil }
            let isRelative = d.style == "relative"
            let n = nextStep(steps(now, date)) { m in isRelative ? relativeStep(m) : offsetStep(m) }
            return date.addingTimeInterval(Double(n))
        case "timer":
            if let s = d.start, let e = d.end, d.date == nil {
                if now < s { return s }
                if now >= e { return nil }
                if d.countsDown ?? true {
                    let k = e.timeIntervalSince(now).rounded(.up)
                    return e.addingTimeInterval(-(k - 1))
                }
                let next = s.addingTimeInterval(now.timeIntervalSince(s).rounded(.down) + 1)
                return min(next, e)
            }
            guard let date = d.date ?? d.start else { return nil }
            let n = nextStep(steps(now, date)) { _ in 1 }
            return date.addingTimeInterval(Double(n))
        case "progress":
            guard let s = d.start, let e = d.end, e > s else { return nil }
            if now < s { return s }
            if now >= e { return nil }
            // The percentage (rounded) changes at every (k + ½)% of the interval; never re-render
            // more than once a second.
            let total = e.timeIntervalSince(s)
            let f = now.timeIntervalSince(s) / total
            let nextF = ((f * 100 + 0.5).rounded(.down) + 0.5) / 100
            let t = s.addingTimeInterval(nextF * total)
            return min(max(t, now.addingTimeInterval(1)), e)
        default:
            return nil
        }
    }

    // MARK: - Whole-second steps

    /// `floor(now - date)` in whole seconds, clamped far from overflow. Negative: `date` is in
    /// the future. Every date-relative style is a function of this integer alone.
    static func steps(_ now: Date, _ date: Date) -> Int {
        let d = now.timeIntervalSince(date)
        guard d.isFinite else { return 0 }
        return Int(saturating: min(max(d, -1e12), 1e12).rounded(.down))
    }

    /// Distance shown for a step count: counting up rounds down, counting down rounds up.
    static func magnitude(_ n: Int) -> Int { n < 0 ? -n : n }

    /// The next step count whose text differs from that of `n`, given the granularity (seconds
    /// per visible unit) of the text at each magnitude.
    static func nextStep(_ n: Int, granularity: (Int) -> Int) -> Int {
        if n >= 0 {
            let g = granularity(n)
            return (n / g + 1) * g
        }
        let m = -n
        let g = granularity(m)
        return -((m / g) * g - 1)
    }

    static func relativeStep(_ m: Int) -> Int { m < 3600 ? 1 : (m < 86400 ? 60 : 3600) }
    static func offsetStep(_ m: Int) -> Int { m < 60 ? 1 : (m < 3600 ? 60 : (m < 86400 ? 3600 : 86400)) }

    static func relative(_ m: Int) -> String {
        if m < 60 { return "\(m) sec" }
        if m < 3600 { return m % 60 == 0 ? "\(m / 60) min" : "\(m / 60) min, \(m % 60) sec" }
        if m < 86400 {
            let mi = (m % 3600) / 60
            return mi == 0 ? "\(m / 3600) hr" : "\(m / 3600) hr, \(mi) min"
        }
        let days = m / 86400, h = (m % 86400) / 3600
        return "\(days) \(days == 1 ? "day" : "days")" + (h == 0 ? "" : ", \(h) hr")
    }

    static func offset(_ m: Int) -> String {
        func unit(_ v: Int, _ name: String) -> String { "\(v) \(name)\(v == 1 ? "" : "s")" }
        if m < 60 { return unit(m, "second") }
        if m < 3600 { return unit(m / 60, "minute") }
        if m < 86400 { return unit(m / 3600, "hour") }
        return unit(m / 86400, "day")
    }

    /// Seconds a `timer` shows at `now`.
    static func timerSeconds(_ d: DateText, now: Date) -> Int {
        if let s = d.start, let e = d.end, d.date == nil {
            let total = max(e.timeIntervalSince(s), 0)
            guard total.isFinite else { return 0 }
            if d.countsDown ?? true {
                let left = min(max(e.timeIntervalSince(now), 0), total)
                return Int(saturating: min(left, 1e12).rounded(.up))
            }
            let done = min(max(now.timeIntervalSince(s), 0), total)
            return Int(saturating: min(done, 1e12).rounded(.down))
        }
        guard let date = d.date ?? d.start else { return 0 }
        return magnitude(steps(now, date))
    }

    /// "4:05" or "1:02:03".
    static func clock(_ s: Int) -> String {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        if s >= 3600 { return "\(s / 3600):\(two((s % 3600) / 60)):\(two(s % 60))" }
        return "\(s / 60):\(two(s % 60))"
    }

    static func percent(_ f: Double) -> String {
        guard f.isFinite else { return "0%" }
        return "\(Int(saturating: (min(max(f, 0), 1) * 100).rounded()))%"
    }

    /// The local time of day of `date` in `locale`'s format.
    static func time(_ date: Date, _ locale: LocaleFormats) -> String {
        guard let tm = localTime(date) else { return "" }
        return locale.time(hour: Int(tm.tm_hour), minute: Int(tm.tm_min))
    }

    /// The `.dateTime` fields of `date`, local, in `locale`.
    static func dateFields(_ date: Date, _ fields: DateFields, _ locale: LocaleFormats) -> String {
        guard let tm = localTime(date) else { return "" }
        return locale.format(fields, CivilDateTime(tm))
    }

    /// The local date of `date` in `locale`'s long format.
    static func longDate(_ date: Date, _ locale: LocaleFormats) -> String {
        guard let tm = localTime(date) else { return "" }
        return locale.longDate(day: Int(tm.tm_mday), month: Int(tm.tm_mon) + 1, year: Int(tm.tm_year) + 1900)
    }

    /// `date` broken down in the process's local time zone (`TZ` honoured).
    static func localTime(_ date: Date) -> tm? {
        let secs = date.timeIntervalSince1970
        guard secs.isFinite, abs(secs) < 1e15 else { return nil }
        var t = time_t(Int(saturating: secs.rounded(.down)))
        var out = tm()
        tzset()
        guard localtime_r(&t, &out) != nil else { return nil }
        return out
    }

    /// `strftime` of `date` in the process's local time zone (`TZ` honoured).
    static func local(_ date: Date, _ format: String) -> String {
        let secs = date.timeIntervalSince1970
        guard secs.isFinite, abs(secs) < 1e15 else { return "" }
        var t = time_t(Int(saturating: secs.rounded(.down)))
        var tm = tm()
        tzset()
        guard localtime_r(&t, &tm) != nil else { return "" }
        var buf = [CChar](repeating: 0, count: 64)
        let n = strftime(&buf, buf.count, format, &tm)
        guard n > 0 else { return "" }
        return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
