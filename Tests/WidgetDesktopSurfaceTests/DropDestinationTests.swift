import OpenWidgetKit
import Testing
import WidgetConfigEditing
import WidgetDesktopSurface
import WidgetHostCore

/// Where the GTK surface puts a widget dropped from the gallery (`WidgetActions.dropDestination`):
/// `DropSlot(adding:)` on the grid's own bounding box (the GTK window), in grid points.
@Suite struct DropDestinationTests {
    func desktop(_ ids: [String], anchor: DesktopConfig.Anchor) -> DesktopConfig {
        var d = DesktopConfig()
        d.widgets = ids
        d.anchor = anchor
        return d
    }

    @Test func aDropTakesThePlaceUnderThePointer() {
        let families: [String: WidgetFamily] = ["a": .systemSmall, "b": .systemSmall]
        // a b at the top-left: on b, before b; on a, before a; past both (off the window), the end.
        let topLeft = desktop(["a", "b"], anchor: .topLeft)
        #expect(WidgetActions.dropDestination(adding: .systemSmall, x: 259, y: 79, order: ["a", "b"], families: families, desktop: topLeft) == .before("b"))
        #expect(WidgetActions.dropDestination(adding: .systemSmall, x: 20, y: 20, order: ["a", "b"], families: families, desktop: topLeft) == .before("a"))
        #expect(WidgetActions.dropDestination(adding: .systemSmall, x: 100, y: 300, order: ["a", "b"], families: families, desktop: topLeft) == nil)
        // a alone, anchored top-right (the window is a's 158 points): dropped on a, the new one
        // takes a's place and a makes way to the left, so it goes after a (the end: no move).
        let topRight = desktop(["a"], anchor: .topRight)
        #expect(WidgetActions.dropDestination(adding: .systemSmall, x: 79, y: 79, order: ["a"], families: ["a": .systemSmall], desktop: topRight) == nil)
        // A medium one on a: the top row, before a.
        #expect(WidgetActions.dropDestination(adding: .systemMedium, x: 79, y: 79, order: ["a"], families: ["a": .systemSmall], desktop: topRight) == .before("a"))
    }
}
