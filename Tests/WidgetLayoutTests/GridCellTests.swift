import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetLayout

// `gridCellColumns`, `gridColumnAlignment` and `gridCellAnchor` on exact numbers (the
// fixed-advance measurer of LayoutTests: at `.system(size: 10)` a character is 5 pt wide and a
// line 12 pt tall; 8 pt between columns and rows).

@Test func aCellSpanningColumnsTakesTheirWidthAndSizesNone() {
    let p = layout(Grid {
        GridRow { Text("aa"); Text("bbbb"); Text("c") }
        GridRow { Text("wide").gridCellColumns(2); Text("dd") }
    }.font(.system(size: 10)), width: 200, height: 100)
    // Columns from the one-column cells: 10, 20, max(5, 10) = 10; 56 wide with the spacing,
    // 32 tall, centred in 200 × 100.
    #expect(p.frame == Rect(x: 72, y: 34, width: 56, height: 32))
    #expect(texts(p).map(\.frame) == [
        Rect(x: 72, y: 34, width: 10, height: 12), Rect(x: 90, y: 34, width: 20, height: 12), Rect(x: 120.5, y: 34, width: 5, height: 12),
        // "wide" centred in columns 0–1 (72 … 110), "dd" in column 2.
        Rect(x: 81, y: 54, width: 20, height: 12), Rect(x: 118, y: 54, width: 10, height: 12),
    ])
}

@Test func aSpanBeyondTheLimitOrBelowOneIsClamped() {
    let p = layout(Grid {
        GridRow { Text("a").gridCellColumns(0); Text("b").gridCellColumns(-3) }
        GridRow { Text("cc").gridCellColumns(1_000_000) }
    }.font(.system(size: 10)), width: 1000, height: 100)
    // Two one-column cells (5, 5) and a cell over the 64 columns the limit allows: the grid
    // has 64 columns, 62 of them empty (0 wide) but spaced.
    #expect(p.frame.width == 5 + 5 + 63 * 8)
    #expect(texts(p).map(\.text?.string) == ["a", "b", "cc"])
}

@Test func aColumnAlignmentAndACellAnchorPlaceTheirCells() {
    let p = layout(Grid {
        GridRow { Text("a").gridColumnAlignment(.trailing); Text("b") }
        GridRow { Text("cccc"); Text("dddddd") }
        GridRow { Text("e"); Color.red.frame(width: 10, height: 4).gridCellAnchor(.topLeading) }
    }.font(.system(size: 10)), width: 200, height: 100)
    // Columns 20 and 30; 58 × 52 centred in 200 × 100.
    #expect(p.frame == Rect(x: 71, y: 24, width: 58, height: 52))
    #expect(texts(p).map(\.frame) == [
        // Column 0 trailing (its first cell says so), column 1 centred (the grid's default).
        Rect(x: 86, y: 24, width: 5, height: 12), Rect(x: 111.5, y: 24, width: 5, height: 12),
        Rect(x: 71, y: 44, width: 20, height: 12), Rect(x: 99, y: 44, width: 30, height: 12),
        Rect(x: 86, y: 64, width: 5, height: 12),
    ])
    // The anchored cell at the top leading corner of its 30 × 12 cell, not centred in it.
    #expect(p[2][1].frame == Rect(x: 99, y: 64, width: 10, height: 4))
}

@Test func aSpanningCellIsAlignedByTheGridNotByItsFirstColumn() {
    let p = layout(Grid {
        GridRow { Text("title").gridCellColumns(2) }
        GridRow { Text("aaaa").gridColumnAlignment(.trailing); Text("bbbb") }
        GridRow { Text("c"); Text("d") }
    }.font(.system(size: 10)), width: 200, height: 100)
    // Columns 20 and 20, 48 wide with the spacing; 52 tall; at (76, 24).
    #expect(p.frame == Rect(x: 76, y: 24, width: 48, height: 52))
    #expect(texts(p).map(\.frame) == [
        // "title" (25) centred in both columns; "c" trailing in column 0, "d" centred in column 1.
        Rect(x: 87.5, y: 24, width: 25, height: 12),
        Rect(x: 76, y: 44, width: 20, height: 12), Rect(x: 104, y: 44, width: 20, height: 12),
        Rect(x: 91, y: 64, width: 5, height: 12), Rect(x: 111.5, y: 64, width: 5, height: 12),
    ])
}
