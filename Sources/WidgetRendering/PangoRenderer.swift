import OpenWidgetKit

/// Renders the one-line (inline) rendering of a tree as Pango markup, for bars that show it
/// (waybar, polybar via `format`, eww): weights as `<b>` or `<span weight=…>`, colours as
/// `foreground="#rrggbb"` (through `options.palette`), opacity as `alpha`, italic,
/// monospaced design as `font_family="monospace"`, `monospacedDigit` as tabular figures.
/// Every piece of text is escaped (`& < > ' "`). A pure function: safe from any thread.
public enum PangoRenderer {
    public static func render(_ node: ViewNode, family: WidgetFamily, options: RenderOptions = RenderOptions()) -> String {
        TextRenderer.inlineRuns(node, family: family, options: options).map { markup($0, palette: options.palette) }.joined()
    }

    /// Escapes text for Pango markup.
    public static func escape(_ s: String) -> String {
        // Nothing to escape (the common case): the string itself, without building a copy. The
        // five are ASCII, and no byte of a multi-byte UTF-8 sequence is ASCII.
        func special(_ b: UInt8) -> Bool { b == 0x26 || b == 0x3C || b == 0x3E || b == 0x27 || b == 0x22 }
        guard s.utf8.withContiguousStorageIfAvailable({ $0.contains(where: special) }) ?? s.utf8.contains(where: special) else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count)
        // By scalar: a `<` followed by a combining mark is one Character, which no case matches.
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "'": out += "&apos;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// SwiftUI weight names → Pango's.
    static func pangoWeight(_ w: String) -> String? {
        switch w.lowercased() {
        case "ultralight": "ultralight"
        case "thin": "thin"
        case "light": "light"
        case "regular": nil
        case "medium": "medium"
        case "semibold": "semibold"
        case "bold": "bold"
        case "heavy": "ultrabold"
        case "black": "heavy"
        default: nil
        }
    }

    static func markup(_ r: Run, palette: ColorPalette) -> String {
        var text = escape(r.text)
        let st = r.style
        var attrs: [String] = []
        var bold = false
        if let w = st.weight.flatMap(pangoWeight) {
            if w == "bold" { bold = true } else { attrs.append("weight=\"\(w)\"") }
        }
        var alpha = st.opacity
        if let fg = st.foreground {
            if let hex = palette.hex(fg) { attrs.append("foreground=\"\(hex)\"") }
            alpha *= palette.alpha(fg)
        }
        if alpha < 0.999 { attrs.append("alpha=\"\(Int(saturating: (min(max(alpha, 0), 1) * 100).rounded()))%\"") }
        if st.italic { attrs.append("style=\"italic\"") }
        if st.monospaced { attrs.append("font_family=\"monospace\"") }
        if st.monospacedDigit && !st.monospaced { attrs.append("font_features=\"tnum\"") }
        if bold { text = "<b>" + text + "</b>" }
        if !attrs.isEmpty { text = "<span " + attrs.joined(separator: " ") + ">" + text + "</span>" }
        return text
    }
}
