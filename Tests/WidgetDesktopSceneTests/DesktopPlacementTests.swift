import OpenWidgetKit
import Testing
import WidgetDesktopScene
import WidgetHostCore

@Suite struct DesktopPlacementTests {
    let families: [String: WidgetFamily] = ["a": .systemSmall, "b": .systemSmall, "m": .systemMedium, "l": .systemLarge]

    @Test func anOutputKeepsItsIdentity() {
        let o = DisplayOutput(id: 3, connector: "DP-1", make: "Dell", model: "U2720Q", serial: "ABC", logicalWidth: 2560, logicalHeight: 1440, scale: 1.5)
        #expect(o.connector == "DP-1" && o.serial == "ABC" && o.scale == 1.5 && !o.isPrimary)
    }

    @Test func theAreaIsTheGridsBoundingBoxAtTheAnchorAndMargin() {
        // a b / m: 158 + 22 + 158 = 338 wide; two rows, 196 pt apart: 196 + 158 = 354 high.
        let l = layout(["a", "b", "m"], anchor: "top-right", margin: 32)
        let p = DesktopPlacement(layout: l, families: families, output: output(width: 1280, height: 800))
        #expect(p.area == LogicalRect(x: 1280 - 32 - 338, y: 32, width: 338, height: 354))
        #expect(p.widgets.map(\.frame) == [LogicalRect(x: 0, y: 0, width: 158, height: 158),
                                          LogicalRect(x: 180, y: 0, width: 158, height: 158),
                                          LogicalRect(x: 0, y: 196, width: 338, height: 158)])
        let bl = DesktopPlacement(layout: layout(["a", "b", "m"], anchor: "bottom-left", margin: 10), families: families, output: output())
        #expect(bl.area == LogicalRect(x: 10, y: 800 - 10 - 354, width: 338, height: 354))
    }

    @Test func aLargeWidgetTakesTwoByTwoSlotsAndTheNextSmallOneGoesBeside() {
        let p = DesktopPlacement(layout: layout(["l", "a"], columns: 3), families: families, output: output())
        #expect(p.frame(of: "l") == LogicalRect(x: 0, y: 0, width: 338, height: 354))
        #expect(p.frame(of: "a") == LogicalRect(x: 360, y: 0, width: 158, height: 158))
        #expect(p.widget(atX: 400, y: 10)?.id == "a")
        #expect(p.widget(atX: 345, y: 10) == nil)   // the gap
    }

    @Test func widgetsWithoutAFamilyAreNotPlacedAndNoWidgetsIsNoArea() {
        let p = DesktopPlacement(layout: layout(["x", "a"]), families: families, output: output())
        #expect(p.widgets.map(\.id) == ["a"])
        #expect(DesktopPlacement(layout: layout(["x"]), families: families, output: output()).area == nil)
    }

    @Test func aSmallGridGrowsToTheMinimumSizeWithTheGridInTheAnchorsCorner() {
        let p = DesktopPlacement(layout: layout(["c"], anchor: "bottom-right", margin: 20), families: ["c": .accessoryCircular],
                                 output: output(), minimumSize: (156, 124))
        #expect(p.area == LogicalRect(x: 1280 - 20 - 156, y: 800 - 20 - 124, width: 156, height: 124))
        let side = WidgetFamily.accessoryCircular.nominalSize.width
        #expect(p.frame(of: "c") == LogicalRect(x: 156 - side, y: 124 - p.grid.height, width: side, height: side))
        #expect(p.gridX == 156 - side && p.gridY == 124 - p.grid.height)
        #expect(p.pixelSize(scale: 1.25) == (195, 155))
    }

    @Test func anUnknownAnchorIsTheConfigsDefaultAndAnAreaNeverLeavesTheOutput() {
        let p = DesktopPlacement(layout: layout(["a"], anchor: "middle", margin: 32), families: families, output: output(width: 100, height: 100))
        #expect(p.area == LogicalRect(x: 0, y: 32, width: 158, height: 158))
    }
}
