import CCairo
import FoundationEssentials
import OpenWidgetKit
@testable import WidgetGraphics
import WidgetDesktopScene
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The pinned font set of the picture goldens (Tests/WidgetGraphicsTests/Fixtures/fonts.conf),
/// set before the first Pango call of the test process.
enum SceneFonts {
    static let configured: Bool = {
        let file = #filePath
        let tests = String(file[..<file.lastIndex(of: "/")!].dropLast("/WidgetDesktopSceneTests".count))
        setenv("FONTCONFIG_FILE", tests + "/WidgetGraphicsTests/Fixtures/fonts.conf", 1)
        return true
    }()
}

let fixedNow = Date(timeIntervalSince1970: 1_773_569_400)  // 2026-03-15 10:10:00 UTC

func tree<V: View>(_ view: V) -> ViewNode { ViewEvaluator.evaluate(view, environment: EnvironmentValues()) }

struct LogIntent: AppIntent {
    static let title: LocalizedStringResource = "Log Habit"
    init() {}
    func perform() async throws -> some IntentResult { .result() }
}

/// A clock whose seconds are their own text: "10:10" and ":ss", digits of one width.
func clock(seconds: Int) -> ViewNode {
    tree(VStack(alignment: .leading) {
        Text("Clock").font(.caption)
        HStack(spacing: 0) {
            Text("10:10").font(.system(size: 34)).monospacedDigit()
            Text(":" + (seconds < 10 ? "0" : "") + String(seconds)).font(.system(size: 20)).monospacedDigit()
        }
        Spacer()
    }.containerBackground(for: .widget) { Color.blue })
}

/// A habit widget with a title on top and a button.
func habit(count: Int = 3) -> ViewNode {
    tree(VStack(alignment: .leading) {
        Text("Water").font(.headline)
        Text("\(count) glasses").font(.caption)
        Spacer()
        Button("Log", intent: LogIntent())
    }.widgetURL(URL(string: "habit://water")!))
}

func widget(_ id: String, _ family: WidgetFamily = .systemSmall, view: ViewNode?, stale: Bool = false, running: Bool = true) -> DesktopViewMessage.Widget {
    DesktopViewMessage.Widget(id: id, kind: id, family: family, view: view, entryDate: fixedNow, stale: stale, running: running)
}

func layout(_ ids: [String], anchor: String = "top-left", margin: Double = 32, columns: Int = 2, dark: Bool? = false) -> DesktopViewMessage.Layout {
    DesktopViewMessage.Layout(widgets: ids, anchor: anchor, margin: margin, gap: 22, columns: columns, scale: 1, dark: dark)
}

func snapshot(_ widgets: [DesktopViewMessage.Widget], layout l: DesktopViewMessage.Layout? = nil) -> DesktopViewMessage {
    DesktopViewMessage(snapshot: true, layout: l ?? layout(widgets.map(\.id)), widgets: widgets, removed: [])
}

func change(_ widgets: [DesktopViewMessage.Widget], removed: [String] = []) -> DesktopViewMessage {
    DesktopViewMessage(snapshot: false, layout: nil, widgets: widgets, removed: removed)
}

func output(_ id: DisplayOutput.ID = 1, scale: Double = 1, width: Double = 1280, height: Double = 800) -> DisplayOutput {
    DisplayOutput(id: id, connector: "HEADLESS-\(id)", logicalWidth: width, logicalHeight: height, scale: scale, isPrimary: true)
}

/// Memory lent as a `PixelBuffer`, as a backend's shm pool would.
final class TestBuffer {
    let width: Int, height: Int, stride: Int, scale: Double, output: DisplayOutput.ID
    let memory: UnsafeMutableRawPointer
    var age = 0

    init(scene: DesktopScene, output: DisplayOutput.ID = 1, scale: Double) {
        let size = scene.placement(on: output)!.pixelSize(scale: scale)
        width = size.width; height = size.height; self.scale = scale; self.output = output
        stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        memory = .allocate(byteCount: stride * height, alignment: 16)
        memset(memory, 0x5A, stride * height)   // garbage: what a fresh shm buffer may hold
    }

    deinit { memory.deallocate() }

    var buffer: PixelBuffer {
        PixelBuffer(output: output, pixels: memory, width: width, height: height, stride: stride, scale: scale, age: age, token: 0)
    }

    /// Draws the scene's next frame into this buffer (then it holds the newest frame).
    @discardableResult
    func draw(_ scene: DesktopScene) -> [PixelRect] {
        let damage = scene.draw(into: buffer)
        return damage
    }

    /// The premultiplied ARGB pixel at (`x`, `y`).
    func pixel(x: Int, y: Int) -> UInt32 { (memory + y * stride + x * 4).loadUnaligned(as: UInt32.self) }

    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: memory, count: stride * height)) }

    /// The pixels of `rect` as a PNG round trip (as `PictureRenderer.render` gives them).
    func image(x: Int, y: Int, width w: Int, height h: Int) -> PixelImage? {
        guard let png = png(x: x, y: y, width: w, height: h) else { return nil }
        return PixelImage.decodePNG(png)
    }

    func png(x: Int = 0, y: Int = 0, width w: Int? = nil, height h: Int? = nil) -> [UInt8]? {
        let w = w ?? width, h = h ?? height
        let start = (memory + y * stride + x * 4).assumingMemoryBound(to: UInt8.self)
        let surface = cairo_image_surface_create_for_data(start, CAIRO_FORMAT_ARGB32, Int32(w), Int32(h), Int32(stride))!
        defer { cairo_surface_destroy(surface) }
        return PNGEncoder().encode(surface)
    }
}

/// A scene with `widgets` on one output of `scale`.
func scene(_ widgets: [DesktopViewMessage.Widget], layout l: DesktopViewMessage.Layout? = nil, scale: Double = 1) -> DesktopScene {
    _ = SceneFonts.configured
    let s = DesktopScene()
    s.setOutputs([output(scale: scale)])
    s.apply(snapshot(widgets, layout: l), now: fixedNow)
    return s
}

/// Writes the buffer as a PNG to `$SCENE_PICTURES/<name>.png` when that variable is set (to look at).
func keep(_ b: TestBuffer, _ name: String) {
    guard let dir = getenv("SCENE_PICTURES").map({ String(cString: $0) }) else { return }
    // Over a grey wallpaper, as on a desktop.
    let wallpaper = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(b.width), Int32(b.height))!
    let shown = cairo_image_surface_create_for_data(b.memory.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                    Int32(b.width), Int32(b.height), Int32(b.stride))!
    let cr = cairo_create(wallpaper)!
    cairo_set_source_rgb(cr, 0.35, 0.42, 0.5)
    cairo_paint(cr)
    cairo_set_source_surface(cr, shown, 0, 0)
    cairo_paint(cr)
    cairo_destroy(cr)
    _ = cairo_surface_write_to_png(wallpaper, dir + "/" + name + ".png")
    cairo_surface_destroy(shown)
    cairo_surface_destroy(wallpaper)
}
