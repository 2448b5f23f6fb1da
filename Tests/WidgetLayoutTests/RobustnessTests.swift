import Testing
import FoundationEssentials
import OpenWidgetKit
@testable import WidgetLayout

private func layoutNode(_ n: ViewNode, width: Double = 158, height: Double = 158) -> PlacedNode {
    LayoutEngine(measurer: FixedAdvanceTextMeasurer(), now: fixedNow).layout(n, in: Rect(x: 0, y: 0, width: width, height: height))
}

private func text(_ s: String) -> ViewNode { var n = ViewNode(kind: .text); n.text = s; return n }

/// Every frame of the result is finite, non-negative in size.
private func expectDrawable(_ p: PlacedNode) {
    var count = 0
    p.walk { n in
        count += 1
        for r in [n.frame, n.contentFrame] + (n.indicator.map { [$0] } ?? []) {
            #expect(r.x.isFinite && r.y.isFinite && r.width.isFinite && r.height.isFinite)
            #expect(r.width >= 0 && r.height >= 0)
        }
    }
    #expect(count <= LayoutLimits.maxNodes)
}

@Test func badFramesBecomeDrawable() {
    for v in [Double.nan, -50, .infinity, -.infinity, 1e300] {
        var n = text("x")
        var m = Modifiers()
        m.frame = FrameSpec(width: v, height: v, minWidth: v, maxWidth: v, minHeight: v, maxHeight: v)
        m.padding = EdgeInsetsSpec(top: v, leading: v, bottom: v, trailing: v)
        m.other = ["offset": .object(["x": .number(v), "y": .number(v)])]
        n.modifiers = m
        var stack = ViewNode(kind: .hstack, children: [n, ViewNode(kind: .spacer), n])
        stack.spacing = v
        expectDrawable(layoutNode(stack))
        expectDrawable(layoutNode(stack, width: v.isFinite ? v : 0, height: .nan))
    }
}

@Test func tenThousandNodes() {
    let many = ViewNode(kind: .vstack, children: (0..<10_000).map { i in
        i % 3 == 0 ? ViewNode(kind: .hstack, children: [text("\(i)"), ViewNode(kind: .spacer), text("x")]) : text("row \(i)")
    })
    expectDrawable(layoutNode(many))
}

@Test func deepNesting() {
    var n = text("leaf")
    for i in 0..<5_000 {
        n = ViewNode(kind: [.vstack, .hstack, .zstack, .group][i % 4], children: [n, text("s")])
        if i % 7 == 0 { var m = Modifiers(); m.padding = EdgeInsetsSpec(top: 1, leading: 1, bottom: 1, trailing: 1); n.modifiers = m }
    }
    expectDrawable(layoutNode(n))
}

@Test func oneMegabyteString() {
    let big = String(repeating: "lorem ipsum ", count: 90_000)
    let p = layoutNode(ViewNode(kind: .vstack, children: [text(big), text(String(repeating: "x", count: 1_000_000))]))
    expectDrawable(p)
    #expect(p.children[0].text!.string.count == LayoutLimits.maxTextLength)
}

@Test func infiniteFrameInsideFixedSize() {
    var n = text("abc")
    var m = Modifiers()
    m.frame = FrameSpec(maxWidth: .infinity, maxHeight: .infinity)
    m.other = ["fixedSize": .object(["horizontal": .bool(true), "vertical": .bool(true)])]
    n.modifiers = m
    expectDrawable(layoutNode(ViewNode(kind: .hstack, children: [n, ViewNode(kind: .color)])))
}

@Test func nestedFlexibleStacksStayFast() {
    // Each stack measures its children three ways; the per-proposal cache keeps this linear.
    var n = ViewNode(kind: .color)
    for i in 0..<60 {
        var f = Modifiers(); f.frame = FrameSpec(maxWidth: .infinity)
        var t = text("t\(i)"); t.modifiers = f
        n = ViewNode(kind: i % 2 == 0 ? .hstack : .vstack, children: [t, n, ViewNode(kind: .spacer)])
    }
    expectDrawable(layoutNode(n, width: 715, height: 354))
}

@Test func gridsWithBadItemsStayDrawable() {
    for v in [Double.nan, -50, .infinity, -.infinity, 1e300] {
        var lazy = ViewNode(kind: .lazyVGrid, children: (0..<20).map { _ in text("cell") })
        lazy.gridItems = ["fixed", "flexible", "adaptive", "bogus"].map { GridItemSpec(size: $0, minimum: v, maximum: v, spacing: v) }
        lazy.spacing = v
        var hlazy = lazy; hlazy.kind = .lazyHGrid
        var row = ViewNode(kind: .gridRow, children: [text("a"), text("bb"), ViewNode(kind: .color)])
        row.alignment = "nonsense"
        var grid = ViewNode(kind: .grid, children: [row, text("spanning"), row, ViewNode(kind: .gridRow)])
        grid.spacing = v; grid.horizontalSpacing = v
        var fits = ViewNode(kind: .viewThatFits, children: [grid, lazy])
        fits.axes = "diagonal"
        for n in [lazy, hlazy, grid, fits, ViewNode(kind: .viewThatFits), ViewNode(kind: .grid), ViewNode(kind: .lazyVGrid)] {
            expectDrawable(layoutNode(n))
            expectDrawable(layoutNode(n, width: v.isFinite ? v : 0, height: .nan))
        }
    }
}

/// Issue 23: the text measurer turns a width into a character count without a trap whatever the
/// font's size (`Int(saturating:)`): a tiny size under a huge width was `Int(inf)`.
@Test(arguments: [1e-300, 0, -1, .nan, .infinity, 1e300])
func measuringAnyWidthInAnyFontSizeIsTotal(_ size: Double) {
    let measurer = FixedAdvanceTextMeasurer()
    for width in [1e300, .infinity, -.infinity, .nan, 0, 100] as [Double] {
        _ = measurer.measure("some words to wrap", font: ResolvedFont(size: size), width: width, maxLines: nil)
    }
    // A width that holds every character keeps the text on one line, uncut.
    let m = measurer.measure("some words to wrap", font: ResolvedFont(size: size), width: 1e300, maxLines: nil)
    if size > 0 && size < 1e10 { #expect(!m.truncated && m.height == m.lineHeight, "\(m)") }
}
