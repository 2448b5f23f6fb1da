import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetDesktopScene
import WidgetHostCore

/// A gallery tile dragged in from another program (issue 25 item 2, "where it is dropped"):
/// `DropSlot(adding:)` by the grid's rules, and the scene drawing its slot with the others
/// making way, gone when the drag ends.
@Suite struct IncomingDragTests {
    /// a b / m (medium) at the top-left: a (0,0), b (180,0), m (0,196,338×158).
    func abm() -> DesktopScene {
        scene([widget("a", view: habit()), widget("b", view: habit()), widget("m", .systemMedium, view: habit())])
    }

    @Test func aNewWidgetsSlotFollowsTheGridsRules() throws {
        let s = abm()
        let p = try #require(s.placement(on: 1)), l = try #require(s.layout)
        // A small one over b: b's place, before b; b moves right of it, m stays below.
        let overB = try #require(DropSlot(adding: .systemSmall, id: "new", x: 250, y: 50, placement: p, layout: l))
        #expect(overB.index == 1 && overB.move == .before("b") && overB.frame == LogicalRect(x: 180, y: 0, width: 158, height: 158))
        #expect(overB.preview["a"] == LogicalRect(x: 0, y: 0, width: 158, height: 158))
        #expect(overB.preview["b"] == LogicalRect(x: 0, y: 196, width: 158, height: 158))
        // A medium one over a: the whole top row, before a.
        let medium = try #require(DropSlot(adding: .systemMedium, id: "new", x: 20, y: 20, placement: p, layout: l))
        #expect(medium.move == .before("a") && medium.frame == LogicalRect(x: 0, y: 0, width: 338, height: 158))
        // Far below every widget: the end, where an add puts it (no move).
        let end = try #require(DropSlot(adding: .systemSmall, id: "new", x: 100, y: 900, placement: p, layout: l))
        #expect(end.move == nil && end.index == 3)
    }

    @Test func theSceneDrawsTheSlotWhileTheDragIsOverItAndNotAfter() throws {
        let s = abm()
        let b = TestBuffer(scene: s, scale: 1)
        b.draw(s)
        b.age = 1   // it holds the last frame: only what changed is drawn
        let before = b.bytes
        let slot = try #require(s.dragIn(family: .systemSmall, output: 1, x: 250, y: 50))
        #expect(slot.move == .before("b") && s.interaction.incoming?.slot == slot)
        #expect(!b.draw(s).isEmpty)
        #expect(b.bytes != before, "the slot and b making way are drawn")
        keep(b, "incoming-over-b")
        // The same point again: nothing new to draw.
        s.dragIn(family: .systemSmall, output: 1, x: 251, y: 51)
        #expect(b.draw(s).isEmpty)
        s.dragInEnded()
        #expect(s.interaction.incoming == nil)
        b.draw(s)
        #expect(b.bytes == before, "back as it was")
        // Another output than the drag's draws nothing of it.
        #expect(s.dragIn(family: .systemSmall, output: 7, x: 250, y: 50) == nil)
    }
}
