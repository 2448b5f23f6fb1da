import FoundationEssentials
import OpenWidgetKit

/// `widgethost status` as text: per bundle (and per kind no widget places, with the command
/// that places it), per rejected plugin, per widget instance, worded for a
/// person at `now` in `time` (injected, so tests pin the date and the zone): no "0 s ago" for a
/// reload that is due, "until tomorrow 17:56" for a budget that frees up after midnight, and a
/// line that says so when the plugin folder is empty. Pure.
public enum StatusText {
    public static func lines(_ s: HostStatus, now: Date, time: LocalTime = .system) -> [String] {
        var out = ["widgethost pid \(s.pid.map(String.init) ?? "?")"]
        if s.bundles.isEmpty && s.rejected.isEmpty {
            out.append("no plugins" + (s.pluginDirectory.map { " in \($0): drop bundles (.so files) there" } ?? ""))
        }
        for b in s.bundles {
            out.append("bundle \(b.name) (\(b.bundleId)): worker \(b.worker); kinds \(b.kinds.joined(separator: ", "))")
            out.append("  reads: " + (b.reads.map { $0.joined(separator: ", ") } ?? "nothing beyond its own .so and the system's files"))
        }
        for u in s.unplaced ?? [] { out.append(u.line(configFile: s.configFile)) }
        for r in s.rejected { out.append("rejected \(r.name): \(r.reason)") }
        if let p = s.pictures {
            out.append("pictures: render process \(p.renderProcess) (started \(p.starts) time\(p.starts == 1 ? "" : "s")); "
                       + "\(p.requests) asked for, \(p.failures) failed" + (p.lastFailure.map { "; last failure: \($0)" } ?? ""))
        }
        if s.widgets.isEmpty && !s.bundles.isEmpty { out.append("no widget instances (see widgets in config.json)") }
        for w in s.widgets {
            out.append("\(w.id)  [\(w.bundle) \(w.kind) \(w.family)]")
            out.append("  text: \(w.text ?? "-")" + (w.relevance.map { "  relevance \($0)" } ?? ""))
            out.append("  last reload: \(w.lastReload.map { ago($0, now: now) } ?? "never") (\(w.lastReloadReason ?? "-"))"
                       + (w.lastReloadSeconds.map { ", answered in \(($0 * 10_000).rounded() / 10) ms" } ?? ""))
            out.append("  next reload: \(nextReload(w, now: now, time: time)); timeline requests \(w.timelineRequests); entries \(w.entries)")
            if let until = w.budgetExhaustedUntil {
                out.append("  reload budget exhausted until \(time.dayAndTime(until, now: now)); showing the last entry")
            } else if let e = w.lastError {
                out.append("  error: \(e) (\(w.consecutiveFailures) in a row)")
            }
            if !w.parameters.isEmpty { out.append("  parameters: \(w.parameters.keys.sorted().map { "\($0)=\(w.parameters[$0]!)" }.joined(separator: " "))") }
            for c in w.controls { out.append("  control \(c.id): \(c.kind) \"\(c.title ?? c.intent)\"" + (c.isOn.map { " (\($0 ? "on" : "off"))" } ?? "")) }
            if let u = w.url { out.append("  url: \(u)") }
        }
        return out
    }

    /// "just now", "12 s ago", "4 min 10 s ago".
    static func ago(_ d: Date, now: Date) -> String {
        let s = now.timeIntervalSince(d)
        if s < 1 { return "just now" }
        return LocalTime.duration(s) + " ago"
    }

    static func nextReload(_ w: HostStatus.Widget, now: Date, time: LocalTime) -> String {
        if w.reloading { return "now (in progress)" }
        guard let d = w.nextReload else { return "on request" }
        let reason = w.nextReloadReason.map { $0.isEmpty ? "" : " (\($0))" } ?? ""
        if let until = w.budgetExhaustedUntil { return "until \(time.dayAndTime(until, now: now)) (reload budget)" }
        let s = d.timeIntervalSince(now)
        if s < 1 { return "due now" + reason }
        // Far off: the clock time says more than a count of seconds.
        if s >= 3600 { return "at \(time.dayAndTime(d, now: now))" + reason }
        return "in \(LocalTime.duration(s))" + reason
    }
}
