import CICal
import FoundationEssentials
import Glibc

/// One occurrence of an event in a window: a single event, or one instance of a recurring
/// series (its override applied when the file has one).
struct CalendarEvent: Equatable, Sendable {
    var title: String
    var location: String
    /// Start and end as instants; an all-day event runs from the local midnight of its first day
    /// to the local midnight after its last.
    var start: Date
    var end: Date
    var isAllDay: Bool
    /// The calendar it comes from (`CalendarSource.name`) and that calendar's colour (#RRGGBB).
    var calendar: String
    var color: String
}

/// Reads iCalendar text (RFC 5545) through libical 3 and expands it into the occurrences that
/// overlap a window: DATE values (all day), DATE-TIME in UTC, floating (the process's zone,
/// `TZ` honoured) or with a TZID (the file's VTIMEZONE, else the system's zone of that name),
/// RRULE (COUNT, UNTIL, BYDAY, …: libical's iterator, which keeps the wall time across DST),
/// EXDATE, RDATE and RECURRENCE-ID overrides (by UID); CANCELLED events and instances are left out.
///
/// Bounded: at most `maxSteps` steps of a rule's iterator and `maxInstances` occurrences per
/// series, four times that per file, so a hostile rule costs a bounded time and is reported, not looped on.
/// libical keeps per-thread error state and a global zone cache: call from one thread at a time
/// (the worker calls providers one at a time).
enum ICalendarReader {
    static let maxSteps = 20_000
    /// Occurrences kept per series, and per file four times that.
    static let maxInstances = 1_000

    struct Result {
        var events: [CalendarEvent]
        /// Problems worth one log line each (unparsable file, a rule cut at the cap).
        var problems: [String]
    }

    /// The occurrences of the events in `text` that overlap `window` (start inclusive, end
    /// exclusive), tagged with `calendar` and `color`, sorted by start.
    /// `local`: the zone of floating times and DATE values (an `icaltimezone`); nil: the process's (`TZ`).
    static func events(in text: String, window: Range<Date>, calendar: String, color: String, local: OpaquePointer? = nil) -> Result {
        icalerror_set_errors_are_fatal(0)
        var problems: [String] = []
        guard let root = text.withCString({ icalparser_parse_string($0) }) else {
            return Result(events: [], problems: ["not iCalendar text"])
        }
        defer { icalcomponent_free(root) }
        var vevents: [OpaquePointer] = []
        if icalcomponent_isa(root) == ICAL_VEVENT_COMPONENT { vevents.append(root) }
        var c = icalcomponent_get_first_component(root, ICAL_VEVENT_COMPONENT)
        while let comp = c { vevents.append(comp); c = icalcomponent_get_next_component(root, ICAL_VEVENT_COMPONENT) }
        if vevents.isEmpty { return Result(events: [], problems: ["no VEVENT"]) }

        // Overrides: UID -> (recurrence instant -> the overriding component).
        var overrides: [String: [Int: OpaquePointer]] = [:]
        for e in vevents {
            guard let p = icalcomponent_get_first_property(e, ICAL_RECURRENCEID_PROPERTY) else { continue }
            let t = timeValue(p, icalproperty_get_recurrenceid(p), root: root)
            overrides[uid(e), default: [:]][instant(t, local: local).seconds] = e
        }

        var out: [CalendarEvent] = []
        let lo = Int(window.lowerBound.timeIntervalSince1970), hi = Int(window.upperBound.timeIntervalSince1970)
        func add(_ comp: OpaquePointer, start: Int, length: Int, allDay: Bool) {
            guard out.count < 4 * maxInstances, !cancelled(comp), start < hi, start + max(length, 1) > lo else { return }
            out.append(CalendarEvent(title: string(icalcomponent_get_summary(comp)) ?? "", location: string(icalcomponent_get_location(comp)) ?? "",
                                     start: Date(timeIntervalSince1970: Double(start)), end: Date(timeIntervalSince1970: Double(start + length)),
                                     isAllDay: allDay, calendar: calendar, color: color))
        }
        for e in vevents where icalcomponent_get_first_property(e, ICAL_RECURRENCEID_PROPERTY) == nil {
            let dtstart = icalcomponent_get_dtstart(e)
            guard icaltime_is_null_time(dtstart) == 0, icaltime_is_valid_time(dtstart) != 0 else {
                problems.append("event \"\(string(icalcomponent_get_summary(e)) ?? uid(e))\" has no valid DTSTART"); continue
            }
            let first = instant(dtstart, local: local)
            let length = duration(e, start: dtstart, startSeconds: first.seconds, local: local)
            let id = uid(e)
            let moved = overrides[id] ?? [:]
            // A single event.
            guard let rruleProp = icalcomponent_get_first_property(e, ICAL_RRULE_PROPERTY) else {
                add(e, start: first.seconds, length: length, allDay: first.allDay)
                continue
            }
            var excluded = Set<Int>()
            var p = icalcomponent_get_first_property(e, ICAL_EXDATE_PROPERTY)
            while let prop = p {
                excluded.insert(instant(timeValue(prop, icalproperty_get_exdate(prop), root: root, like: dtstart), local: local).seconds)
                p = icalcomponent_get_next_property(e, ICAL_EXDATE_PROPERTY)
            }
            var starts: [Int] = []
            p = icalcomponent_get_first_property(e, ICAL_RDATE_PROPERTY)
            while let prop = p {
                let rdate = icalproperty_get_rdate(prop)
                if icaltime_is_null_time(rdate.time) == 0 { starts.append(instant(timeValue(prop, rdate.time, root: root, like: dtstart), local: local).seconds) }
                p = icalcomponent_get_next_property(e, ICAL_RDATE_PROPERTY)
            }
            let rule = icalproperty_get_rrule(rruleProp)
            if let it = icalrecur_iterator_new(rule, dtstart) {
                // A long series without COUNT (a daily one since 1990) starts near the window,
                // not at DTSTART: the step cap is for hostile rules, not for old ones.
                let skipTo = lo - max(length, 0) - 86_400
                if rule.count == 0, skipTo > first.seconds, dtstart.is_date == 0 || local == nil {
                    let zone = dtstart.zone ?? (icaltime_is_utc(dtstart) != 0 ? icaltimezone_get_utc_timezone() : nil)
                    if let zone {
                        _ = icalrecur_iterator_set_start(it, icaltime_from_timet_with_zone(time_t(skipTo), 0, zone))
                    }
                }
                var steps = 0
                while true {
                    var t = icalrecur_iterator_next(it)
                    if icaltime_is_null_time(t) != 0 { break }
                    t.zone = dtstart.zone  // the wall time is in DTSTART's zone
                    let s = instant(t, local: local).seconds
                    if s >= hi { break }
                    steps += 1
                    if steps > maxSteps {
                        problems.append("\"\(string(icalcomponent_get_summary(e)) ?? id)\": the rule was cut after \(maxSteps) occurrences")
                        break
                    }
                    if s + max(length, 1) > lo {
                        guard starts.count < maxInstances else {
                            problems.append("\"\(string(icalcomponent_get_summary(e)) ?? id)\": more than \(maxInstances) occurrences in the window, the rest left out")
                            break
                        }
                        starts.append(s)
                    }
                }
                icalrecur_iterator_free(it)
            } else {
                problems.append("\"\(string(icalcomponent_get_summary(e)) ?? id)\": unusable RRULE")
                starts.append(first.seconds)
            }
            for s in Set(starts).sorted() where !excluded.contains(s) {
                if let o = moved[s] {
                    let os = icalcomponent_get_dtstart(o)
                    let oi = instant(os, local: local)
                    add(o, start: oi.seconds, length: duration(o, start: os, startSeconds: oi.seconds, local: local), allDay: oi.allDay)
                } else {
                    add(e, start: s, length: length, allDay: first.allDay)
                }
            }
            // An override moved into the window from an instance outside it.
            for (s, o) in moved where !starts.contains(s) && !excluded.contains(s) {
                let os = icalcomponent_get_dtstart(o)
                let oi = instant(os, local: local)
                if oi.seconds >= lo || oi.seconds + duration(o, start: os, startSeconds: oi.seconds, local: local) > lo {
                    add(o, start: oi.seconds, length: duration(o, start: os, startSeconds: oi.seconds, local: local), allDay: oi.allDay)
                }
            }
        }
        if out.count >= 4 * maxInstances { problems.append("more than \(4 * maxInstances) occurrences in the window: the rest are left out") }
        out.sort { ($0.start, $0.title) < ($1.start, $1.title) }
        return Result(events: out, problems: problems)
    }

    /// The instant of `t`: a DATE is the local midnight of that day; a floating time is read in
    /// the process's zone; a UTC or zoned time through libical.
    static func instant(_ t: icaltimetype, local: OpaquePointer?) -> (seconds: Int, allDay: Bool) {
        if t.is_date != 0 { return (localSeconds(year: t.year, month: t.month, day: t.day, hour: 0, minute: 0, second: 0, local: local), true) }
        if icaltime_is_utc(t) != 0 { return (Int(icaltime_as_timet_with_zone(t, icaltimezone_get_utc_timezone())), false) }
        if t.zone == nil {
            return (localSeconds(year: t.year, month: t.month, day: t.day, hour: t.hour, minute: t.minute, second: t.second, local: local), false)
        }
        return (Int(icaltime_as_timet_with_zone(t, t.zone)), false)
    }

    /// The instant of a wall time in `local`, or in the process's zone (a time in a DST gap moves
    /// forward, as mktime does). Day overflow (the 32nd) carries into the next month.
    static func localSeconds(year: Int32, month: Int32, day: Int32, hour: Int32, minute: Int32, second: Int32, local: OpaquePointer?) -> Int {
        if let local {
            var t = icaltime_null_time()
            t.year = year; t.month = month; t.day = day; t.hour = hour; t.minute = minute; t.second = second
            t = icaltime_normalize(t)
            return Int(icaltime_as_timet_with_zone(t, local))
        }
        var parts = tm()
        parts.tm_year = year - 1900; parts.tm_mon = month - 1; parts.tm_mday = day
        parts.tm_hour = hour; parts.tm_min = minute; parts.tm_sec = second; parts.tm_isdst = -1
        return Int(mktime(&parts))
    }

    /// Seconds from start to end: DTEND, or DURATION (libical derives it), or for a DATE start
    /// one day, else zero. All-day ends are local midnights too (a day across DST is 23 or 25 h).
    static func duration(_ e: OpaquePointer, start: icaltimetype, startSeconds: Int, local: OpaquePointer?) -> Int {
        let end = icalcomponent_get_dtend(e)
        if icaltime_is_null_time(end) != 0 || icaltime_is_valid_time(end) == 0 {
            if start.is_date != 0 {
                return localSeconds(year: start.year, month: start.month, day: start.day + 1, hour: 0, minute: 0, second: 0, local: local) - startSeconds
            }
            return 0
        }
        var endTime = end
        if start.is_date == 0, end.zone == nil, icaltime_is_utc(end) == 0 { endTime.zone = start.zone }
        return max(0, instant(endTime, local: local).seconds - startSeconds)
    }

    /// A date-time property's value with its TZID resolved: the file's VTIMEZONE of that id, else
    /// the system's zone of that name; without a TZID, `like`'s zone when `like` has one and the
    /// value is neither UTC nor a DATE (EXDATE written without its TZID), else as written.
    static func timeValue(_ prop: OpaquePointer, _ value: icaltimetype, root: OpaquePointer, like: icaltimetype? = nil) -> icaltimetype {
        var t = value
        if let param = icalproperty_get_first_parameter(prop, ICAL_TZID_PARAMETER), let tzid = icalparameter_get_tzid(param) {
            t.zone = icalcomponent_get_timezone(root, tzid) ?? icaltimezone_get_builtin_timezone(tzid)
        } else if let like, t.is_date == 0, icaltime_is_utc(t) == 0, t.zone == nil {
            t.zone = like.zone
        }
        return t
    }

    static func uid(_ e: OpaquePointer) -> String { string(icalcomponent_get_uid(e)) ?? "" }

    static func cancelled(_ e: OpaquePointer) -> Bool { icalcomponent_get_status(e) == ICAL_STATUS_CANCELLED }

    static func string(_ p: UnsafePointer<CChar>?) -> String? { p.map { String(cString: $0) } }
}
