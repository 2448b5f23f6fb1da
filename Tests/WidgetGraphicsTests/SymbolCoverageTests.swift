import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetGraphics
import WidgetLayout
#if canImport(Glibc)
import Glibc
#endif

// SF Symbols drawn with the Material Icons stand-in (issue 28, item 7): which names real widget
// code uses (Fixtures/sf-symbol-frequency.tsv, with its source in its header) are drawn with a
// real glyph rather than the "?" box, and the boxes the symbols take.

/// The frequency list: (occurrences, occurrences in widget code, symbol), most frequent first.
private func frequencyList() throws -> [(all: Int, widget: Int, symbol: String)] {
    let file = #filePath
    let path = String(file[..<file.lastIndex(of: "/")!]) + "/Fixtures/sf-symbol-frequency.tsv"
    let f = try #require(fopen(path, "r"), "cannot open \(path)")
    defer { fclose(f) }
    var rows: [(Int, Int, String)] = []
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    while getline(&line, &capacity, f) > 0 {
        var s = String(cString: line!)
        while s.last == "\n" || s.last == "\r" { s.removeLast() }
        guard !s.hasPrefix("#"), !s.isEmpty else { continue }
        let cols = s.split(separator: "\t")
        #expect(cols.count == 3, "bad line: \(s)")
        guard cols.count == 3 else { continue }
        rows.append((try #require(Int(cols[0])), try #require(Int(cols[1])), String(cols[2])))
    }
    free(line)
    return rows
}

private func text() -> PangoText {
    _ = PinnedFonts.configured
    return PangoText()
}

/// Whether `symbol` is drawn with a glyph of the icon font (not the fallback box).
private func drawn(_ symbol: String, _ t: PangoText) -> Bool {
    guard let cp = SymbolFont.codepoint(for: symbol) else { return false }
    return t.iconFontHasGlyph(cp)
}

@Test func everyRowOfTheSymbolTableHasAGlyphInTheIconFont() {
    let t = text()
    let missing = SymbolTable.rows.filter { !t.iconFontHasGlyph($0.codepoint) }.map(\.symbol)
    #expect(missing.isEmpty, "no glyph for \(missing)")
    #expect(!t.iconFontHasGlyph(0x41), "the icon font must not be a text face")  // "A" is no icon
    let names = SymbolTable.rows.map(\.symbol)
    #expect(Set(names).count == names.count, "a symbol is listed twice")
}

@Test func theSymbolsWidgetCodeUsesMostAreDrawn() throws {
    let t = text()
    let list = try frequencyList()
    try #require(list.count > 300)
    // Every one of the 150 most used names has a glyph.
    let top = list.prefix(150).filter { !drawn($0.symbol, t) }.map(\.symbol)
    #expect(top.isEmpty, "drawn as the fallback box: \(top)")
    // Share of the occurrences drawn with a glyph: 63.4 % (780 of 1230) before issue 28,
    // 99.2 % (1220) after; in widget code alone 64.9 % (50 of 77) before, 100 % after.
    let all = list.reduce(0) { $0 + $1.all }, widget = list.reduce(0) { $0 + $1.widget }
    let drawnAll = list.filter { drawn($0.symbol, t) }.reduce(0) { $0 + $1.all }
    let drawnWidget = list.filter { drawn($0.symbol, t) }.reduce(0) { $0 + $1.widget }
    #expect(Double(drawnAll) / Double(all) >= 0.99, "\(drawnAll) of \(all)")
    #expect(drawnWidget == widget, "\(drawnWidget) of \(widget)")
}

@Test func theSymbolsIssue28NamesAreDrawnAndDistinct() {
    let t = text()
    let named = ["chevron.right", "chevron.left", "chevron.up", "chevron.down", "arrow.circlepath", "largecircle.fill.circle",
                 "umbrella.fill", "message.fill", "bus", "cpu", "memorychip"]
    #expect(named.filter { !drawn($0, t) }.isEmpty)
    let points = named.map { SymbolFont.codepoint(for: $0) }
    #expect(Set(points).count == named.count, "two of \(named) share a glyph")
}

@Test func aSymbolsBoxIsItsGlyphsInkAtTheFontSize() {
    // The icon font is set at 1.14 × the text's size. Material's chevron_right is drawn from x
    // 8.59 to 16 and y 6 to 18 on its 24-unit grid, so for 12 pt text (0.57 pt a unit) its ink
    // is 4.22 × 6.84 pt: a box of 5 × 7, centred half a cap height (0.7275 × 12 / 2 = 4.365)
    // above the baseline. favorite (heart.fill) spans x 2…22, y 3…21.35: 11.4 × 10.46 → 12 ×
    // 11. For 17 pt text the chevron is 5.98 × 9.69 → 6 × 10.
    let t = text()
    let caption = ResolvedFont(size: 12)
    let chevron = t.measureSymbol("chevron.right", font: caption)
    #expect(chevron.width == 5 && chevron.height == 7)
    #expect(abs(chevron.baseline - (3.5 + 4.365)) < 1e-9)
    let heart = t.measureSymbol("heart.fill", font: caption)
    #expect(heart.width == 12 && heart.height == 11)
    let body = t.measureSymbol("chevron.right", font: ResolvedFont(size: 17))
    #expect(body.width == 6 && body.height == 10)
    // A name with no icon keeps the fallback box's square.
    #expect(t.measureSymbol("no.such.symbol", font: caption) == .square(size: 12))
}

@Test func aCaptionLabelLeavesSixPointsBetweenIconAndTitle() {
    // Label("12 min", systemImage: "clock") at caption size, measured with Pango: the symbol's
    // box is its glyph's (schedule: 20 × 20 units, 11.4 → 12 pt) and the title starts 6 pt after
    // it; before issue 28 the box was a 14 pt square with the title 8 pt after it (~11 pt from
    // glyph to text).
    let t = text()
    let p = LayoutEngine(measurer: t, now: Date(timeIntervalSince1970: 0))
        .layout(ViewEvaluator.evaluate(Label("12 min", systemImage: "clock").font(.caption), environment: EnvironmentValues()),
                in: Rect(x: 0, y: 0, width: 200, height: 100))
    #expect(p.children.count == 2)
    let icon = p.children[0].frame, title = p.children[1].frame
    #expect(icon.size == Size(width: 12, height: 12))
    #expect(title.x - icon.maxX == 6)
}
