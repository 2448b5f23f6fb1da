import FoundationEssentials
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// One widget's current state as written to `out/<id>.json` and to `--stdout jsonl`: waybar's
/// keys (`text`, `alt`, `tooltip`, `class`, `percentage`) plus `id`, `kind`, `family`, `date`
/// (the entry's date, ISO 8601), `url`, `stale`, `error` and `removed`. Absent optionals are
/// omitted. Value type.
public struct WidgetOutput: Codable, Equatable, Sendable {
    public var id: String
    public var text: String
    public var alt: String?
    public var tooltip: String?
    public var `class`: [String]
    public var percentage: Int?
    public var kind: String
    public var family: String
    public var date: String?
    public var url: String?
    /// The entry is older than it should be (a reload failed or was not possible).
    public var stale: Bool
    public var error: String?
    /// The widget is gone (its bundle was removed or the config no longer lists it).
    public var removed: Bool?
    /// The one-line rendering as Pango markup, when the entry uses styling Pango can show.
    public var pango: String?
    /// The current entry's relevance score (`TimelineEntryRelevance.score`), when it has one.
    public var relevance: Double?
    /// `#RRGGBB` of the widget's `containerBackground` colour, when it has one.
    public var background: String?

    public init(id: String, text: String, alt: String? = nil, tooltip: String? = nil, class: [String] = [],
                percentage: Int? = nil, kind: String, family: String, date: String? = nil, url: String? = nil,
                stale: Bool = false, error: String? = nil, removed: Bool? = nil, pango: String? = nil, relevance: Double? = nil,
                background: String? = nil) {
        self.id = id; self.text = text; self.alt = alt; self.tooltip = tooltip; self.class = `class`
        self.percentage = percentage; self.kind = kind; self.family = family; self.date = date; self.url = url
        self.stale = stale; self.error = error; self.removed = removed
        self.pango = pango; self.relevance = relevance; self.background = background
    }

    /// Equal renderings: everything but the entry date (a new entry showing the same thing is no update).
    public func sameRendering(as other: WidgetOutput) -> Bool {
        var a = self, b = other
        a.date = nil; b.date = nil
        return a == b
    }

    /// The object as `JSONEncoder` with sorted keys writes it (absent optionals omitted), written
    /// directly (`WireJSONWriter`): this runs for every update of every widget, once per JSON
    /// sink. A non-finite relevance, which JSON cannot hold, is left out.
    public func jsonData() -> Data {
        var w = WireJSONWriter(capacity: 160 + text.utf8.count * 2 + (pango?.utf8.count ?? 0))
        w.beginObject()
        w.member("alt", alt)
        w.member("background", background)
        w.member("class", self.class)
        w.member("date", date)
        w.member("error", error)
        w.member("family", family)
        w.member("id", id)
        w.member("kind", kind)
        w.member("pango", pango)
        w.member("percentage", percentage)
        w.member("relevance", relevance.flatMap { $0.isFinite ? $0 : nil })
        w.member("removed", removed)
        w.member("stale", stale)
        w.member("text", text)
        w.member("tooltip", tooltip)
        w.member("url", url)
        w.endObject()
        return w.data
    }

    /// `2026-11-21T10:00:05Z`, as `Date.ISO8601FormatStyle()` writes it (UTC, whole seconds),
    /// from `gmtime_r`: the format style's calendar arithmetic was a visible part of every swap.
    /// A date no `time_t` holds (never one `WireValidation` let through at decode) is written
    /// as `""` rather than trapping the conversion.
    public static func isoDate(_ d: Date) -> String {
        let seconds = d.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite, abs(seconds) < 9e15 else { return "" }
        var t = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&t, &parts) != nil else { return d.formatted(.iso8601) }
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let year = Int(parts.tm_year) + 1900
        guard (0...9999).contains(year) else { return d.formatted(.iso8601) }
        let y = String(year)
        return String(repeating: "0", count: 4 - y.count) + y + "-" + two(parts.tm_mon + 1) + "-" + two(parts.tm_mday)
            + "T" + two(parts.tm_hour) + ":" + two(parts.tm_min) + ":" + two(parts.tm_sec) + "Z"
    }
}
