import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetDesktopScene
@testable import WidgetGraphics
import WidgetHostCore
import WidgetLayout

@Suite struct SceneDrawingTests {
    /// Each widget's pixels in the buffer equal a direct `PictureRenderer` render of its tree at
    /// the buffer's scale — exactly: both go through the same PNG round trip, and every pixel
    /// must be equal (no tolerance).
    @Test(arguments: [1.0, 1.25, 1.5, 2, 3])
    func aWidgetsPixelsEqualADirectRender(scale: Double) throws {
        let l = layout(["clock", "habit", "wide"], dark: nil)
        let wide = tree(HStack { Text("Medium"); Spacer(); Circle().stroke(.orange, lineWidth: 3).frame(width: 40, height: 40) })
        let s = scene([widget("clock", view: clock(seconds: 5)), widget("habit", view: habit()), widget("wide", .systemMedium, view: wide)],
                      layout: l, scale: scale)
        let b = TestBuffer(scene: s, scale: scale)
        #expect(b.draw(s) == [PixelRect(x: 0, y: 0, width: b.width, height: b.height)])
        let direct = PictureRenderer()
        for w in s.placement(on: 1)!.widgets {
            let view = w.id == "clock" ? clock(seconds: 5) : w.id == "habit" ? habit() : wide
            let png = try direct.render(view, family: w.family, format: .png, options: PictureOptions(scale: scale, appearance: .light, now: fixedNow))
            let expected = try #require(PixelImage.decodePNG(png.bytes))
            let (ox, oy) = DesktopScene.pixelOrigin(of: w.frame, scale: scale)
            let got = try #require(b.image(x: Int(ox), y: Int(oy), width: expected.width, height: expected.height))
            #expect(got.pixels == expected.pixels, "\(w.id) at \(scale): \(got.differingPixels(from: expected, threshold: 0)) pixels differ")
        }
        keep(b, "scene-normal-\(scale)")
    }

    @Test func theLayoutsDarkOrTheDesktopsSchemeChoosesTheAppearance() throws {
        let light = scene([widget("habit", view: habit())], layout: layout(["habit"], dark: nil))
        #expect(light.appearance == .light)
        light.desktopDark = true
        #expect(light.appearance == .dark && light.needsFrame(on: 1))
        let b = TestBuffer(scene: light, scale: 1)
        b.draw(light)
        let png = try PictureRenderer().render(habit(), family: .systemSmall, format: .png, options: PictureOptions(scale: 1, appearance: .dark, now: fixedNow))
        #expect(try #require(b.image(x: 0, y: 0, width: 158, height: 158)).pixels == PixelImage.decodePNG(png.bytes)?.pixels)
        let forcedLight = scene([widget("habit", view: habit())], layout: layout(["habit"], dark: false))
        forcedLight.desktopDark = true
        #expect(forcedLight.appearance == .light)
        keep(b, "scene-dark")
    }

    @Test func aStaleOrStoppedWidgetIsDimmedAndMarkedOffItsTitle() throws {
        let s = scene([widget("habit", view: habit(), stale: true), widget("off", view: habit(), running: false), widget("ok", view: habit())])
        let b = TestBuffer(scene: s, scale: 2)
        b.draw(s)
        keep(b, "scene-stale")
        let p = s.placement(on: 1)!
        let placed = try #require(s.placedTree(of: "habit")).placed
        var title: Rect?
        placed.walk { if title == nil, $0.node.kind == .text { title = $0.contentFrame } }
        let titleRect = try #require(title)
        for mark in [WidgetMark.stale, .notRunning] {
            let width = PictureRenderer().text.measure(mark.text, font: WidgetMark.font, width: nil, maxLines: 1).width
            let r = WidgetMark.frame(textWidth: width, width: 158, height: 158, placed: placed)
            #expect(!(r.x < titleRect.maxX && titleRect.x < r.maxX && r.y < titleRect.maxY && titleRect.y < r.maxY), "\(mark) covers the title")
        }
        // Dimmed: the stale widget's pixels are not the current one's.
        let (ox, oy) = DesktopScene.pixelOrigin(of: p.frame(of: "ok")!, scale: 2)
        let ok = try #require(b.image(x: Int(ox), y: Int(oy), width: 316, height: 316))
        let stale = try #require(b.image(x: 0, y: 0, width: 316, height: 316))
        #expect(stale.differingPixels(from: ok, threshold: 16) > 1000)
        #expect(WidgetMark(stale: true, running: true) == .stale && WidgetMark(stale: true, running: false) == .notRunning
                && WidgetMark(stale: false, running: true) == nil)
    }

    @Test func theMarkGoesToACornerFreeOfTextOrElseOffTheTitle() {
        // A title across the top: the top corners meet it, the bottom-trailing one is free.
        let top = tree(VStack { Text("A long widget title here").font(.headline); Spacer() })
        let placed = PictureRenderer().layout(top, family: .systemSmall, now: fixedNow)
        let r = WidgetMark.frame(textWidth: 30, width: 158, height: 158, placed: placed)
        #expect(r == Rect(x: 158 - 8 - 42, y: 158 - 8 - 18, width: 42, height: 18))
        // Nothing laid out yet: top-trailing.
        #expect(WidgetMark.frame(textWidth: 30, width: 158, height: 158, placed: nil) == Rect(x: 108, y: 8, width: 42, height: 18))
    }

    @Test func aWidgetWithoutAnEntryIsDrawnAsItsEmptyShape() throws {
        let s = scene([widget("new", view: nil)])
        let b = TestBuffer(scene: s, scale: 1)
        b.draw(s)
        let png = try PictureRenderer().render(ViewNode(kind: .empty), family: .systemSmall, format: .png, options: PictureOptions(scale: 1, now: fixedNow))
        #expect(try #require(b.image(x: 0, y: 0, width: 158, height: 158)).pixels == PixelImage.decodePNG(png.bytes)?.pixels)
        #expect(s.nextTick(after: fixedNow) == nil)
    }
}
