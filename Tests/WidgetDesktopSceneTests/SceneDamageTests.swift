import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetDesktopScene
import WidgetHostCore
import WidgetLayout

@Suite struct SceneDamageTests {
    /// The text node showing `string` in widget `id`'s laid-out tree.
    func textNode(_ s: DesktopScene, _ id: String, _ string: String) throws -> PlacedNode {
        var found: PlacedNode?
        try #require(s.placedTree(of: id)).placed.walk { if $0.text?.string == string { found = $0 } }
        return try #require(found)
    }

    /// The pixels of a text node's ink (frame ∪ content frame, outset by the ink margin) in widget `id`.
    func inkPixels(_ s: DesktopScene, _ id: String, _ node: PlacedNode, scale: Double) throws -> PixelRect {
        let f = node.frame, c = node.contentFrame, m = PlacedTreeDamage.inkMargin
        let x0 = min(f.x, c.x) - m, y0 = min(f.y, c.y) - m, x1 = max(f.maxX, c.maxX) + m, y1 = max(f.maxY, c.maxY) + m
        let (ox, oy) = DesktopScene.pixelOrigin(of: try #require(s.placement(on: 1)?.frame(of: id)), scale: scale)
        return try #require(PixelRect(covering: LogicalRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), scale: scale, dx: ox, dy: oy))
    }

    @Test(arguments: [(1.0, PixelRect(x: 111, y: 30, width: 35, height: 28)), (1.5, PixelRect(x: 167, y: 45, width: 52, height: 42))])
    func aTickingClockDamagesItsSecondsTextOnly(scale: Double, pinned: PixelRect) throws {
        let s = scene([widget("clock", view: clock(seconds: 5)), widget("habit", view: habit())], scale: scale)
        let b = TestBuffer(scene: s, scale: scale)
        b.draw(s)
        #expect(!s.needsFrame(on: 1))
        s.apply(change([widget("clock", view: clock(seconds: 6))]), now: fixedNow)
        #expect(s.needsFrame(on: 1))
        b.age = 1
        let damage = b.draw(s)
        let seconds = try textNode(s, "clock", ":06")
        #expect(damage == [try inkPixels(s, "clock", seconds, scale: scale)])
        #expect(damage == [pinned])   // the same, as numbers (pinned fonts)
        #expect(damage[0].width < Int(40 * scale) && damage[0].height < Int(30 * scale))
        // The hours' text is not redrawn.
        let hours = try inkPixels(s, "clock", try textNode(s, "clock", "10:10"), scale: scale)
        #expect(damage[0].intersection(PixelRect(x: hours.x, y: hours.y, width: hours.width - Int(2 * scale) - 1, height: hours.height)) == nil)
    }

    @Test(arguments: [1.0, 1.5])
    func aBufferAfterDamageOnlyDrawingEqualsAFullRedraw(scale: Double) throws {
        let s = scene([widget("clock", view: clock(seconds: 5)), widget("habit", view: habit())], scale: scale)
        let b = TestBuffer(scene: s, scale: scale)
        b.draw(s)
        b.age = 1
        for second in 6...9 {
            s.apply(change([widget("clock", view: clock(seconds: second))]), now: fixedNow)
            #expect(b.draw(s).count == 1)
        }
        s.apply(change([widget("habit", view: habit(count: 4))]), now: fixedNow)
        #expect(!b.draw(s).isEmpty)
        let fresh = scene([widget("clock", view: clock(seconds: 9)), widget("habit", view: habit(count: 4))], scale: scale)
        let full = TestBuffer(scene: fresh, scale: scale)
        full.draw(fresh)
        #expect(b.bytes == full.bytes)
    }

    @Test func aBufferOfAgeTwoRedrawsTheLastTwoFramesDamage() throws {
        func captioned(_ caption: String, _ seconds: Int) -> ViewNode {
            tree(VStack { Text(caption); Text(":" + String(seconds)).monospacedDigit() })
        }
        let s = scene([widget("w", view: captioned("Clock", 10))], scale: 1.5)
        let x = TestBuffer(scene: s, scale: 1.5), y = TestBuffer(scene: s, scale: 1.5)
        x.draw(s)                                   // frame 1
        s.apply(change([widget("w", view: captioned("Clack", 10))]), now: fixedNow)
        let captionDamage = y.draw(s)               // frame 2, age 0: everything
        #expect(captionDamage == [PixelRect(x: 0, y: 0, width: y.width, height: y.height)])
        s.apply(change([widget("w", view: captioned("Clack", 11))]), now: fixedNow)
        x.age = 2
        let damage = x.draw(s)                      // frame 3 into frame 1's buffer: caption and seconds
        #expect(damage.count >= 2)
        s.apply(change([widget("w", view: captioned("Clack", 12))]), now: fixedNow)
        y.age = 2
        #expect(y.draw(s).count == 1)               // frame 4 into frame 2's buffer: seconds of frames 3 and 4 (one rect)
        let fresh = scene([widget("w", view: captioned("Clack", 12))], scale: 1.5)
        let full = TestBuffer(scene: fresh, scale: 1.5)
        full.draw(fresh)
        #expect(y.bytes == full.bytes)
        s.apply(change([widget("w", view: captioned("Clack", 13))]), now: fixedNow)
        x.age = 2
        x.draw(s)
        let fresh13 = scene([widget("w", view: captioned("Clack", 13))], scale: 1.5)
        let full13 = TestBuffer(scene: fresh13, scale: 1.5)
        full13.draw(fresh13)
        #expect(x.bytes == full13.bytes)
    }

    @Test func liveDatesTickWithoutMessages() throws {
        let started = fixedNow.addingTimeInterval(-65)
        let timer = tree(VStack { Text("Tea"); Text(started, style: .timer).monospacedDigit() })
        let s = scene([widget("tea", view: timer), widget("habit", view: habit())])
        let b = TestBuffer(scene: s, scale: 1)
        b.draw(s)
        #expect(s.nextTick(after: fixedNow) == fixedNow.addingTimeInterval(1))
        #expect(s.nextTick(after: fixedNow.addingTimeInterval(0.5)) == fixedNow.addingTimeInterval(1))
        #expect(!s.tick(now: fixedNow.addingTimeInterval(0.9)))
        #expect(!s.needsFrame(on: 1))
        #expect(s.tick(now: fixedNow.addingTimeInterval(1)))
        b.age = 1
        let damage = b.draw(s)
        #expect(damage == [try inkPixels(s, "tea", try textNode(s, "tea", "1:06"), scale: 1)])
        let fresh = DesktopScene()
        fresh.setOutputs([output()])
        fresh.apply(snapshot([widget("tea", view: timer), widget("habit", view: habit())]), now: fixedNow.addingTimeInterval(1))
        let full = TestBuffer(scene: fresh, scale: 1)
        full.draw(fresh)
        #expect(b.bytes == full.bytes)
    }

    @Test func aWidgetWithoutLiveDatesNeverTicks() {
        let s = scene([widget("habit", view: habit())])
        #expect(s.nextTick(after: fixedNow) == nil)
        #expect(!s.tick(now: fixedNow.addingTimeInterval(3600)))
    }

    @Test func stateChangesDamageTheWholeWidgetAndPlacementChangesEverything() throws {
        let s = scene([widget("a", view: habit()), widget("b", view: habit())], scale: 2)
        let b = TestBuffer(scene: s, scale: 2)
        b.draw(s)
        b.age = 1
        s.apply(change([widget("b", view: habit(), stale: true)]), now: fixedNow)
        #expect(b.draw(s) == [PixelRect(x: 360, y: 0, width: 316, height: 316)])
        s.apply(change([], removed: ["a"]), now: fixedNow)
        #expect(s.placement(on: 1)?.widgets.map(\.id) == ["b"])
        let c = TestBuffer(scene: s, scale: 2)
        c.age = 1
        #expect(c.draw(s) == [PixelRect(x: 0, y: 0, width: c.width, height: c.height)])
    }

    @Test func theHistoryRedrawsTheLastFramesOrEverything() {
        var h = DamageHistory()
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10), b = PixelRect(x: 20, y: 0, width: 5, height: 5)
        let c = PixelRect(x: 40, y: 40, width: 5, height: 5), whole = PixelRect(x: 0, y: 0, width: 100, height: 50)
        h.record([whole], width: 100, height: 50)
        h.record([a], width: 100, height: 50)
        h.record([b], width: 100, height: 50)
        #expect(h.redraw(age: 1, damage: [c], width: 100, height: 50) == [c])
        #expect(h.redraw(age: 2, damage: [c], width: 100, height: 50) == [c, b])
        #expect(h.redraw(age: 3, damage: [c], width: 100, height: 50) == [c, a, b])
        #expect(h.redraw(age: 4, damage: [c], width: 100, height: 50) == [whole])
        #expect(h.redraw(age: 5, damage: [c], width: 100, height: 50) == [whole])
        #expect(h.redraw(age: 0, damage: [c], width: 100, height: 50) == [whole])
        #expect(h.redraw(age: 1, damage: [c], width: 100, height: 60) == [PixelRect(x: 0, y: 0, width: 100, height: 60)])
        #expect(DamageHistory.simplified([a, PixelRect(x: 2, y: 2, width: 3, height: 3), PixelRect(x: 95, y: 45, width: 10, height: 10)], within: whole)
                == [a, PixelRect(x: 95, y: 45, width: 5, height: 5)])
    }
}

@Suite struct InteractionDamageTests {
    enum Step { case pointer(PointerEvent.Kind, Double, Double, UInt32), key(KeyEvent.Key) }

    func run(_ steps: [Step], on s: DesktopScene) {
        for step in steps {
            switch step {
            case .pointer(let kind, let x, let y, let t): _ = s.handle(PointerEvent(output: 1, kind: kind, x: x, y: y, time: t))
            case .key(let k): _ = s.handle(KeyEvent(output: 1, key: k))
            }
        }
    }

    func widgets() -> [DesktopViewMessage.Widget] {
        [widget("a", view: habit()), widget("b", view: clock(seconds: 1)), widget("c", view: habit(count: 7))]
    }

    /// After each step drawn damage-only into one buffer, the buffer equals a fresh scene that
    /// took the same steps and drew everything.
    @Test(arguments: [1.0, 1.5])
    func menuAndEditModeRedrawOnlyWhatTheyCoverAndLeaveNothingBehind(scale: Double) {
        let s = scene(widgets(), scale: scale)
        let b = TestBuffer(scene: s, scale: scale)
        b.draw(s)
        b.age = 1
        let script: [[Step]] = [
            [.pointer(.press(button: 3), 40, 40, 10)],                  // the menu
            [.pointer(.motion, 60, 40 + 6 + 28 + 10, 20)],              // its second row lit
            [.pointer(.motion, 60, 40 + 6 + 2 * 28 + 10, 30)],          // its third
            [.pointer(.press(button: 1), 60, 40 + 6 + 2 * 28 + 10, 40), .pointer(.release(button: 1), 60, 40 + 6 + 2 * 28 + 10, 50)],  // edit mode
            [.pointer(.press(button: 1), 250, 50, 60), .pointer(.motion, 240, 120, 70)],   // dragging b
            [.pointer(.motion, 60, 250, 80)],                           // over c's place: c makes way
            [.pointer(.release(button: 1), 60, 250, 90)],
            [.key(.tab), .key(.tab)],
            [.key(.escape)],
        ]
        var done: [Step] = []
        for (i, steps) in script.enumerated() {
            run(steps, on: s)
            done += steps
            let damage = b.draw(s)
            #expect(!damage.isEmpty, "step \(i)")
            let fresh = scene(widgets(), scale: scale)
            run(done, on: fresh)
            let full = TestBuffer(scene: fresh, scale: scale)
            full.draw(fresh)
            #expect(b.bytes == full.bytes, "step \(i)")
            if i == 1 {
                // Lighting a row redraws the menu, not the widgets.
                let menu = s.interaction.menu!.frame
                #expect(damage == [PixelRect(covering: LogicalRect(x: menu.x - 1, y: menu.y - 1, width: menu.width + 2, height: menu.height + 2), scale: scale)!])
            }
        }
    }

    @Test func withoutAHostEveryWidgetIsMarkedNotRunning() throws {
        let s = scene([widget("a", view: habit())])
        let b = TestBuffer(scene: s, scale: 1)
        b.draw(s)
        s.hostRunning = false
        #expect(s.needsFrame(on: 1))
        b.age = 1
        b.draw(s)
        let stopped = scene([widget("a", view: habit(), running: false)])
        let c = TestBuffer(scene: stopped, scale: 1)
        c.draw(stopped)
        #expect(b.bytes == c.bytes)
        keep(b, "scene-no-host")
    }
}
