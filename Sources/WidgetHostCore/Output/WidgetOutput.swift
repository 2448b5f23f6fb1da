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
        // The text differs on most swaps (a clock): compare it before copying both outputs.
        guard text == other.text else { return false }
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
        let year = Int(parts.tm_year) + 1900
        guard (0...9999).contains(year) else { return d.formatted(.iso8601) }
        // Twenty ASCII bytes written in place: concatenating the parts was 6 % of a clock tick.
        return String(unsafeUninitializedCapacity: 20) { b in
            func put(_ n: Int, _ digits: Int, at i: Int) {
                var n = n
                for k in stride(from: i + digits - 1, through: i, by: -1) { b[k] = UInt8(48 + n % 10); n /= 10 }
            }
            put(year, 4, at: 0); b[4] = 0x2D; put(Int(parts.tm_mon) + 1, 2, at: 5); b[7] = 0x2D; put(Int(parts.tm_mday), 2, at: 8)
            b[10] = 0x54; put(Int(parts.tm_hour), 2, at: 11); b[13] = 0x3A; put(Int(parts.tm_min), 2, at: 14); b[16] = 0x3A
            put(Int(parts.tm_sec), 2, at: 17); b[19] = 0x5A
            return 20
        }
    }
}
