import Testing
import FoundationEssentials
import OpenWidgetKit
@testable import WidgetLayout

// ViewThatFits, Grid and the lazy grids on exact numbers (the fixed-advance measurer of
// LayoutTests: at `.system(size: 10)` a character is 5 pt wide and a line 12 pt tall).

@Test func viewThatFitsShowsTheFirstCandidateThatFits() {
    func candidates() -> some View {
        ViewThatFits {
            Text("a long title here")  // 85 pt
            Text("short title")  // 55 pt
            Text("t")
        }.font(.system(size: 10))
    }
    #expect(texts(layout(candidates(), width: 100, height: 50)).map(\.text?.string) == ["a long title here"])
    let mid = layout(candidates(), width: 60, height: 50)
    #expect(texts(mid).map(\.text?.string) == ["short title"])
    #expect(mid.frame == Rect(x: 2.5, y: 19, width: 55, height: 12))
    // None fits: the last, even though it does not fit either.
    #expect(texts(layout(candidates(), width: 3, height: 50)).map(\.text?.string) == ["t"])
    // Only the constrained axis counts: a 20 pt-tall candidate in 12 pt fits `in: .horizontal`.
    let tall = ViewThatFits(in: .horizontal) { Color.red.frame(width: 40, height: 20); Color.blue.frame(width: 10, height: 10) }
    #expect(layout(tall, width: 50, height: 12).frame == Rect(x: 5, y: -4, width: 40, height: 20))
    let both = ViewThatFits { Color.red.frame(width: 40, height: 20); Color.blue.frame(width: 10, height: 10) }
    #expect(layout(both, width: 50, height: 12).frame == Rect(x: 20, y: 1, width: 10, height: 10))
}

@Test func gridColumnsAreAsWideAsTheirWidestCell() {
    // Columns: max("a", "cccc") = 20, max("bbbbbb", "d") = 30; 8 pt between columns and rows.
    let p = layout(Grid {
        GridRow { Text("a"); Text("bbbbbb") }
        GridRow { Text("cccc"); Text("d") }
    }.font(.system(size: 10)), width: 100, height: 100)
    #expect(p.frame == Rect(x: 21, y: 34, width: 58, height: 32))
    let t = texts(p).map(\.frame)
    // Centred in their cells (the default alignment).
    #expect(t == [Rect(x: 28.5, y: 34, width: 5, height: 12), Rect(x: 49, y: 34, width: 30, height: 12),
                  Rect(x: 21, y: 54, width: 20, height: 12), Rect(x: 61.5, y: 54, width: 5, height: 12)])
    #expect(p[0].frame == Rect(x: 21, y: 34, width: 58, height: 12))
}

@Test func gridAlignmentSpacingAndSpanningRows() {
    let p = layout(Grid(alignment: .leading, horizontalSpacing: 2, verticalSpacing: 4) {
        GridRow { Text("a"); Text("bbbbbb") }
        Color.red.frame(height: 1)
        GridRow(alignment: .bottom) { Text("cccc").font(.system(size: 20)); Text("d") }
    }.font(.system(size: 10)), width: 100, height: 100)
    // Columns max(5, 40) = 40 and max(30, 5) = 30, 2 apart: 72 wide; rows 12, 1, 24, 4 apart.
    #expect(p.frame.size == Size(width: 72, height: 45))
    let x = p.frame.x, y = p.frame.y
    let t = texts(p).map(\.frame)
    #expect(t[0] == Rect(x: x, y: y, width: 5, height: 12))
    #expect(t[1] == Rect(x: x + 42, y: y, width: 30, height: 12))
    #expect(p[1].frame == Rect(x: x, y: y + 16, width: 72, height: 1))  // the divider row spans both columns
    #expect(t[2] == Rect(x: x, y: y + 21, width: 40, height: 24))
    #expect(t[3] == Rect(x: x + 42, y: y + 33, width: 5, height: 12))  // the row's bottom alignment
}

@Test func aRowsExplicitCenterWinsOverTheGridsAlignment() {
    // SwiftUI: GridRow(alignment: .center) overrides Grid(alignment: .top); a row naming none
    // keeps the grid's.
    let p = layout(Grid(alignment: .top) {
        GridRow { Text("tall").font(.system(size: 20)); Text("a") }
        GridRow(alignment: .center) { Text("tall").font(.system(size: 20)); Text("b") }
    }.font(.system(size: 10)), width: 100, height: 100)
    let t = texts(p).map(\.frame)
    #expect(t[1].y == t[0].y, "no row alignment: the grid's top")
    #expect(t[3].y == t[2].y + 6, "the row's own centre: (24 - 12) / 2")
}

@Test func gridShareslengthLikeAStack() {
    // Two flexible colour columns and a 20 pt text column in 100 pt: the text first (its
    // column cannot grow), the colours share the 64 left after two 8 pt gaps.
    let p = layout(Grid { GridRow { Color.red; Text("aaaa"); Color.blue } }.font(.system(size: 10)), width: 100, height: 40)
    #expect(p[0].children.map(\.frame.width) == [32, 20, 32])
    #expect(p[0].children.map(\.frame.x) == [0, 40, 68])
    #expect(p.frame.height == 40)
}

@Test func lazyVGridFixedFlexibleAndAdaptiveColumns() {
    // 100 pt: a fixed 20, then two flexible share 100 − 20 − 2 × 8 = 64 → 32 each.
    let cells = ForEach(0..<5, id: \.self) { _ in Color.red.frame(height: 10) }
    let p = layout(LazyVGrid(columns: [GridItem(.fixed(20)), GridItem(), GridItem()], spacing: 4) { cells }, width: 100, height: 100)
    #expect(p.children.map(\.frame) == [
        Rect(x: 0, y: 38, width: 20, height: 10), Rect(x: 28, y: 38, width: 32, height: 10), Rect(x: 68, y: 38, width: 32, height: 10),
        Rect(x: 0, y: 52, width: 20, height: 10), Rect(x: 28, y: 52, width: 32, height: 10),
    ])
    // Adaptive 30…: (100 + 8) / (30 + 8) → 2 columns of (100 − 8) / 2 = 46.
    let a = layout(LazyVGrid(columns: [GridItem(.adaptive(minimum: 30))]) { cells }, width: 100, height: 100)
    #expect(a.children.map(\.frame.width) == [46, 46, 46, 46, 46])
    #expect(a.children.map(\.frame.x) == [0, 54, 0, 54, 0])
    #expect(a.frame.height == 10 * 3 + 8 * 2)
    // A flexible maximum caps the column; the leading alignment puts a narrow cell at its left.
    let capped = layout(LazyVGrid(columns: [GridItem(.flexible(maximum: 30)), GridItem()], alignment: .leading) {
        Text("ab").font(.system(size: 10)); Color.red.frame(height: 10)
    }, width: 100, height: 100)
    #expect(capped.children.map(\.frame) == [Rect(x: 0, y: 44, width: 10, height: 12), Rect(x: 38, y: 45, width: 62, height: 10)])
}

@Test func lazyHGridFlowsDownColumns() {
    // Two rows sharing 60 pt (26 each after the 8 pt gap); children fill column by column.
    let p = layout(LazyHGrid(rows: [GridItem(), GridItem()], spacing: 4) {
        ForEach(0..<3, id: \.self) { _ in Color.red.frame(width: 10) }
    }, width: 100, height: 60)
    #expect(p.children.map(\.frame) == [
        Rect(x: 38, y: 0, width: 10, height: 26), Rect(x: 38, y: 34, width: 10, height: 26), Rect(x: 52, y: 0, width: 10, height: 26),
    ])
}
