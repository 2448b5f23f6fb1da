import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import WidgetRendering

// The text renderer shows what issue 13's views and modifiers mean where text can show it.

private func render(_ n: ViewNode, _ f: WidgetFamily, columns: Int? = nil) -> String {
    var o = RenderOptions(now: Date(timeIntervalSince1970: 1_795_000_000))
    if let columns { o.size = GridSize(columns: columns, rows: 4) }
    return TextRenderer.render(n, family: f, options: o)
}

private extension StringProtocol {
    /// Without leading and trailing blanks and newlines.
    var trimmed: String { String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()) }
}

private func node(_ kind: ViewNode.Kind, _ children: [ViewNode], _ edit: (inout ViewNode) -> Void = { _ in }) -> ViewNode {
    var n = ViewNode(kind: kind, children: children)
    edit(&n)
    return n
}

@Test func viewThatFitsShowsTheFirstCandidateThatFits() {
    let v = node(.viewThatFits, [.text("Steps today: 10,432"), .text("10,432 steps"), .text("10k")]) { $0.axes = "horizontal" }
    #expect(render(v, .systemSmall, columns: 40).trimmed == "Steps today: 10,432")
    #expect(render(v, .systemSmall, columns: 14).trimmed == "10,432 steps")
    #expect(render(v, .systemSmall, columns: 5).trimmed == "10k")
    // Inline: the first candidate that fits the inline width.
    var o = RenderOptions(now: Date(timeIntervalSince1970: 0))
    o.size = GridSize(columns: 12, rows: 1)
    #expect(TextRenderer.render(v, family: .accessoryInline, options: o) == "10,432 steps")
}

@Test func gridColumnsLineUp() {
    let g = node(.grid, [
        node(.gridRow, [.text("Mon"), .text("8")]),
        node(.gridRow, [.text("Tuesday"), .text("12")]),
    ]) { $0.alignment = "leading" }
    let lines = render(g, .systemSmall).split(separator: "\n").map { String($0) }.filter { !$0.allSatisfy(\.isWhitespace) }
    #expect(lines.count == 2)
    // The second column starts at the same place in both rows.
    #expect(lines[0].trimmed.hasPrefix("Mon") && lines[1].trimmed.hasPrefix("Tuesday"))
    let starts = lines.map { line in line.firstIndex(where: \.isNumber).map { line.distance(from: line.startIndex, to: $0) } }
    #expect(starts[0] != nil && starts[0] == starts[1])
}

@Test func lazyVGridFlowsIntoRows() {
    let g = node(.lazyVGrid, ["a", "b", "c", "d", "e"].map { ViewNode.text($0) }) {
        $0.gridItems = [GridItemSpec(size: "flexible"), GridItemSpec(size: "flexible")]
    }
    let lines = render(g, .systemSmall).split(separator: "\n").map { $0.trimmed }.filter { !$0.isEmpty }
    #expect(lines == ["a b", "c d", "e"])
    let h = node(.lazyHGrid, ["a", "b", "c"].map { ViewNode.text($0) }) { $0.gridItems = [GridItemSpec(size: "fixed", minimum: 20), GridItemSpec(size: "fixed", minimum: 20)] }
    let hl = render(h, .systemSmall).split(separator: "\n").map { $0.trimmed }.filter { !$0.isEmpty }
    #expect(hl == ["a c", "b"])
    #expect(GridBuilder.lanes([GridItemSpec(size: "adaptive", minimum: 40, spacing: 8)], cells: 20) == 6)
}

@Test func textCaseMonospacedAndTruncation() {
    var upper = ViewNode.text("Next run")
    var m = Modifiers(); m.textCase = "uppercase"; upper.modifiers = m
    #expect(render(upper, .accessoryInline) == "NEXT RUN")
    var lower = ViewNode.text("Next RUN"); var lm = Modifiers(); lm.textCase = "lowercase"; lower.modifiers = lm
    #expect(render(lower, .accessoryInline) == "next run")

    var mono = ViewNode.text("x"); var mm = Modifiers(); mm.monospaced = true; mono.modifiers = mm
    #expect(PangoRenderer.render(mono, family: .accessoryInline).contains("monospace"))

    var head = ViewNode.text("/home/user/projects/widget"); var hm = Modifiers(); hm.truncationMode = "head"; hm.lineLimit = 1; head.modifiers = hm
    #expect(render(head, .systemSmall, columns: 10).trimmed == "…ts/widget")
    hm.truncationMode = "middle"; head.modifiers = hm
    #expect(render(head, .systemSmall, columns: 10).trimmed == "/home…dget")
    #expect("abcdefghij".truncated(toWidth: 5, mode: "tail") == "abcd…")
}

@Test func widgetLabelShowsInCircularOnly() {
    var label = ViewNode.text("Water"); label.role = "widgetLabel"
    let g = node(.group, [.gauge(0.5, in: [0, 1], style: "accessoryCircular", current: "4"), label])
    #expect(render(g, .accessoryCircular) == "◑ 4\nWater")
    #expect(!render(g, .systemSmall).contains("Water"))
    #expect(!render(g, .accessoryInline).contains("Water"))
}

@Test func buttonAndToggleStylesAndMaterials() {
    var b = ViewNode(kind: .button, children: [.text("Log")]); b.style = "plain"
    #expect(render(b, .accessoryInline) == "Log")
    b.style = nil
    #expect(render(b, .accessoryInline) == "[Log]")
    var t = ViewNode(kind: .toggle, children: [.text("Done")]); t.style = "button"; t.isOn = true
    #expect(render(t, .accessoryInline) == "[✓ Done]")
    t.isOn = false
    #expect(render(t, .accessoryInline) == "[Done]")
    #expect(ColorPalette.system.density(StyleSpec(name: "material.thin")) < 0.5)
    // An accessory backdrop draws nothing behind its content.
    let z = node(.zstack, [ViewNode(kind: .accessoryWidgetBackground), .text("5")])
    #expect(render(z, .systemSmall).trimmed == "5")
}

@Test func concatenatedTextShowsEveryRunWithItsStyle() {
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    var label = ViewNode.text("Ends in ")
    label.role = "run"
    var live = ViewNode.live(DateText(style: "relative", date: now.addingTimeInterval(300)))
    live.role = "run"
    var bold = Modifiers(); bold.weight = "bold"
    live.modifiers = bold
    let text = ViewNode(kind: .text, children: [label, live])
    let o = RenderOptions(now: now)
    #expect(TextRenderer.render(text, family: .accessoryInline, options: o) == "Ends in 5 min")
    #expect(TextRenderer.render(text, family: .systemSmall, options: o).contains("Ends in 5 min"))
    #expect(PangoRenderer.render(text, family: .accessoryInline, options: o) == "Ends in <b>5 min</b>")
    // The live run ticks: the host re-renders when it changes.
    #expect(LiveDateFormatter.nextChange(of: text, after: now) != nil)
}

@Test func contentMarginsInsetTheSystemGrid() {
    var n = ViewNode.text("Hi")
    var frame = Modifiers(); frame.frame = FrameSpec(maxWidth: .infinity, maxHeight: .infinity, alignment: "topLeading")
    n.modifiers = frame
    let o = RenderOptions(now: Date(timeIntervalSince1970: 0))
    // No margins in the tree (an older SDK): the text starts in the corner.
    #expect(TextRenderer.render(n, family: .systemSmall, options: o).hasPrefix("Hi"))
    // 16 pt: two columns and one row.
    var root = ViewNode(kind: .group, children: [n])
    var m = Modifiers(); m.contentMargins = EdgeInsetsSpec(top: 16, leading: 16, bottom: 16, trailing: 16)
    root.modifiers = m
    #expect(TextRenderer.render(root, family: .systemSmall, options: o).hasPrefix("\n  Hi"))
    // `.contentMarginsDisabled()`: zero margins, the corner again.
    m.contentMargins = EdgeInsetsSpec(top: 0, leading: 0, bottom: 0, trailing: 0)
    root.modifiers = m
    #expect(TextRenderer.render(root, family: .systemSmall, options: o).hasPrefix("Hi"))
}

@Test func liveDatesFollowTheLocaleTheHostPasses() {
    setenv("TZ", "UTC", 1); tzset()
    // Sunday 22 November 2026, 18:10 UTC.
    let at = Date(timeIntervalSince1970: 1_795_371_000)
    var o = RenderOptions(now: at)
    let time = ViewNode.live(DateText(style: "time", date: at))
    let date = ViewNode.live(DateText(style: "date", date: at))
    #expect(TextRenderer.render(time, family: .accessoryInline, options: o) == "18:10")
    #expect(TextRenderer.render(date, family: .accessoryInline, options: o) == "22 Nov 2026")
    o.locale = .enUS
    #expect(TextRenderer.render(time, family: .accessoryInline, options: o) == "6:10 PM")
    #expect(TextRenderer.render(date, family: .accessoryInline, options: o) == "November 22, 2026")
    o.locale = .deDE
    #expect(TextRenderer.render(time, family: .accessoryInline, options: o) == "18:10")
    #expect(TextRenderer.render(date, family: .accessoryInline, options: o) == "22. November 2026")
    let range = ViewNode.live(DateText(style: "range", start: at, end: at.addingTimeInterval(3600)))
    o.locale = .enUS
    #expect(TextRenderer.render(range, family: .accessoryInline, options: o) == "6:10 PM–7:10 PM")
}
