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

    public static func line(_ o: WidgetOutput, format: Format, widgethost: String = "widgethost") -> String {
        switch format {
        case .text: return flat(o.text)
        case .pango: return flat(o.pango ?? PangoRenderer.escape(o.text))
        case .json: return String(decoding: o.jsonData(), as: UTF8.self)
        case .waybar:
            struct Waybar: Encodable { var text: String; var alt: String?; var tooltip: String?; var `class`: [String]; var percentage: Int? }
            let e = JSONEncoder()
            e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let w = Waybar(text: o.text, alt: o.alt, tooltip: o.tooltip, class: o.class, percentage: o.percentage)
            return String(decoding: (try? e.encode(w)) ?? Data("{}".utf8), as: UTF8.self)
        case .polybar:
            let text = flat(o.pango.map(PolybarMarkup.fromPango) ?? PolybarMarkup.escape(o.text))
            let cmd = "\(widgethost) click \(o.id)".replacing(":", with: "\\:")
            return "%{A1:\(cmd):}\(text)%{A}"
        }
    }

    static func flat(_ s: String) -> String { s.replacing("\n", with: " ") }
}
