import Testing
import FoundationEssentials
import OpenWidgetKit
@testable import WidgetRendering

private let now = Date(timeIntervalSince1970: 1_795_269_900)

private func renderEverywhere(_ tree: ViewNode) {
    let o = RenderOptions(now: now)
    for f in WidgetFamily.allCases {
        let s = TextRenderer.render(tree, family: f, options: o)
        let lines = s.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= max(f.cellGrid.rows, 3))
        for l in lines { #expect(displayWidth(of: l) <= max(f.cellGrid.columns, WidgetFamily.accessoryInline.cellGrid.columns)) }
        _ = PangoRenderer.render(tree, family: f, options: o)
        _ = WaybarRenderer.render(tree, family: f, options: o)
    }
    _ = LiveDateFormatter.nextChange(of: tree, after: now)
}

@Test func deepTree() {
    var n = ViewNode.text("leaf")
    for i in 0..<10_000 { n = ViewNode(kind: i % 2 == 0 ? .vstack : .hstack, children: [n]) }
    renderEverywhere(n)
}

@Test func wideTree() {
    let n = ViewNode.vstack((0..<100_000).map { ViewNode.text("row \($0)") })
    renderEverywhere(n)
    renderEverywhere(.hstack((0..<100_000).map { _ in ViewNode.spacer }))
}

@Test func absurdValues() {
    let bad = ViewNode.vstack(spacing: 1e9, [
        ViewNode.text("nan").frame(width: .nan, height: -50),
        ViewNode.text("neg").mod { $0.padding = EdgeInsetsSpec(top: -20, leading: .infinity, bottom: .nan, trailing: 1e300) },
        ViewNode.hstack(spacing: -1e9, [.text("a"), .text("b")]).frame(width: 1e12, height: .infinity),
        .shape("circle", stroke: StyleSpec(name: "red", opacity: .nan), trim: -5...7),
        .progress(.nan), .progress(-3), .progress(1e300),
        .gauge(.infinity, in: [5, 5]), .gauge(3, in: [.nan]),
        .live(DateText(style: "timer", date: Date(timeIntervalSince1970: 1e300))),
        .live(DateText(style: "relative", date: Date(timeIntervalSince1970: -.infinity))),
        .live(DateText(style: "progress", start: now, end: now.addingTimeInterval(-5))),
        ViewNode(kind: .unknown, children: [.text("child of unknown")]).mod { $0.other = ["blur": .number(3)] },
        ViewNode.text(String(repeating: "long words ", count: 20_000)),
        ViewNode.text("日本語のテキスト🔥e\u{301}"),
    ])
    renderEverywhere(bad)
    renderEverywhere(bad.mod { $0.redacted = true })
    let huge = RenderOptions(now: now, size: GridSize(columns: 1 << 40, rows: -3))
    #expect(TextRenderer.render(bad, family: .systemLarge, options: huge).split(separator: "\n").count <= GridSize.maximum.rows)
    // Unknown kinds render their children.
    #expect(TextRenderer.render(ViewNode(kind: .unknown, children: [.text("hi")]), family: .accessoryInline,
                                options: RenderOptions(now: now)) == "hi")
}

/// Issue 23: an adaptive `GridItem` whose minimum and spacing add to 0 (1 and −1), or are NaN
/// or absurd, trapped `GridBuilder.lanes` (`Int(329 / 0)`) and killed the host at every start.
@Test(arguments: [(1.0, -1.0), (.nan, 8), (40, .nan), (1e-300, 0), (1, -1e300), (.infinity, -.infinity), (-5, -(1 - 1e-16)), (1e300, 1e300)])
func adaptiveGridItemsThatAddToNothingStillRender(_ minimum: Double, _ spacing: Double) {
    let items = [GridItemSpec](repeating: GridItemSpec(size: "adaptive", minimum: minimum, spacing: spacing), count: 4)
    let lanes = GridBuilder.lanes(items, cells: 7)
    #expect(lanes >= 1 && lanes <= 7)
    for kind in [ViewNode.Kind.lazyVGrid, .lazyHGrid] {
        var grid = ViewNode(kind: kind, children: (0..<7).map { ViewNode.text("\($0)") })
        grid.gridItems = items
        renderEverywhere(grid)
    }
}

@Test func saturatingConversionsAreTotal() {
    let limit = Int.saturationLimit
    #expect(Int(saturating: .nan) == 0 && Int(saturating: .nan, nan: 7) == 7)
    #expect(Int(saturating: .infinity) == limit && Int(saturating: -.infinity) == -limit)
    #expect(Int(saturating: 1e300) == limit && Int(saturating: -Double.greatestFiniteMagnitude) == -limit)
    #expect(Int(saturating: 3.9) == 3 && Int(saturating: -3.9) == -3 && Int(saturating: -0.0) == 0)
    #expect(Int32(saturating: .nan) == 0 && Int32(saturating: 1e10) == .max && Int32(saturating: -.infinity) == .min)
    #expect(Int32(saturating: -2.5) == -2)
}
