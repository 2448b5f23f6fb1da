import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetDesktopScene
@testable import WidgetGraphics
import WidgetHostCore
import WidgetLayout

/// StandBy (`widgethost-desktop --standby`): two stacks side by side over the whole output,
/// each widget drawn large from its own tree, a swipe or Up / Down turns a stack, and night
/// mode draws it all in red.
@Suite struct StandBySceneTests {
    func standBy(_ ids: [String], scale: Double = 1, width: Double = 1280, height: Double = 800, night: Bool = false) -> DesktopScene {
        _ = SceneFonts.configured
        let s = DesktopScene()
        s.standBy = StandByStacks()
        s.night = night
        s.setOutputs([output(scale: scale, width: width, height: height)])
        let views: [String: ViewNode] = ["clock": clock(seconds: 5), "habit": habit(), "water": habit(count: 7)]
        s.apply(snapshot(ids.map { widget($0, view: views[$0] ?? habit()) }, layout: layout(ids)), now: fixedNow)
        return s
    }

    @Test func twoStacksFillTheOutputsHalvesAndTheAreaIsTheWholeOutput() throws {
        let s = standBy(["clock", "habit"])
        let p = try #require(s.placement(on: 1))
        #expect(p.area == LogicalRect(x: 0, y: 0, width: 1280, height: 800))
        // Each half is 640 × 800; 6 % of 640 = 38.4 pt on each side leaves 563.2 pt for a 158 pt
        // small widget: zoom 563.2 / 158, centred in its half.
        let zoom = 563.2 / 158
        #expect(p.widgets.map(\.id) == ["clock", "habit"])
        #expect(p.widgets.allSatisfy { abs($0.zoom - zoom) < 1e-9 })
        let clockFrame = try #require(p.frame(of: "clock")), habitFrame = try #require(p.frame(of: "habit"))
        for (f, x) in [(clockFrame, 38.4), (habitFrame, 640 + 38.4)] {
            #expect(abs(f.x - x) < 1e-9 && abs(f.y - 118.4) < 1e-9 && abs(f.width - 563.2) < 1e-9 && abs(f.height - 563.2) < 1e-9, "\(f)")
        }
        // The input region is each shown widget, the rest of the black screen passes through.
        #expect(s.inputRegion(on: 1) == [clockFrame, habitFrame])
        #expect(s.wantsKeyboard)
    }

    @Test func aLoneWidgetIsCentredOnTheWholeOutput() throws {
        let p = try #require(standBy(["clock"]).placement(on: 1))
        // 6 % of 800 = 48 pt above and below: 704 pt high, centred across 1280.
        let f = try #require(p.frame(of: "clock"))
        #expect(abs(f.height - 704) < 1e-9 && abs(f.y - 48) < 1e-9 && abs(f.x - (1280 - 704) / 2) < 1e-9)
    }

    /// The large widget is the widget's own picture rendered at the zoomed scale (not a resized
    /// small one), dark as StandBy is, on its black: every pixel equals a direct dark render
    /// composited over black.
    @Test(arguments: [1.0, 2.0])
    func aStackedWidgetIsItsOwnPictureRenderedLarge(scale: Double) throws {
        let s = standBy(["clock", "habit"], scale: scale, width: 800, height: 480)
        let b = TestBuffer(scene: s, scale: scale)
        b.draw(s)
        keep(b, "standby-\(scale)")
        let p = try #require(s.placement(on: 1))
        for w in p.widgets {
            let view = w.id == "clock" ? clock(seconds: 5) : habit()
            let png = try PictureRenderer().render(view, family: w.family, format: .png,
                                                   options: PictureOptions(scale: scale * w.zoom, appearance: .dark, now: fixedNow))
            var expected = try #require(PixelImage.decodePNG(png.bytes))
            // Over black, a premultiplied pixel keeps its colour and becomes opaque.
            expected.pixels = expected.pixels.map { $0 | 0xFF00_0000 }
            let (ox, oy) = DesktopScene.pixelOrigin(of: w.frame, scale: scale)
            let got = try #require(b.image(x: Int(ox), y: Int(oy), width: expected.width, height: expected.height))
            #expect(expected.width > Int(300 * scale))   // drawn large, not at 158 pt
            #expect(got.differingPixels(from: expected, threshold: 2) == 0, "\(w.id) at \(scale)")
        }
        // Between and around the widgets: black, opaque.
        #expect(b.pixel(x: 1, y: 1) == 0xFF00_0000)
        #expect(b.pixel(x: b.width / 2, y: 2) == 0xFF00_0000)
    }

    @Test func aVerticalSwipeTurnsTheStackUnderItAndAClickStillClicks() throws {
        let s = standBy(["clock", "water", "habit"])   // left: clock, water; right: habit
        #expect(s.placement(on: 1)?.widgets.map(\.id) == ["clock", "habit"])
        func event(_ kind: PointerEvent.Kind, _ x: Double, _ y: Double, _ t: UInt32) -> PointerEvent {
            PointerEvent(output: 1, kind: kind, x: x, y: y, time: t)
        }
        _ = s.handle(event(.press(button: 1), 300, 500, 10))
        _ = s.handle(event(.motion, 300, 450, 20))
        #expect(s.handle(event(.release(button: 1), 300, 420, 30)) == .nothing)
        #expect(s.placement(on: 1)?.widgets.map(\.id) == ["water", "habit"])
        #expect(s.needsFrame(on: 1))
        // Down again shows the previous one; the right stack of one stays.
        _ = s.handle(event(.press(button: 1), 300, 300, 40))
        _ = s.handle(event(.release(button: 1), 300, 390, 50))
        #expect(s.placement(on: 1)?.widgets.map(\.id) == ["clock", "habit"])
        // A short tap on the right widget's "Log" button runs its intent, hit in zoomed points.
        let habitFrame = try #require(s.placement(on: 1)?.widgets.first { $0.id == "habit" })
        var button: Rect?
        try #require(s.placedTree(of: "habit")).placed.walk { if $0.node.kind == .button { button = $0.frame } }
        let b = try #require(button)
        let (x, y) = (habitFrame.frame.x + b.midX * habitFrame.zoom, habitFrame.frame.y + b.midY * habitFrame.zoom)
        _ = s.handle(event(.press(button: 1), x, y, 60))
        let action = s.handle(event(.release(button: 1), x, y, 80))
        guard case .click(id: "habit", target: let target?) = action else { Issue.record("not a control click: \(action)"); return }
        #expect(!target.isEmpty)
    }

    @Test func upAndDownKeysTurnTheLeftStackWithoutFocus() {
        let s = standBy(["clock", "water", "habit"])
        _ = s.handle(KeyEvent(output: 1, key: .up))
        #expect(s.placement(on: 1)?.widgets.map(\.id) == ["water", "habit"])
        _ = s.handle(KeyEvent(output: 1, key: .up))
        #expect(s.placement(on: 1)?.widgets.map(\.id) == ["clock", "habit"])
        _ = s.handle(KeyEvent(output: 1, key: .down))
        #expect(s.placement(on: 1)?.widgets.map(\.id) == ["water", "habit"])
    }

    @Test func nightModeDrawsEverythingInRedOfItsOwnBrightness() throws {
        let day = standBy(["clock", "habit"], width: 800, height: 480)
        let night = standBy(["clock", "habit"], width: 800, height: 480, night: true)
        let d = TestBuffer(scene: day, scale: 1), n = TestBuffer(scene: night, scale: 1)
        d.draw(day)
        n.draw(night)
        keep(n, "standby-night")
        var lit = 0
        for y in stride(from: 0, to: n.height, by: 3) {
            for x in stride(from: 0, to: n.width, by: 3) {
                let p = n.pixel(x: x, y: y)
                #expect(p & 0xFFFF == 0, "green or blue left at \(x),\(y): \(String(p, radix: 16))")
                #expect(p == NightTint.tinted(d.pixel(x: x, y: y)))
                if (p >> 16) & 0xFF > 40 { lit += 1 }
            }
        }
        #expect(lit > 1000)   // the widgets are there, in red
        // Pure blue (the clock's background) becomes a dim red, white a full red.
        #expect(NightTint.tinted(0xFF00_00FF) == 0xFF12_0000)
        #expect(NightTint.tinted(0xFFFF_FFFF) == 0xFFFF_0000)
        #expect(NightTint.tinted(0x8080_8080) == 0x8080_0000)
    }

    @Test func editHomeScreenIsNotOfferedAsAModeInStandBy() throws {
        let s = standBy(["clock", "habit"])
        let f = try #require(s.placement(on: 1)?.frame(of: "clock"))
        _ = s.handle(PointerEvent(output: 1, kind: .press(button: 3), x: f.x + 20, y: f.y + 20, time: 1))
        let menu = try #require(s.interaction.menu)
        let row = try #require(menu.commands.firstIndex(of: .editHomeScreen))
        let r = menu.rowFrame(row)
        _ = s.handle(PointerEvent(output: 1, kind: .press(button: 1), x: r.x + 5, y: r.y + 5, time: 2))
        _ = s.handle(PointerEvent(output: 1, kind: .release(button: 1), x: r.x + 5, y: r.y + 5, time: 3))
        #expect(!s.interaction.editing)
    }
}
