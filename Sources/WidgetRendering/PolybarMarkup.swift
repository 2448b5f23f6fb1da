/// polybar's formatting tags from the Pango markup `PangoRenderer` writes, for `follow --format
/// polybar`: `foreground` (with `alpha`) becomes `%{F#aarrggbb}…%{F-}`; bold, italics and font features have no polybar tag without user-configured fonts and are
/// dropped (the text stays). Text is unescaped from Pango and escaped for polybar, whose only
/// syntax inside text is the `%{` that opens a tag (polybar 3.6 prints `%%` as two characters).
/// A pure function: safe from any thread.
public enum PolybarMarkup {
    /// Breaks every `%{` in plain text with an empty offset tag (`%` `%{O0}` `{`), so polybar
    /// shows `%{` instead of parsing a tag. (A zero-width space did too, but bar fonts lack it and
    /// polybar logged a warning at every redraw; tried with polybar 3.6.3.) A lone `%` needs
    /// nothing.
    public static func escape(_ s: String) -> String {
        guard s.contains("%{") else { return s }
        return s.replacing("%{", with: "%%{O0}{")
    }

    /// `markup` (the subset `PangoRenderer` writes: `<b>`, `<span attr="…">`, the five entities)
    /// as polybar text. Anything else in angle brackets is dropped; a lone `<` or `&` is text.
    public static func fromPango(_ markup: String) -> String {
        var out = ""
        var colors: [String?] = []      // the colour each open span set (nil: none)
        var text = ""
        func flushText() { out += escape(text); text = "" }
        var i = markup.startIndex
        while i < markup.endIndex {
            let c = markup[i]
            if c == "<", let close = markup[i...].firstIndex(of: ">") {
                flushText()
                let tag = markup[markup.index(after: i)..<close]
                if tag.hasPrefix("span") {
                    let color = spanColor(String(tag))
                    colors.append(color)
                    if let color { out += "%{F\(color)}" }
                } else if tag == "/span" {
                    if let color = colors.popLast(), color != nil {
                        out += colors.compactMap({ $0 }).last.map { "%{F\($0)}" } ?? "%{F-}"
                    }
                }
                i = markup.index(after: close)
            } else if c == "&", let semi = markup[i...].prefix(7).firstIndex(of: ";") {
                let entity = markup[markup.index(after: i)..<semi]
                switch entity {
                case "amp": text += "&"
                case "lt": text += "<"
                case "gt": text += ">"
                case "apos": text += "'"
                case "quot": text += "\""
                default: text += markup[i...semi]
                }
                i = markup.index(after: semi)
            } else {
                text.append(c)
                i = markup.index(after: i)
            }
        }
        flushText()
        return out
    }

    /// `#aarrggbb` (or `#rrggbb` when opaque) from a span's `foreground` and `alpha`, nil when it
    /// sets no colour.
    static func spanColor(_ tag: String) -> String? {
        guard let fg = attribute("foreground", in: tag), fg.hasPrefix("#"), fg.count == 7 else { return nil }
        guard let alpha = attribute("alpha", in: tag), alpha.hasSuffix("%"),
              let percent = Double(alpha.dropLast()), percent < 100 else { return fg }
        let byte = min(max(Int(saturating: (max(0, min(100, percent)) * 255 / 100).rounded()), 0), 255)
        let hex = String(byte, radix: 16)
        return "#" + (hex.count == 1 ? "0" + hex : hex) + fg.dropFirst()
    }

    private static func attribute(_ name: String, in tag: String) -> String? {
        guard let r = tag.firstRange(of: name + "=\"") else { return nil }
        let rest = tag[r.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
