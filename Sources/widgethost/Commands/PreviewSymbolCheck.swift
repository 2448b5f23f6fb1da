import OpenWidgetKit
import WidgetRendering

/// `preview`'s warning for an SF Symbol that text output cannot draw: a name with no glyph in
/// `GlyphMap` is shown as its fallback (`•`), which looks like a deliberate bullet. Each widget
/// and symbol is named once on stderr. Not thread-safe: used by one command on its thread.
final class PreviewSymbolCheck {
    private let glyphs: GlyphMap
    private var reported: Set<String> = []

    init(glyphs: GlyphMap) { self.glyphs = glyphs }

    /// Warns about every symbol of `view` (from widget or preview `source`) with no glyph.
    func check(_ view: ViewNode, source: String) {
        view.walk { node in
            guard let symbol = node.symbol, glyphs.glyph(for: symbol) == GlyphMap.fallback,
                  reported.insert(source + "\u{0}" + symbol).inserted else { return }
            ControlClient.printError("preview: warning: \(source) uses SF Symbol \"\(symbol)\", which has no glyph here "
                                     + "(shown as \(GlyphMap.fallback)); the names drawn are in docs/widgetkit-parity.md")
        }
    }
}
