import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetGraphics
#if canImport(Glibc)
import Glibc
#endif

/// Issue 28 item 10: the accented rendering mode end to end, with the real binaries and the
/// Habit example — `preview --tint` through the worker and `widgethost-render --job`, and a
/// daemon whose `picture.renderingMode` is "accented" through `widgethost-render --serve`. In
/// both the widget's container background gives way to the tint's dark backdrop: for
/// #FF8000, 0.08 + 0.17 × (1, 0.5, 0) = (64, 42, 20).
@Suite struct AccentedModeTests {
    static let backdrop = (64, 42, 20)

    /// The pixel at (`x`, `y`) of a PNG as (r, g, b).
    func rgb(_ png: [UInt8]?, _ x: Int, _ y: Int) throws -> (Int, Int, Int) {
        let img = try #require(png.flatMap(PixelImage.decodePNG))
        let p = img.pixels[y * img.width + x]
        return (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
    }

    func isBackdrop(_ c: (Int, Int, Int)) -> Bool {
        abs(c.0 - Self.backdrop.0) <= 1 && abs(c.1 - Self.backdrop.1) <= 1 && abs(c.2 - Self.backdrop.2) <= 1
    }

    @Test func previewTintDrawsTheAccentedMode() throws {
        let dir = TempDir(); defer { dir.remove() }
        func snapshot(_ extra: [String], into name: String) throws -> [UInt8]? {
            let r = run(TestPaths.widgethost, ["preview", TestPaths.plugin("HabitWidget"), "--kind", "MyAppWidget", "--family", "systemSmall",
                                               "--scale", "1", "--png", dir.path + "/" + name] + extra)
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
            return FileManagerFree.bytes(dir.path + "/" + name + "/MyAppWidget-systemSmall-snapshot.png")
        }
        // The top middle of the widget, inside its content margins: only the background.
        let tinted = try rgb(snapshot(["--tint", "#FF8000"], into: "tinted"), 79, 4)
        let full = try rgb(snapshot([], into: "full"), 79, 4)
        #expect(isBackdrop(tinted), "\(tinted)")
        #expect(!isBackdrop(full), "\(full)")
        let bad = run(TestPaths.widgethost, ["preview", TestPaths.plugin("HabitWidget"), "--tint", "chartreuse"])
        #expect(bad.status != 0 && bad.stderr.contains("--tint 'chartreuse' is not a colour name"), "\(bad.stderr)")
    }

    @Test func theDaemonDrawsAWidgetWhosePictureRenderingModeIsAccented() throws {
        let d = try RunningDaemon(config: """
        {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "state/control.sock"},
         "widgets": [{"id": "tinted", "kind": "MyAppWidget", "family": "systemSmall", "outputs": ["png"],
                      "picture": {"scale": 1, "renderingMode": "accented", "tint": "#FF8000"}},
                     {"id": "full", "kind": "MyAppWidget", "family": "systemSmall", "outputs": ["png"], "picture": {"scale": 1}}]}
        """) { dir in
            _ = run("/bin/cp", [TestPaths.plugin("HabitWidget"), dir + "/Plugins/HabitWidget.so"])
        }
        func png(_ id: String) -> [UInt8]? { FileManagerFree.bytes(d.dir.path + "/out/" + id + ".png") }
        #expect(eventually(timeout: 30) { png("tinted") != nil && png("full") != nil }, "stderr:\n\(d.stderr.suffix(3000))")
        #expect(isBackdrop(try rgb(png("tinted"), 79, 4)))
        #expect(!isBackdrop(try rgb(png("full"), 79, 4)))
    }
}
