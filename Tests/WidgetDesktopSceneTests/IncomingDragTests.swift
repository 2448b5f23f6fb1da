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

    /// The grid a b (two small) at the top-left: a drag under way grows the area to the grid's
    /// reach — the largest block any family at any position makes: an extra large one (715 wide)
    /// and a large one before both (two rows more, 550 high) — with the widgets where they were.
    @Test func aDragUnderWayGrowsTheAreaToTheGridsReach() throws {
        let s = scene([widget("a", view: habit()), widget("b", view: habit())])
        let before = try #require(s.area(on: 1))
        #expect(before == LogicalRect(x: 32, y: 32, width: 338, height: max(158, ContextMenu.height)))
        let reach = DropSlot.reach(of: [("a", .systemSmall), ("b", .systemSmall)], adding: WidgetFamily.allCases, columns: 2, gap: 22)
        #expect(reach.width == WidgetFamily.systemExtraLarge.nominalSize.width && reach.height == 158 + 196 * 2)
        // Only small ones: the third goes below a (one row more).
        #expect(DropSlot.reach(of: [("a", .systemSmall), ("b", .systemSmall)], adding: [.systemSmall], columns: 2, gap: 22) == (338, 354))
        s.dragInPossible = true
        #expect(s.area(on: 1) == LogicalRect(x: 32, y: 32, width: reach.width, height: reach.height))
        #expect(s.placement(on: 1)?.frame(of: "a") == LogicalRect(x: 0, y: 0, width: 158, height: 158))
        #expect(s.placement(on: 1)?.frame(of: "b") == LogicalRect(x: 180, y: 0, width: 158, height: 158))
        s.dragInPossible = false
        #expect(s.area(on: 1) == before)
    }

    /// A medium one dragged in over a pushes a and b into a new row: both are drawn there, the
    /// same pixels as each other (the same tree), inside the grown area, and the window's shape
    /// (`inputRegion`) holds where they are drawn and the slot.
    @Test func widgetsPushedIntoANewRowAreDrawnThere() throws {
        let s = scene([widget("a", view: habit()), widget("b", view: habit())])
        s.dragInPossible = true
        let slot = try #require(s.dragIn(family: .systemMedium, output: 1, x: 50, y: 50))
        #expect(slot.move == .before("a") && slot.frame == LogicalRect(x: 0, y: 0, width: 338, height: 158))
        let a = LogicalRect(x: 0, y: 196, width: 158, height: 158), b = LogicalRect(x: 180, y: 196, width: 158, height: 158)
        #expect(slot.preview["a"] == a && slot.preview["b"] == b)
        #expect(Set(s.inputRegion(on: 1).map { "\($0)" }) == Set([a, b, slot.frame].map { "\($0)" }))
        let buffer = TestBuffer(scene: s, scale: 2)
        buffer.draw(s)
        keep(buffer, "incoming-medium-pushes-a-row")
        let shownA = try #require(buffer.image(x: 0, y: 392, width: 316, height: 316))
        let shownB = try #require(buffer.image(x: 360, y: 392, width: 316, height: 316))
        #expect(shownA.pixels == shownB.pixels, "b is drawn in its new row as a is")
        #expect(buffer.pixel(x: 360 + 158, y: 392 + 158) >> 24 == 0xFF, "b's middle is opaque")
        #expect(buffer.pixel(x: 360 + 158, y: 392 + 316 + 20) == 0, "nothing below the row")
        s.dragInEnded()
        #expect(s.inputRegion(on: 1) == [LogicalRect(x: 0, y: 0, width: 158, height: 158), LogicalRect(x: 180, y: 0, width: 158, height: 158)])
    }

    /// On a right-anchored grid each trial grid sits at the area's right edge, as the placement
    /// after the drop puts it: a small one dropped where a is lands there (after a, which makes
    /// way to the left); dropped on the empty slot left of a, it goes before a, which stays.
    @Test func onARightAnchoredGridTheOthersMakeWayToTheLeft() throws {
        let s = scene([widget("a", view: habit())], layout: layout(["a"], anchor: "top-right"))
        s.dragInPossible = true
        let p = try #require(s.placement(on: 1)), l = try #require(s.layout)
        let w = try #require(p.area).width
        #expect(p.frame(of: "a") == LogicalRect(x: w - 158, y: 0, width: 158, height: 158))
        let onA = try #require(DropSlot(adding: .systemSmall, id: "new", x: w - 79, y: 79, placement: p, layout: l))
        #expect(onA.move == nil && onA.frame == LogicalRect(x: w - 158, y: 0, width: 158, height: 158))
        #expect(onA.preview["a"] == LogicalRect(x: w - 338, y: 0, width: 158, height: 158))
        let left = try #require(DropSlot(adding: .systemSmall, id: "new", x: w - 258, y: 79, placement: p, layout: l))
        #expect(left.move == .before("a") && left.frame == LogicalRect(x: w - 338, y: 0, width: 158, height: 158))
        #expect(left.preview["a"] == p.frame(of: "a"))
    }

    /// On a bottom-anchored grid the trial grids sit on the area's bottom edge: a medium one
    /// dropped on the bottom row takes it, and the widgets it pushes make way upwards.
    @Test func onABottomAnchoredGridTheOthersMakeWayUpwards() throws {
        let s = scene([widget("a", view: habit()), widget("b", view: habit())], layout: layout(["a", "b"], anchor: "bottom-left"))
        s.dragInPossible = true
        let p = try #require(s.placement(on: 1)), l = try #require(s.layout)
        let h = try #require(p.area).height
        #expect(p.frame(of: "a") == LogicalRect(x: 0, y: h - 158, width: 158, height: 158))
        let slot = try #require(DropSlot(adding: .systemMedium, id: "new", x: 50, y: h - 100, placement: p, layout: l))
        #expect(slot.move == .before("b") && slot.frame == LogicalRect(x: 0, y: h - 158, width: 338, height: 158))
        #expect(slot.preview["a"] == LogicalRect(x: 0, y: h - 354, width: 158, height: 158))
        #expect(slot.preview["b"] == LogicalRect(x: 180, y: h - 354, width: 158, height: 158))
    }
}
