import FoundationEssentials
import OpenWidgetKit
import WidgetRendering

/// The line `widgethost follow` prints for one state of `out/<id>.json`, per bar convention:
/// `text` (i3blocks, eww), `waybar` (a `custom` module's JSON: text, alt, tooltip, class,
/// percentage), `pango` (the markup, else the escaped text), `json` (the whole object),
/// `polybar` (the text with its colours as `%{F…}` tags, wrapped in a left-click action running
/// `widgethost click <id>`). Pure.
public enum FollowFormatter {
    public enum Format: String, CaseIterable, Sendable { case text, waybar, pango, json, polybar }

    /// The grey a stale widget is drawn in where the format has colours (as i3bar's blocks).
    public static let staleColor = "#888888"

    /// `o` as a widget whose host is gone: `stale`, class `stale`, and `reason` as its error.
    public static func markedStale(_ o: WidgetOutput, reason: String) -> WidgetOutput {
        var s = o
        s.stale = true
        if !s.class.contains("stale") { s.class.append("stale") }
        s.error = s.error ?? reason
        return s
    }

    public static func line(_ o: WidgetOutput, format: Format, widgethost: String = "widgethost") -> String {
        switch format {
        case .text: return flat(o.text)
        case .pango:
            let markup = flat(o.pango ?? PangoRenderer.escape(o.text))
            return o.stale ? "<span foreground=\"\(staleColor)\">" + markup + "</span>" : markup
        case .json: return String(decoding: o.jsonData(), as: UTF8.self)
        case .waybar:
            struct Waybar: Encodable { var text: String; var alt: String?; var tooltip: String?; var `class`: [String]; var percentage: Int? }
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let w = Waybar(text: o.text, alt: o.alt, tooltip: o.tooltip, class: o.class, percentage: o.percentage)
            return String(decoding: (try? e.encode(w)) ?? Data("{}".utf8), as: UTF8.self)
        case .polybar:
            var text = flat(o.pango.map(PolybarMarkup.fromPango) ?? PolybarMarkup.escape(o.text))
            if o.stale { text = "%{F\(staleColor)}" + text.replacing("%{F-}", with: "%{F\(staleColor)}") + "%{F-}" }
            let cmd = "\(widgethost) click \(o.id)".replacing(":", with: "\\:")
            return "%{A1:\(cmd):}\(text)%{A}"
        }
    }

    static func flat(_ s: String) -> String { s.replacing("\n", with: " ") }
}
