import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetDesktopScene
import WidgetHostCore

/// While an "Add Widget" gallery is open the surface is in edit mode (`DesktopScene.galleryOpen`,
/// followed from the gallery's bus name on Wayland, where a drag is told only once it enters the
/// input region): the whole area takes input and holds the grid's reach, the widgets show their
/// remove badges, the keyboard stays the gallery's; closing the gallery ends that edit mode but
/// never the person's own.
@Suite struct GalleryEditModeTests {
    func press(_ s: DesktopScene, _ x: Double, _ y: Double) -> SceneAction {
        s.handle(PointerEvent(output: 1, kind: .press(button: 1), x: x, y: y, time: 1000))
    }

    /// a b (two small) at the top-left.
    func ab() -> DesktopScene { scene([widget("a", view: habit()), widget("b", view: habit())]) }

    @Test func anOpenGalleryIsEditModeOverTheGridsReachWithoutTheKeyboard() throws {
        let s = ab()
        let before = try #require(s.area(on: 1))
        #expect(s.inputRegion(on: 1).count == 2, "the widgets only")
        s.galleryOpen = true
        #expect(s.interaction.editing && s.interaction.editingForGallery)
        let reach = DropSlot.reach(of: [("a", .systemSmall), ("b", .systemSmall)], adding: WidgetFamily.allCases, columns: 2, gap: 22)
        let area = try #require(s.area(on: 1))
        #expect(area == LogicalRect(x: before.x, y: before.y, width: reach.width, height: reach.height))
        #expect(s.inputRegion(on: 1) == [LogicalRect(x: 0, y: 0, width: area.width, height: area.height)], "the whole area")
        #expect(!s.wantsKeyboard, "the gallery keeps the keyboard (X11 would grab it)")
        // A medium dragged in over a pushes both into the new row, inside the area already.
        let slot = try #require(s.dragIn(family: .systemMedium, output: 1, x: 50, y: 50))
        #expect(slot.preview["b"] == LogicalRect(x: 180, y: 196, width: 158, height: 158))
        #expect(s.area(on: 1) == area)
        s.dragInEnded()
        s.galleryOpen = false
        #expect(!s.interaction.editing && !s.interaction.editingForGallery)
        #expect(s.area(on: 1) == before)
        #expect(s.inputRegion(on: 1).count == 2, "the widgets only again: the bare desktop is the desktop's")
    }

    @Test func theBadgesAreDrawnWhileTheGalleryIsOpenAndGoWithIt() throws {
        let s = ab()
        let b = TestBuffer(scene: s, scale: 1)
        b.draw(s)
        let plain = try #require(b.png(x: 0, y: 0, width: 158, height: 158))
        s.galleryOpen = true
        let grown = TestBuffer(scene: s, scale: 1)
        grown.draw(s)
        let marked = try #require(grown.png(x: 0, y: 0, width: 158, height: 158))
        #expect(marked != plain, "a's remove badge")
        keep(grown, "gallery-open-edit-mode")
        s.galleryOpen = false
        let after = TestBuffer(scene: s, scale: 1)
        after.draw(s)
        #expect(after.png(x: 0, y: 0, width: 158, height: 158) == plain)
    }

    /// Edit mode shows in the accessible tree as each widget's remove badge, a "Remove Widget"
    /// button at the badge (its activation a click there: the widget removed), gone with edit mode.
    @Test func editModesBadgesAreAccessibleButtons() throws {
        let s = ab()
        #expect(s.accessibleElements(on: 1).allSatisfy { !$0.children.contains { $0.name == "Remove Widget" } })
        s.galleryOpen = true
        let b = try #require(s.accessibleElements(on: 1).first { $0.id == "b" })
        let badge = try #require(b.children.first)
        #expect(badge == SceneAccessible(role: .button, name: "Remove Widget", frame: LogicalRect(x: 184, y: 4, width: 22, height: 22)))
        _ = s.handle(PointerEvent(output: 1, kind: .press(button: 1), x: 195, y: 15, time: 10))
        #expect(s.handle(PointerEvent(output: 1, kind: .release(button: 1), x: 195, y: 15, time: 20)) == .removeWidget(id: "b"))
        s.galleryOpen = false
        #expect(s.accessibleElements(on: 1).allSatisfy { !$0.children.contains { $0.name == "Remove Widget" } })
    }

    @Test func thePersonsOwnEditModeOutlivesTheGallery() throws {
        let s = ab()
        // Edit Home Screen first: the gallery opening and closing leaves it on, with the keyboard.
        _ = s.handle(PointerEvent(output: 1, kind: .press(button: 3), x: 20, y: 20, time: 0))
        let menu = try #require(s.interaction.menu)
        let row = menu.rowFrame(try #require(menu.commands.firstIndex(of: .editHomeScreen)))
        _ = s.handle(PointerEvent(output: 1, kind: .press(button: 1), x: row.x + row.width / 2, y: row.y + row.height / 2, time: 10))
        _ = s.handle(PointerEvent(output: 1, kind: .release(button: 1), x: row.x + row.width / 2, y: row.y + row.height / 2, time: 20))
        #expect(s.interaction.editing && !s.interaction.editingForGallery && s.wantsKeyboard)
        s.galleryOpen = true
        s.galleryOpen = false
        #expect(s.interaction.editing, "the person's edit mode stays")
        // Chosen while the gallery had it on, it becomes the person's.
        let t = ab()
        t.galleryOpen = true
        _ = t.handle(PointerEvent(output: 1, kind: .press(button: 3), x: 20, y: 20, time: 0))
        let m = try #require(t.interaction.menu)
        let r = m.rowFrame(try #require(m.commands.firstIndex(of: .editHomeScreen)))
        _ = t.handle(PointerEvent(output: 1, kind: .press(button: 1), x: r.x + r.width / 2, y: r.y + r.height / 2, time: 10))
        _ = t.handle(PointerEvent(output: 1, kind: .release(button: 1), x: r.x + r.width / 2, y: r.y + r.height / 2, time: 20))
        t.galleryOpen = false
        #expect(t.interaction.editing)
    }

    @Test func aClickBesideTheWidgetsKeepsItEscapeEndsItANewSnapshotKeepsIt() throws {
        let s = ab()
        s.galleryOpen = true
        // A new snapshot (the host restarted, the colour scheme's new watch) keeps it on.
        s.apply(snapshot([widget("a", view: habit()), widget("b", view: habit())], layout: layout(["a", "b"])), now: Date(timeIntervalSince1970: 1_700_000_000))
        #expect(s.interaction.editing && s.interaction.editingForGallery)
        // A press beside the widgets (inside the grown area) leaves it on: drops still land anywhere.
        #expect(press(s, 100, 300) == .nothing)
        #expect(s.interaction.editing)
        // Escape (the surface clicked, so it has the keyboard) ends it; the gallery closing changes nothing more.
        #expect(s.handle(KeyEvent(output: 1, key: .escape)) == .nothing)
        #expect(!s.interaction.editing && !s.interaction.editingForGallery)
        s.galleryOpen = false
        #expect(!s.interaction.editing)
    }

    @Test func standByTakesNoEditMode() {
        let s = ab()
        s.standBy = StandByStacks()
        s.galleryOpen = true
        #expect(!s.interaction.editing)
    }
}
