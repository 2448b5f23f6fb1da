import Testing
import FoundationEssentials
import OpenWidgetKit
@testable import WidgetLayout

// How `Image(systemName:)` and `Label` are laid out (issue 28, item 7), on exact numbers: the
// fixed-advance measurer of LayoutTests.swift, and a measurer whose symbols have given boxes.

/// The fixed-advance measurer, with the symbols' boxes it is told (others: the default square).
private struct SymbolBoxes: TextMeasurer {
    var boxes: [String: (width: Double, height: Double)]
    func measure(_ text: String, font: ResolvedFont, width: Double?, maxLines: Int?) -> TextMeasurement {
        FixedAdvanceTextMeasurer().measure(text, font: font, width: width, maxLines: maxLines)
    }
    func measureSymbol(_ symbol: String, font: ResolvedFont) -> SymbolMeasurement {
        guard let b = boxes[symbol] else { return .square(size: font.size) }
        return .centred(width: b.width * font.size, height: b.height * font.size, size: font.size)
    }
}

private func layout<V: View>(_ view: V, boxes: [String: (width: Double, height: Double)]) -> PlacedNode {
    LayoutEngine(measurer: SymbolBoxes(boxes: boxes), now: fixedNow).layout(tree(view), in: Rect(x: 0, y: 0, width: 200, height: 100))
}

@Test func aLabelsIconAndTitleAreHalfTheFontSizeApart() {
    // Caption (12 pt): the symbol's box (the default square, 14 pt) then 6 pt, then the title
    // (5 characters × 6 = 30 pt): 50 pt centred in 200; iOS leaves ~6 pt at caption size.
    let caption = layout(Label("Steps", systemImage: "figure.walk").font(.caption), boxes: [:])
    let line = 12 * 1.2, top = (100 - 12 * 1.2) / 2
    #expect(caption.frame == Rect(x: 75, y: top, width: 50, height: line))
    #expect(caption.children.map(\.frame) == [Rect(x: 75, y: 43, width: 14, height: 14), Rect(x: 95, y: top, width: 30, height: line)])
    // Body (17 pt): 8.5 rounds to 9.
    let body = layout(Label("Go", systemImage: "a.b").font(.body), boxes: ["a.b": (1, 1)])
    #expect(body[1].frame.x - body[0].frame.maxX == 9)
    // A stack's spacing is still the stack's.
    let stack = layout(HStack { Image(systemName: "a.b"); Text("Go") }.font(.caption), boxes: ["a.b": (1, 1)])
    #expect(stack[1].frame.x - stack[0].frame.maxX == 8)
}

@Test func aSymbolTakesItsGlyphsBoxNotASquare() {
    // A narrow symbol (a chevron: 0.3 × 0.5 em) and a wide one (1.2 × 0.6 em) at 20 pt.
    let p = layout(HStack(spacing: 0) { Image(systemName: "narrow"); Image(systemName: "wide") }.font(.system(size: 20)),
                   boxes: ["narrow": (0.3, 0.5), "wide": (1.2, 0.6)])
    #expect(p[0].frame.size == Size(width: 6, height: 10))
    #expect(p[1].frame.size == Size(width: 24, height: 12))
    // Made resizable, it takes the frame it is given.
    let r = layout(Image(systemName: "narrow").resizable().frame(width: 30, height: 40), boxes: ["narrow": (0.3, 0.5)])
    #expect(r.frame.size == Size(width: 30, height: 40))
}

@Test func aSymbolIsCentredOnTheCapHeightOfItsTextsBaseline() {
    // First-baseline row at 20 pt: the text's baseline is 20 pt down (the fake measurer's), the
    // symbol's middle half a cap height (0.7275 × 20 / 2 = 7.275 pt) above it, so a 10 pt tall
    // symbol's top is 20 − 7.275 − 5 = 7.725 pt below the row's top (not on the baseline with
    // its bottom, as a colour is: shorter than the cap height, it reaches not down to the line).
    let p = layout(HStack(alignment: .firstTextBaseline, spacing: 0) { Image(systemName: "s"); Text("A") }.font(.system(size: 20)),
                   boxes: ["s": (0.5, 0.5)])
    let row = p.frame.y
    #expect(abs(p[0].frame.y - row - 7.725) < 1e-9)
    #expect(p[1].frame.y == row)
    // A symbol taller than the cap height (20 pt) reaches below the line, by 10 − 7.275 = 2.725
    // pt (less than the text's 4): its top is 20 − 7.275 − 10 = 2.725 pt below the row's.
    let tall = layout(HStack(alignment: .firstTextBaseline, spacing: 0) { Image(systemName: "s"); Text("A") }.font(.system(size: 20)),
                      boxes: ["s": (0.5, 1)])
    #expect(abs(tall[0].frame.y - tall.frame.y - 2.725) < 1e-9)
    #expect(tall.frame.height == 24)
}
