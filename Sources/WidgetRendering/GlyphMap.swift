/// Maps SF Symbol names (`Image(systemName:)`) to characters a terminal or status bar can show.
///
/// `.unicode` (the default) uses plain Unicode that is single-width, has no emoji presentation
/// and is in both DejaVu Sans and DejaVu Sans Mono (Debian's default fonts, which bars fall back
/// to; tested through fontconfig), so it shows in any bar and columns line up in any monospaced
/// font; `.nerdFont` uses Nerd Font
/// (Font Awesome range) codepoints for users whose bar font has them. Unknown names render as
/// `"•"`. `overrides` lets a user replace any entry. A value type: safe from any thread.
public struct GlyphMap: Hashable, Sendable {
    public enum Style: String, Hashable, Sendable, Codable {
        case unicode, nerdFont
    }

    public var style: Style
    /// Symbol name → glyph, consulted before the built-in tables.
    public var overrides: [String: String]

    public init(style: Style = .unicode, overrides: [String: String] = [:]) {
        self.style = style; self.overrides = overrides
    }

    public static let unicode = GlyphMap(style: .unicode)
    public static let nerdFont = GlyphMap(style: .nerdFont)

    /// The glyph shown for unknown symbols.
    public static let fallback = "•"

    /// The glyph for an SF Symbol name. Variants the tables do not list fall back to their base
    /// name (`"flame.circle.fill"` → `"flame.circle"` → `"flame"`), then to `"•"`.
    public func glyph(for symbol: String) -> String {
        let table = style == .nerdFont ? Self.nerd : Self.plain
        var name = Substring(symbol)
        while true {
            if let g = overrides[String(name)] ?? table[String(name)] { return g }
            guard let dot = name.lastIndex(of: ".") else { break }
            name = name[..<dot]
        }
        if style == .nerdFont, let g = Self.plain[symbol] { return g }
        return Self.fallback
    }

    /// Plain Unicode, single width, text presentation.
    public static let plain: [String: String] = [
        "flame": "♨", "flame.fill": "♨",
        "checkmark": "✓", "checkmark.circle": "✓", "checkmark.circle.fill": "✔", "checkmark.seal.fill": "✔",
        "xmark": "✗", "xmark.circle": "✗", "xmark.circle.fill": "✖",
        "star": "☆", "star.fill": "★",
        "plus": "+", "plus.circle": "⊕", "plus.circle.fill": "⊕", "minus": "−", "minus.circle.fill": "⊖",
        "heart": "♡", "heart.fill": "♥", "bolt.heart.fill": "♥",
        "figure.walk": "☺", "figure.run": "☺", "figure.stand": "☺",
        "bolt": "↯", "bolt.fill": "↯", "battery.100.bolt": "↯",
        "battery.100": "█", "battery.75": "▆", "battery.50": "▄", "battery.25": "▂", "battery.0": "▁",
        "cpu": "▣", "memorychip": "≣", "internaldrive": "▤", "desktopcomputer": "▭", "laptopcomputer": "▭",
        "clock": "◷", "clock.fill": "◷", "alarm": "◷", "timer": "◴", "hourglass": "◔", "stopwatch": "◴",
        "calendar": "▦", "thermometer": "θ", "thermometer.medium": "θ",
        "wifi": "≋", "antenna.radiowaves.left.and.right": "≋", "network": "⇅",
        "cloud": "☁", "cloud.fill": "☁", "cloud.sun": "☁", "cloud.sun.fill": "☁", "cloud.rain": "☂",
        "cloud.rain.fill": "☂", "cloud.snow": "❄", "snowflake": "❄",
        "moon": "☾", "moon.fill": "☾", "moon.stars": "☾", "moon.zzz": "☾",
        "sun.max": "☀", "sun.max.fill": "☀", "sun.min": "☼", "sunrise": "☀", "sunset": "☀",
        "location": "➢", "location.fill": "➤",
        "arrow.up": "↑", "arrow.down": "↓", "arrow.left": "←", "arrow.right": "→",
        "arrow.up.right": "↗", "arrow.down.right": "↘", "arrow.clockwise": "↻", "arrow.counterclockwise": "↺",
        "arrow.triangle.2.circlepath": "↻", "chart.line.uptrend.xyaxis": "↗",
        "chart.bar": "▆", "chart.bar.fill": "▇",
        "bell": "⚑", "bell.fill": "⚑", "house": "⌂", "house.fill": "⌂",
        "music.note": "♪", "music.note.list": "♫",
        "person": "☺", "person.fill": "☻", "envelope": "✉", "envelope.fill": "✉", "phone": "✆", "phone.fill": "✆",
        "gear": "⚙", "gearshape": "⚙", "gearshape.fill": "⚙", "leaf": "☘", "leaf.fill": "☘",
        "exclamationmark.triangle": "⚠", "exclamationmark.triangle.fill": "⚠", "info.circle": "⍳",
        "circle": "○", "circle.fill": "●", "square": "□", "square.fill": "■",
        "play.fill": "▶", "pause.fill": "‖", "stop.fill": "■", "backward.fill": "«", "forward.fill": "»",
        "sparkles": "✦", "trophy": "♛", "trophy.fill": "♛", "target": "◎", "airplane": "✈",
        "globe": "◍", "magnifyingglass": "⊙", "lock": "⊡", "lock.fill": "⊡", "drop": "◊", "drop.fill": "◆",
    ]

    /// `text` rendered with `.unicode` glyphs, with each symbol glyph replaced by its Nerd Font
    /// one (for `follow --nerd-font`, which reads text the host already rendered). ASCII, block
    /// elements (progress bars) and the fallback dot are never symbols here.
    public static func nerdFontText(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { nerdForPlain[String($0)] != nil }) else { return text }
        var out = ""
        for ch in text { out += nerdForPlain[String(ch)] ?? String(ch) }
        return out
    }

    /// Plain glyph → Nerd Font glyph, from the first symbol name (sorted) that has both.
    static let nerdForPlain: [String: String] = {
        var map: [String: String] = [:]
        for (name, glyph) in plain.sorted(by: { $0.key < $1.key }) where map[glyph] == nil {
            guard let scalar = glyph.unicodeScalars.first, glyph.unicodeScalars.count == 1,
                  !scalar.isASCII, !(0x2580...0x259F).contains(scalar.value), glyph != fallback else { continue }
            let n = GlyphMap.nerdFont.glyph(for: name)
            if n != glyph && n != fallback { map[glyph] = n }
        }
        return map
    }()

    /// Nerd Font codepoints (Font Awesome 4 range, present in every Nerd Font).
    static let nerd: [String: String] = [
        "flame": "\u{F06D}", "checkmark": "\u{F00C}", "checkmark.circle": "\u{F058}", "checkmark.circle.fill": "\u{F058}",
        "xmark": "\u{F00D}", "xmark.circle": "\u{F057}", "star": "\u{F006}", "star.fill": "\u{F005}",
        "plus": "\u{F067}", "plus.circle": "\u{F055}", "minus": "\u{F068}",
        "heart": "\u{F08A}", "heart.fill": "\u{F004}", "figure.walk": "\u{F183}", "figure.run": "\u{F183}",
        "bolt": "\u{F0E7}", "battery.100": "\u{F240}", "battery.75": "\u{F241}", "battery.50": "\u{F242}",
        "battery.25": "\u{F243}", "battery.0": "\u{F244}", "cpu": "\u{F2DB}", "memorychip": "\u{F2DB}",
        "internaldrive": "\u{F0A0}", "desktopcomputer": "\u{F108}", "laptopcomputer": "\u{F109}",
        "clock": "\u{F017}", "alarm": "\u{F017}", "timer": "\u{F017}", "hourglass": "\u{F254}", "calendar": "\u{F073}",
        "thermometer": "\u{F2C9}", "wifi": "\u{F1EB}", "network": "\u{F0AC}", "cloud": "\u{F0C2}",
        "cloud.sun": "\u{F0C2}", "cloud.rain": "\u{F0E9}", "cloud.snow": "\u{F2DC}", "snowflake": "\u{F2DC}",
        "moon": "\u{F186}", "sun.max": "\u{F185}", "sun.min": "\u{F185}", "location": "\u{F124}",
        "arrow.up": "\u{F062}", "arrow.down": "\u{F063}", "arrow.left": "\u{F060}", "arrow.right": "\u{F061}",
        "arrow.clockwise": "\u{F01E}", "arrow.counterclockwise": "\u{F0E2}", "arrow.triangle.2.circlepath": "\u{F021}",
        "chart.bar": "\u{F080}", "bell": "\u{F0F3}", "house": "\u{F015}", "music.note": "\u{F001}",
        "person": "\u{F007}", "envelope": "\u{F0E0}", "phone": "\u{F095}", "gear": "\u{F013}", "gearshape": "\u{F013}",
        "leaf": "\u{F06C}", "exclamationmark.triangle": "\u{F071}", "info.circle": "\u{F05A}",
        "circle": "\u{F10C}", "circle.fill": "\u{F111}", "square.fill": "\u{F0C8}",
        "play.fill": "\u{F04B}", "pause.fill": "\u{F04C}", "stop.fill": "\u{F04D}", "trophy": "\u{F091}",
        "backward.fill": "\u{F04A}", "forward.fill": "\u{F04E}",
        "airplane": "\u{F072}", "globe": "\u{F0AC}", "magnifyingglass": "\u{F002}", "lock": "\u{F023}",
        "drop": "\u{F043}",
    ]
}
