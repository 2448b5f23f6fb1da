import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetDesktopScene
import WidgetGraphics
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost-desktop --standby` under Xvfb and openbox, fed by the fake host's three widgets
/// (Habit and Stats small, Clocky medium): a full-screen window over the whole monitor, black,
/// Habit large in the left stack and Clocky in the right one, each the widget's own picture at
/// the zoomed scale; a real swipe up (xdotool) on the left stack shows Stats; `--night` draws
/// everything in red. Every wait is for a condition.
@Suite(.serialized) struct StandByDesktopTests {
    static let patience = RealBarTests.patience
    typealias T = DesktopSurfaceTests

    @Test func standByFillsTheScreenWithTwoLargeStacksAndASwipeTurnsOne() throws {
        guard let openbox = requireProgram("openbox", package: "openbox"),
              let capture = requireProgram("import", package: "imagemagick"),
              let xprop = requireProgram("xprop", package: "x11-utils"),
              let xwininfo = requireProgram("xwininfo", package: "x11-utils"),
              let xdotool = requireProgram("xdotool", package: "xdotool"),
              let screen = try XServer.start(width: T.screen.width, height: T.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let lean = try LeanScene(display: screen.display, anchor: "top-left")
        defer { lean.stop() }
        let s = lean.scene
        let wm = try s.start(openbox, [], name: "openbox")
        #expect(eventually(timeout: Self.patience) {
            s.run(xprop, ["-root", "_NET_SUPPORTED"]).stdout.contains("_NET_WM_STATE_FULLSCREEN")
        }, "openbox:\n\(wm.stderr)")

        let desktop = try s.startDesktop(arguments: ["--standby"])
        let shot = { s.rootShot(capture) }
        // Where the scene puts each stack's widget on the 640 × 400 pt output (scale 2: no Xft.dpi).
        let output = DisplayOutput(id: 1, connector: "screen", logicalWidth: Double(T.screen.width) / 2,
                                   logicalHeight: Double(T.screen.height) / 2, scale: 2, isPrimary: true)
        let families: [String: WidgetFamily] = [T.habit: .systemSmall, T.stats: .systemSmall, T.clocky: .systemMedium]
        let layout = DesktopViewMessage.Layout(widgets: [T.habit, T.stats, T.clocky], anchor: "top-left", margin: 32, gap: 22,
                                               columns: 2, scale: 2, dark: false)
        func expectShown(_ ids: [String], night: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
            var stacks = StandByStacks()
            if ids.first == T.stats { stacks.rotate(0, by: 1) }
            let placement = DesktopPlacement(standBy: stacks, layout: layout, families: families, output: output)
            #expect(placement.widgets.map(\.id) == ids, sourceLocation: sourceLocation)
            var report = ""
            let ok = eventually(timeout: Self.patience) {
                guard let image = shot() else { report = "no screenshot"; return false }
                report = ""
                for w in placement.widgets {
                    let differing = Self.differing(image, widget: w, night: night)
                    if differing > 400 { report += "\(w.id): \(differing) pixels differ; " }
                }
                if image.pixels[5 * image.width + 5] & 0xFF_FFFF != 0 { report += "the corner is not black; " }
                return report.isEmpty
            }
            #expect(ok, "\(report)\n\(desktop.stderr)", sourceLocation: sourceLocation)
        }
        expectShown([T.habit, T.clocky])
        #expect(desktop.stderr.contains("StandBy: a full-screen X11 window on each monitor under Openbox"), "\(desktop.stderr)")
        let window = s.run(xdotool, ["search", "--onlyvisible", "--name", "^widgethost-desktop$"]).stdout
            .split(separator: "\n").first.map(String.init) ?? ""
        #expect(s.run(xprop, ["-id", window, "_NET_WM_STATE"]).stdout.contains("_NET_WM_STATE_FULLSCREEN"))
        let info = s.run(xwininfo, ["-id", window]).stdout
        #expect(info.contains("Width: \(T.screen.width)") && info.contains("Height: \(T.screen.height)"), "\(info)")

        // A swipe up on the left stack (press, move 120 px up, release) shows its next widget.
        _ = s.run(xdotool, ["mousemove", "300", "500", "mousedown", "1", "mousemove", "300", "440", "mousemove", "300", "380", "mouseup", "1"])
        expectShown([T.stats, T.clocky])
        // To look at: SCENE_PICTURES=DIR keeps the screens.
        let keep = { (name: String) in
            if let dir = getenv("SCENE_PICTURES").map({ String(cString: $0) }) { _ = s.run(capture, ["-window", "root", dir + "/" + name]) }
        }
        keep("standby-x11.png")
        desktop.signal(SIGTERM)
        _ = desktop.waitForExit(timeout: Self.patience)

        // Night mode: the same screen in red of its own brightness.
        let night = try s.startDesktop(arguments: ["--standby", "--night"])
        expectShown([T.habit, T.clocky], night: true)
        keep("standby-x11-night.png")
        let image = try #require(shot())
        let coloured = stride(from: 0, to: image.pixels.count, by: 7).filter { image.pixels[$0] & 0xFFFF > 0x0202 }.count
        #expect(coloured == 0, "\(coloured) sampled pixels have green or blue\n\(night.stderr)")
    }

    /// Pixels of `widget`'s place in `image` (the screen) that differ by more than 8 from its
    /// dark picture rendered at `scale` × zoom over black (in red of its brightness with `night`).
    static func differing(_ image: PixelImage, widget w: DesktopPlacement.Widget, scale: Double = 2, night: Bool) -> Int {
        let view: ViewNode = w.id == T.habit ? LeanTrees.habit(count: 0) : w.id == T.stats ? LeanTrees.stats : LeanTrees.clocky
        guard let png = try? PictureRenderer().render(view, family: w.family, format: .png,
                                                      options: PictureOptions(scale: scale * w.zoom, appearance: .dark, now: LeanTrees.date)),
              let picture = PixelImage.decodePNG(png.bytes) else { return Int.max }
        let (ox, oy) = WidgetDesktopScene.DesktopScene.pixelOrigin(of: w.frame, scale: scale)
        let x0 = Int(ox), y0 = Int(oy)
        guard x0 >= 0, y0 >= 0, x0 + picture.width <= image.width, y0 + picture.height <= image.height else { return Int.max }
        var count = 0
        for y in 0..<picture.height {
            for x in 0..<picture.width {
                let over = picture.pixels[y * picture.width + x] | 0xFF00_0000
                let want = night ? NightTint.tinted(over) : over
                let got = image.pixels[(y0 + y) * image.width + x0 + x]
                if Self.channelDistance(want, got) > 8 { count += 1 }
            }
        }
        return count
    }

    /// The largest difference of one channel of two ARGB pixels.
    static func channelDistance(_ a: UInt32, _ b: UInt32) -> Int {
        var worst = 0
        for shift: UInt32 in [0, 8, 16, 24] {
            let d = abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF))
            worst = max(worst, d)
        }
        return worst
    }
}
