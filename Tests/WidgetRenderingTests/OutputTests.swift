import Testing
import FoundationEssentials
import Glibc
import OpenWidgetKit
@testable import WidgetRendering

private let now = Date(timeIntervalSince1970: 1_795_269_900)  // 2026-11-21 14:05:00 UTC

@Test func pangoEscapesAndStyles() {
    let tree = ViewNode.hstack([
        ViewNode.text("Tom & Jerry <3 \"q\" 'x'").foreground("orange").mod { $0.weight = "bold" },
        ViewNode.text("dim").foreground("secondary", opacity: 0.5),
    ])
    let p = PangoRenderer.render(tree, family: .accessoryInline, options: RenderOptions(now: now))
    #expect(p == "<span foreground=\"#FF9500\"><b>Tom &amp; Jerry &lt;3 &quot;q&quot; &apos;x&apos;</b></span>"
        + " <span foreground=\"#8E8E93\" alpha=\"50%\">dim</span>")
    let w = PangoRenderer.render(ViewNode.text("a").mod { $0.weight = "semibold"; $0.italic = true }, family: .accessoryInline,
                                 options: RenderOptions(now: now))
    #expect(w == "<span weight=\"semibold\" style=\"italic\">a</span>")
    #expect(ColorPalette.system.hex(StyleSpec(rgba: [1, 0.5, 0, 1])) == "#FF8000")
}

@Test func waybarJSON() throws {
    let out = WaybarRenderer.render(Samples.inline, family: .accessoryRectangular, options: RenderOptions(now: now))
    #expect(out.percentage == 62)
    #expect(out.alt == "flame.fill")
    #expect(out.text == "♨ 12 Morning run 62%")
    let enc = JSONEncoder(); enc.outputFormatting = [.sortedKeys]
    let json = String(decoding: try enc.encode(out), as: UTF8.self)
    #expect(json.contains("\"percentage\":62"))
    #expect(json.contains("\"class\":[\"accessoryRectangular\"]"))
    let placeholder = WaybarRenderer.render(Samples.ringMedium.mod { $0.redacted = true }, family: .systemMedium,
                                            options: RenderOptions(now: now))
    #expect(placeholder.class == ["placeholder", "systemMedium"])
    #expect(placeholder.percentage == nil)
    #expect(!placeholder.tooltip.hasPrefix("\n"))
    #expect(WaybarRenderer.render(Samples.circularGauge, family: .accessoryCircular, options: RenderOptions(now: now)).percentage == 50)
}

@Test func liveDates() {
    setenv("TZ", "UTC", 1); tzset()
    func f(_ style: String, _ dt: Double) -> String {
        LiveDateFormatter.format(DateText(style: style, date: now.addingTimeInterval(dt)), now: now)
    }
    #expect(f("time", 0) == "14:05")
    #expect(f("date", 0) == "21 Nov 2026")
    #expect(f("relative", -7500) == "2 hr, 5 min")
    #expect(f("relative", -300) == "5 min")
    #expect(f("relative", -312.5) == "5 min, 12 sec")
    #expect(f("relative", 12) == "12 sec")
    #expect(f("relative", -90000) == "1 day, 1 hr")
    #expect(f("offset", 7200) == "+2 hours")
    #expect(f("offset", -300) == "-5 minutes")
    #expect(f("timer", -245) == "4:05")
    #expect(f("timer", 3723) == "1:02:03")
    #expect(f("timer", 0.5) == "0:01")
    let range = DateText(style: "range", start: now.addingTimeInterval(-300), end: now.addingTimeInterval(5100))
    #expect(LiveDateFormatter.format(range, now: now) == "14:00–15:30")
    let up = DateText(style: "progress", start: now.addingTimeInterval(-62), end: now.addingTimeInterval(38), countsDown: false)
    #expect(LiveDateFormatter.format(up, now: now) == "62%")
    var down = up; down.countsDown = nil
    #expect(LiveDateFormatter.format(down, now: now) == "38%")
    let interval = DateText(style: "timer", start: now.addingTimeInterval(-10), end: now.addingTimeInterval(65))
    #expect(LiveDateFormatter.format(interval, now: now) == "1:05")
    // In a tree: the text renders at `now`.
    let tree = ViewNode.hstack([.text("Next"), .live(DateText(style: "timer", date: now.addingTimeInterval(-245)))])
    #expect(TextRenderer.render(tree, family: .accessoryInline, options: RenderOptions(now: now)) == "Next 4:05")
}

@Test func nextChange() {
    func d(_ style: String, _ dt: Double) -> ViewNode { .live(DateText(style: style, date: now.addingTimeInterval(dt))) }
    // Counting up from 4:05.5 ago: the display moves to 4:06 in half a second.
    #expect(LiveDateFormatter.nextChange(of: d("timer", -245.5), after: now) == now.addingTimeInterval(0.5))
    // Over an hour: minute steps.
    #expect(LiveDateFormatter.nextChange(of: d("relative", -7500), after: now) == now.addingTimeInterval(60))
    // Counting down: each second.
    #expect(LiveDateFormatter.nextChange(of: d("relative", 12), after: now) == now.addingTimeInterval(1))
    // "+2 hours" becomes "+1 hour" when less than two hours remain.
    #expect(LiveDateFormatter.nextChange(of: d("offset", 7230), after: now) == now.addingTimeInterval(31))
    // The earliest of several; fixed styles and trees without dates never change.
    #expect(LiveDateFormatter.nextChange(of: .vstack([d("relative", -7500), d("timer", -245.5)]), after: now)
            == now.addingTimeInterval(0.5))
    #expect(LiveDateFormatter.nextChange(of: d("time", 0), after: now) == nil)
    #expect(LiveDateFormatter.nextChange(of: Samples.habitSmall, after: now) == nil)
    // The value really changes there and not before.
    for (style, dt) in [("timer", -245.5), ("relative", -7500.0), ("relative", 12.0), ("offset", 7230.0), ("timer", 3723.25)] {
        let dt = DateText(style: style, date: now.addingTimeInterval(dt))
        let t = LiveDateFormatter.nextChange(of: .live(dt), after: now)!
        #expect(LiveDateFormatter.format(dt, now: t) != LiveDateFormatter.format(dt, now: now))
        #expect(LiveDateFormatter.format(dt, now: t.addingTimeInterval(-0.01)) == LiveDateFormatter.format(dt, now: now))
    }
}

/// A markup character followed by a combining mark is one Character; it must still be escaped.
@Test func pangoEscapesMarkupCharactersUnderCombiningMarks() {
    #expect(PangoRenderer.escape("a<\u{338}b &\u{301} \"\u{300}") == "a&lt;\u{338}b &amp;\u{301} &quot;\u{300}")
}
