import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetDesktopScene
import WidgetHostCore

@Suite struct SceneInteractionTests {
    /// a b / m (medium) at the top-left: a (0,0), b (180,0), m (0,196,338×158); area 338×354.
    func abm() -> DesktopScene {
        scene([widget("a", view: habit()), widget("b", view: habit()), widget("m", .systemMedium, view: habit())])
    }

    func press(_ s: DesktopScene, _ x: Double, _ y: Double, button: Int = 1, at t: UInt32 = 1000) -> SceneAction {
        s.handle(PointerEvent(output: 1, kind: .press(button: button), x: x, y: y, time: t))
    }
    func release(_ s: DesktopScene, _ x: Double, _ y: Double, button: Int = 1, at t: UInt32 = 1100) -> SceneAction {
        s.handle(PointerEvent(output: 1, kind: .release(button: button), x: x, y: y, time: t))
    }
    func move(_ s: DesktopScene, _ x: Double, _ y: Double, at t: UInt32 = 1050) -> SceneAction {
        s.handle(PointerEvent(output: 1, kind: .motion, x: x, y: y, time: t))
    }
    func key(_ s: DesktopScene, _ k: KeyEvent.Key) -> SceneAction { s.handle(KeyEvent(output: 1, key: k)) }

    @Test func aClickOnAControlRunsItAndElsewhereOpensTheWidget() throws {
        let s = abm()
        let placed = try #require(s.placedTree(of: "a")).placed
        let log = try #require(WidgetHitTest.controls(in: placed).first)
        let (cx, cy) = (log.frame.midX, log.frame.midY)
        #expect(s.hit(on: 1, x: cx, y: cy) == .control(id: "a", target: log.target))
        #expect(s.hit(on: 1, x: 20, y: 20) == .widget(id: "a"))
        #expect(s.hit(on: 1, x: 170, y: 20) == nil)   // the gap
        _ = press(s, cx, cy)
        #expect(release(s, cx, cy) == .click(id: "a", target: log.target))
        _ = press(s, 180 + 20, 20)
        #expect(release(s, 180 + 21, 21) == .click(id: "b", target: nil))
        #expect(SceneAction.click(id: "b", target: nil).controlRequest == ControlRequest(op: .click, id: "b", button: 3))
        #expect(SceneAction.click(id: "a", target: "0").controlRequest == ControlRequest(op: .click, id: "a", button: 1, target: "0"))
        #expect(SceneAction.openGallery.controlRequest == nil)
    }

    @Test func theInputRegionIsTheWidgetsUntilAMenuOrEditModeTakesTheArea() {
        let s = abm()
        #expect(s.inputRegion(on: 1) == [LogicalRect(x: 0, y: 0, width: 158, height: 158), LogicalRect(x: 180, y: 0, width: 158, height: 158),
                                        LogicalRect(x: 0, y: 196, width: 338, height: 158)])
        _ = press(s, 20, 20, button: 3)
        #expect(s.inputRegion(on: 1) == [LogicalRect(x: 0, y: 0, width: 338, height: 354)])
        #expect(s.wantsKeyboard && s.needsFrame(on: 1))
    }

    @Test func rightClickOpensTheMenuWithItsRowsInsideTheArea() throws {
        let s = abm()
        _ = press(s, 100, 50, button: 3)
        let m = try #require(s.interaction.menu)
        #expect(m.widgetID == "a")
        #expect(m.frame == LogicalRect(x: 100, y: 50, width: 156, height: 124))
        #expect((0..<4).map { m.rowFrame($0) } == [56.0, 84, 112, 140].map { LogicalRect(x: 100, y: $0, width: 156, height: 28) })
        #expect(m.commands.map(\.rawValue) == ["Edit Widget", "Remove Widget", "Edit Home Screen", "Add Widget…"])
        // Drawn over the widgets, opaque, at its rectangle (scale 1.5: pixels = points × 1.5).
        _ = move(s, 150, 56 + 28 + 14)
        let b = TestBuffer(scene: s, scale: 1.5)
        b.draw(s)
        keep(b, "scene-menu")
        #expect(b.pixel(x: Int(1.5 * 103), y: Int(1.5 * 53)) >> 24 >= 0xF0)
        #expect(b.pixel(x: Int(1.5 * 99), y: Int(1.5 * 53)) != b.pixel(x: Int(1.5 * 103), y: Int(1.5 * 53)))
        _ = press(s, 300, 300)   // outside the menu: closes it
        #expect(s.interaction.menu == nil)
        _ = press(s, 300, 300, button: 3)   // on m, near the area's corner: moved inside
        #expect(s.interaction.menu?.frame == LogicalRect(x: 338 - 156, y: 354 - 124, width: 156, height: 124))
        #expect(s.interaction.menu?.widgetID == "m")
    }

    @Test func theMenusRowsBecomeActions() {
        let s = abm()
        let rows: [(Int, SceneAction)] = [(0, .editWidget(id: "a")), (1, .removeWidget(id: "a")), (3, .openGallery)]
        for (row, action) in rows {
            _ = press(s, 10, 10, button: 3)
            let y = 10 + ContextMenu.padding + Double(row) * ContextMenu.rowHeight + 14
            _ = press(s, 60, y)
            #expect(release(s, 60, y) == action)
            #expect(s.interaction.menu == nil)
        }
        _ = press(s, 10, 10, button: 3)
        _ = press(s, 60, 10 + 6 + 2 * 28 + 14)
        #expect(release(s, 60, 10 + 6 + 2 * 28 + 14) == .nothing)
        #expect(s.interaction.editing)
    }

    /// The keyboard goes to the editor's window: "Edit Widget" and "Add Widget…" drop the
    /// focus (the X11 surface grabs the keyboard while it holds one); the other rows keep it.
    @Test func theEditorsRowsLetGoOfTheKeyboard() {
        let s = abm()
        for (row, keeps) in [(0, false), (1, true), (3, false)] {
            _ = key(s, .tab)
            #expect(s.interaction.focus == "a" && s.wantsKeyboard)
            _ = press(s, 10, 10, button: 3)
            let y = 10 + ContextMenu.padding + Double(row) * ContextMenu.rowHeight + 14
            _ = press(s, 60, y)
            _ = release(s, 60, y)
            #expect((s.interaction.focus != nil) == keeps && s.wantsKeyboard == keeps, "row \(row)")
            if keeps { _ = key(s, .escape) }
        }
    }

    @Test func aLongPressOpensTheMenuByTheEventsTime() {
        let s = abm()
        _ = press(s, 50, 50, at: 1000)
        #expect(release(s, 51, 50, at: 1499) == .click(id: "a", target: nil))
        _ = press(s, 50, 50, at: 2000)
        #expect(release(s, 50, 50, at: 2500) == .nothing)
        #expect(s.interaction.menu?.widgetID == "a")
        _ = key(s, .escape)
        _ = press(s, 50, 50, at: 3000)
        _ = move(s, 51, 51, at: 3600)   // held still: the menu opens before the release
        #expect(s.interaction.menu?.frame.x == 50)
        _ = key(s, .escape)
        _ = press(s, 50, 50, at: 4000)
        _ = move(s, 70, 50, at: 4100)   // moved away: neither a click nor a long press
        #expect(release(s, 70, 50, at: 4700) == .nothing && s.interaction.menu == nil)
    }

    @Test func aDropLandsInTheGridPlaceUnderIt() throws {
        let s = abm()
        let p = try #require(s.placement(on: 1)), l = try #require(s.layout)
        // a over b's place: before m ([b, a, m]).
        let ab = try #require(DropSlot(id: "a", x: 250, y: 50, placement: p, layout: l))
        #expect(ab.index == 1 && ab.frame == LogicalRect(x: 180, y: 0, width: 158, height: 158) && ab.move == .before("m"))
        // The medium one to the top row: before a, taking two slots across.
        let mTop = try #require(DropSlot(id: "m", x: 200, y: 80, placement: p, layout: l))
        #expect(mTop.index == 0 && mTop.frame == LogicalRect(x: 0, y: 0, width: 338, height: 158) && mTop.move == .before("a"))
        // A small one cannot take a medium's row alone: the nearest place is its own, no move.
        #expect(try #require(DropSlot(id: "a", x: 50, y: 300, placement: p, layout: l)).move == nil)
        // A large one is two by two.
        let big = scene([widget("a", view: habit()), widget("L", .systemLarge, view: habit())], layout: layout(["a", "L"], columns: 4))
        let bp = try #require(big.placement(on: 1)), bl = try #require(big.layout)
        let lFirst = try #require(DropSlot(id: "L", x: 10, y: 300, placement: bp, layout: bl))
        #expect(lFirst.frame == LogicalRect(x: 0, y: 0, width: 338, height: 354) && lFirst.move == .before("a"))
    }

    @Test func editModeDragsWidgetsToAPlaceAndRemovesThemByTheirBadge() {
        let s = scene([widget("a", view: habit()), widget("b", view: habit()), widget("c", view: habit())])
        _ = press(s, 10, 10, button: 3)
        _ = press(s, 60, 10 + 6 + 2 * 28 + 14)
        _ = release(s, 60, 10 + 6 + 2 * 28 + 14)
        #expect(s.interaction.editing)
        // Drag a to the empty place after c: the end of the order.
        _ = press(s, 50, 50, at: 5000)
        _ = move(s, 55, 150, at: 5050)
        _ = move(s, 60, 250, at: 5100)
        #expect(s.interaction.drag?.slot?.frame == LogicalRect(x: 0, y: 196, width: 158, height: 158))
        let b = TestBuffer(scene: s, scale: 1)
        b.draw(s)
        keep(b, "scene-edit-drag")
        // b and c make way ([b, c, a]): c is drawn in b's old place, the slot is empty but for its highlight.
        #expect(s.interaction.drag?.slot?.preview["c"] == LogicalRect(x: 180, y: 0, width: 158, height: 158))
        #expect(b.pixel(x: 170, y: 200) == 0)   // between the slots: nothing
        #expect(b.pixel(x: 5, y: 340) >> 24 < 0x80)   // the slot's translucent highlight, left of the dragged widget
        #expect(b.pixel(x: 5, y: 340) >> 24 > 0)
        #expect(release(s, 60, 250, at: 5200) == .move(id: "a", to: .index(2)))
        #expect(s.interaction.drag == nil && s.interaction.editing)
        // The badge at b's top-left corner removes b.
        _ = press(s, 180 + 10, 10)
        #expect(release(s, 180 + 12, 12) == .removeWidget(id: "b"))
        // A press outside every widget ends edit mode.
        _ = press(s, 250, 250)
        #expect(!s.interaction.editing)
    }

    @Test func theKeyboardMovesFocusInGridOrderAndReachesEveryAction() {
        let s = abm()
        var seen: [String?] = []
        for _ in 0..<4 { _ = key(s, .tab); seen.append(s.interaction.focus) }
        #expect(seen == ["a", "b", "m", "a"])
        _ = key(s, .backTab)
        #expect(s.interaction.focus == "m")
        #expect(key(s, .enter) == .click(id: "m", target: nil))
        _ = key(s, .menu)
        #expect(s.interaction.menu?.frame == LogicalRect(x: 12, y: 196 + 12, width: 156, height: 124))
        _ = key(s, .down)
        _ = key(s, .down)
        #expect(s.interaction.menu?.highlighted == 1)
        #expect(key(s, .enter) == .removeWidget(id: "m"))
        _ = key(s, .menu)
        _ = key(s, .up); _ = key(s, .up)
        #expect(key(s, .enter) == .nothing && s.interaction.editing)   // Edit Home Screen
        #expect(key(s, .left) == .move(id: "m", to: .before("b")))
        _ = key(s, .tab)
        #expect(key(s, .right) == .move(id: "a", to: .before("m")))
        #expect(key(s, .delete) == .removeWidget(id: "a"))
        _ = key(s, .escape)
        #expect(!s.interaction.editing && s.interaction.focus == "a")
        _ = key(s, .escape)
        #expect(s.interaction.focus == nil && !s.wantsKeyboard)
    }
}

@Suite struct SceneBadInputTests {
    @Test func numbersThatAreNotNumbersDrawAndClickNothingAndCrashNothing() {
        let s = scene([widget("a", view: habit()), widget("b", .systemMedium, view: habit())],
                      layout: DesktopViewMessage.Layout(widgets: ["a", "b"], anchor: "top-left", margin: .nan, gap: .infinity, columns: 0, scale: .nan, dark: nil))
        // No margin, the default gap, one column (the medium widget still two slots wide below a).
        #expect(s.area(on: 1) == LogicalRect(x: 0, y: 0, width: 338, height: 196 + 158))
        for kind in [PointerEvent.Kind.press(button: 3), .motion, .release(button: 3), .press(button: 1), .release(button: 1), .leave] {
            #expect(s.handle(PointerEvent(output: 1, kind: kind, x: .nan, y: .infinity, time: .max)) == .nothing)
        }
        #expect(s.hit(on: 1, x: .nan, y: 3) == nil)
        #expect(s.handle(PointerEvent(output: 9, kind: .press(button: 1), x: 1, y: 1, time: 0)) == .nothing)   // an output not shown
        let b = TestBuffer(scene: s, scale: 1)
        var odd = b.buffer
        odd.scale = .nan
        _ = s.draw(into: odd)   // nothing to check but that it returns
        #expect(s.draw(into: PixelBuffer(output: 1, pixels: b.memory, width: 0, height: 0, stride: 0, scale: 1, age: 1, token: 0)).isEmpty)
    }
}

@Suite struct SceneAccessibilityTests {
    @Test func widgetsControlsAndTheMenuAreNamedWithTheirRectangles() throws {
        let s = scene([widget("a", view: habit()), widget("n", view: nil)])
        let placed = try #require(s.placedTree(of: "a")).placed
        let log = try #require(WidgetHitTest.controls(in: placed).first)
        let elements = s.accessibleElements(on: 1)
        #expect(elements.map(\.name) == ["Water", "n"])
        #expect(elements.map(\.role) == [.widget, .widget])
        #expect(elements[0].frame == LogicalRect(x: 0, y: 0, width: 158, height: 158))
        #expect(elements[0].children == [SceneAccessible(role: .button, name: "Log Habit", frame: LogicalRect(x: log.frame.x, y: log.frame.y, width: log.frame.width, height: log.frame.height))])
        _ = s.handle(PointerEvent(output: 1, kind: .press(button: 3), x: 20, y: 20, time: 0))
        let menu = try #require(s.accessibleElements(on: 1).last)
        #expect(menu.role == .menu && menu.frame == LogicalRect(x: 20, y: 20, width: 156, height: 124))
        #expect(menu.children.map(\.name) == ["Edit Widget", "Remove Widget", "Edit Home Screen", "Add Widget…"])
        #expect(menu.children[1].frame == LogicalRect(x: 20, y: 20 + 6 + 28, width: 156, height: 28))
        // Activating "Remove Widget" is a click at its centre.
        let row = menu.children[1].frame
        _ = s.handle(PointerEvent(output: 1, kind: .press(button: 1), x: row.x + row.width / 2, y: row.y + row.height / 2, time: 10))
        #expect(s.handle(PointerEvent(output: 1, kind: .release(button: 1), x: row.x + row.width / 2, y: row.y + row.height / 2, time: 20))
                == .removeWidget(id: "a"))
    }
}
