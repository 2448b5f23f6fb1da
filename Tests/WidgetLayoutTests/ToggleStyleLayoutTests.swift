import Testing
import FoundationEssentials
import OpenWidgetKit
@testable import WidgetLayout

/// A toggle is its label, a flexible space and iOS's 51 × 31 switch; with
/// `.toggleStyle(.button)` it is its label alone, as a task row's checkbox is on iOS.
@Suite struct ToggleStyleLayoutTests {
    func toggle(style: String?) -> ViewNode {
        var label = ViewNode(kind: .text)
        label.text = "Done"
        label.modifiers = Modifiers()
        label.modifiers?.font = FontSpec(style: "system", size: 10)
        var t = ViewNode(kind: .toggle, children: [label])
        t.isOn = true
        t.style = style
        return t
    }

    func place(_ n: ViewNode) -> PlacedNode {
        LayoutEngine(measurer: FixedAdvanceTextMeasurer(), now: fixedNow).layout(n, in: Rect(x: 0, y: 0, width: 200, height: 100))
    }

    @Test func aSwitchToggleSpansTheWidthWithItsSwitch() {
        let p = place(toggle(style: nil))
        #expect(p.frame.width == 200)
        #expect(p.indicator == Rect(x: 149, y: 34.5, width: 51, height: 31))
    }

    @Test func aButtonToggleIsItsLabelAlone() {
        let p = place(toggle(style: "button"))
        #expect(p.frame == Rect(x: 90, y: 44, width: 20, height: 12))  // "Done": 4 × 5 pt, one 12 pt line, centred in 200 × 100
        #expect(p.indicator == nil)
        #expect(p.children.count == 1)
    }
}
