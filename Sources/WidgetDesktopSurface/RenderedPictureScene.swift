import CCairo
import FoundationEssentials
import OpenWidgetKit
import WidgetDesktopScene
import WidgetGraphics
import WidgetHostCore
import WidgetLayout
import WidgetRendering

/// The scene the lean surface runs until `WidgetDesktopScene.DesktopScene` replaces it: the
/// streamed widgets on the `desktop` grid (`DesktopGrid`) of the primary output, each drawn in
/// process by `PictureRenderer` at the output's scale (the same pixels the render process would
/// write as PNG) and copied into the lent buffer; the damage of a widget redrawn is the box of
/// the pixels that changed (a ticking clock damages its seconds). A stale widget is dimmed to
/// 45 % with a "stale" mark, every widget with "not running" while no host streams.
///
/// Threading: the surface's one thread (it owns a `PictureRenderer`). Not `Sendable`.
public final class RenderedPictureScene: SurfaceScene {
    public private(set) var layout: DesktopViewMessage.Layout?
    private var widgets: [String: DesktopViewMessage.Widget] = [:]
    /// Bumped whenever what a widget shows may have changed; an output redraws a widget whose
    /// drawn version is older.
    private var versions: [String: Int] = [:]
    private var nextVersion = 1
    /// Per output: the placement drawn, and each widget's version and dimming drawn.
    private var drawn: [DisplayOutput.ID: (placement: ScenePlacement, versions: [String: Int], dimmed: Set<String>)] = [:]
    /// The last picture drawn of each widget: at which scale and instant.
    private var pictures: [String: DrawnPicture] = [:]
    private struct DrawnPicture { var version: Int; var scale: Double; var at: Date; var image: PixelImage; var placed: PlacedNode }
    private let renderer = PictureRenderer()
    /// Reports a widget that cannot be drawn (once per widget and version).
    public var log: (String) -> Void = { _ in }

    public init() {}

    public var hostRunning = true {
        didSet { if hostRunning != oldValue { for id in widgets.keys { bump(id) } } }
    }

    @discardableResult public func apply(_ message: DesktopViewMessage) -> Bool {
        if message.snapshot {
            layout = message.layout ?? layout
            widgets = [:]
            pictures = [:]
            drawn = [:]
        }
        for id in message.removed { widgets[id] = nil; pictures[id] = nil; versions[id] = nil }
        for w in message.widgets where widgets[w.id] != w {
            widgets[w.id] = w
            bump(w.id)
        }
        return message.snapshot || !message.widgets.isEmpty || !message.removed.isEmpty
    }

    private func bump(_ id: String) {
        versions[id] = nextVersion
        nextVersion += 1
    }

    /// The widgets shown, in the layout's order: those with a view.
    private var shown: [DesktopViewMessage.Widget] {
        (layout?.widgets ?? widgets.keys.sorted()).compactMap { widgets[$0] }.filter { $0.view != nil }
    }

    public func placement(on output: DisplayOutput, among outputs: [DisplayOutput]) -> ScenePlacement? {
        guard let layout, output.id == (outputs.first(where: \.isPrimary) ?? outputs.first)?.id else { return nil }
        let grid = DesktopGrid(widgets: shown.map { ($0.id, $0.family) }, columns: layout.columns, gap: layout.gap)
        guard !grid.items.isEmpty else { return nil }
        let anchor = DesktopConfig.Anchor(rawValue: layout.anchor) ?? .topRight
        let left = anchor == .topLeft || anchor == .bottomLeft, top = anchor == .topLeft || anchor == .topRight
        let margin = layout.margin.isFinite ? layout.margin : 0
        let x = left ? margin : output.logicalWidth - margin - grid.width
        let y = top ? margin : output.logicalHeight - margin - grid.height
        return ScenePlacement(output: output.id, scale: output.scale,
                              area: LogicalRect(x: x, y: y, width: grid.width, height: grid.height), items: grid.items)
    }

    public func needsFrame(_ placement: ScenePlacement) -> Bool {
        guard let d = drawn[placement.output], d.placement == placement else { return true }
        return d.placement.items.contains { d.versions[$0.id] != versions[$0.id] }
    }

    public func nextTick(after now: Date) -> Date? {
        shown.compactMap { w in w.view.flatMap { LiveDateFormatter.nextChange(of: $0, after: now) } }.min()
    }

    public func tick(now: Date) {
        for (id, p) in pictures {
            guard let view = widgets[id]?.view, let next = LiveDateFormatter.nextChange(of: view, after: p.at), next <= now else { continue }
            bump(id)
        }
    }

    public func draw(_ buffer: PixelBuffer, placement: ScenePlacement, now: Date) -> [PixelRect] {
        let previous = drawn[buffer.output]
        let whole = buffer.age != 1 || previous?.placement != placement
        var damage: [PixelRect] = []
        if whole { clear(buffer, PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)) }
        var versionsDrawn: [String: Int] = [:], dimmed: Set<String> = []
        let s = buffer.scale
        for item in placement.items {
            guard let w = widgets[item.id], let version = versions[item.id] else { continue }
            versionsDrawn[item.id] = version
            if !whole && previous?.versions[item.id] == version { continue }
            let old = pictures[item.id]
            guard let picture = picture(of: w, version: version, scale: s, now: now) else { continue }
            let origin = (x: Int((item.x * s).rounded()), y: Int((item.y * s).rounded()))
            let dim = w.stale || !w.running || !hostRunning
            if dim { dimmed.insert(item.id) }
            var box = PixelRect(x: 0, y: 0, width: picture.image.width, height: picture.image.height)
            if !whole, !dim, previous?.dimmed.contains(item.id) == false, let old, old.scale == s, !old.image.pixels.isEmpty,
               let changed = Self.changedBox(old.image, picture.image) {
                box = changed
            }
            copy(picture.image, into: buffer, at: origin, box: box, alpha: dim ? 0.45 : 1)
            if dim { mark(buffer, at: origin, text: hostRunning && w.running ? "stale" : "not running") }
            damage.append(PixelRect(x: origin.x + box.x, y: origin.y + box.y, width: box.width, height: box.height))
        }
        drawn[buffer.output] = (placement, versionsDrawn, dimmed)
        return whole ? [PixelRect(x: 0, y: 0, width: buffer.width, height: buffer.height)] : damage
    }

    public func hit(x: Double, y: Double, placement: ScenePlacement, now: Date) -> SceneHit? {
        guard let item = placement.items.first(where: { x >= $0.x && x < $0.x + $0.width && y >= $0.y && y < $0.y + $0.height }) else { return nil }
        let px = x - item.x, py = y - item.y
        var target: String?
        pictures[item.id]?.placed.walk { p in
            guard p.node.kind == .button || p.node.kind == .toggle, let id = p.node.action?.id else { return }
            let f = p.frame
            if px >= f.x && px < f.x + f.width && py >= f.y && py < f.y + f.height { target = id }
        }
        return SceneHit(widget: item.id, target: target, pixelX: px * placement.scale, pixelY: py * placement.scale)
    }

    // MARK: - Pictures

    private func picture(of w: DesktopViewMessage.Widget, version: Int, scale: Double, now: Date) -> DrawnPicture? {
        if let p = pictures[w.id], p.version == version, p.scale == scale { return p }
        guard let view = w.view else { return nil }
        let appearance: Appearance = layout?.dark == true ? .dark : .light
        let options = PictureOptions(scale: scale, appearance: appearance, now: now)
        let placed = renderer.layout(view, family: w.family, now: now)
        do {
            let png = try renderer.render(view, family: w.family, format: .png, options: options, placed: placed)
            guard let image = PixelImage.decodePNG(png.bytes) else {
                log("\(w.id) cannot be drawn: its picture could not be decoded")
                return nil
            }
            let p = DrawnPicture(version: version, scale: scale, at: now, image: image, placed: placed)
            pictures[w.id] = p
            return p
        } catch {
            log("\(w.id) cannot be drawn: \(error)")
            return nil
        }
    }

    /// The smallest box holding every pixel that differs between two pictures of one size
    /// (nil when none does, or the sizes differ).
    static func changedBox(_ a: PixelImage, _ b: PixelImage) -> PixelRect? {
        guard a.width == b.width, a.height == b.height else { return nil }
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in 0..<a.height {
            let row = y * a.width
            for x in 0..<a.width where a.pixels[row + x] != b.pixels[row + x] {
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
        }
        guard x1 >= 0 else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    // MARK: - Pixels

    private func clear(_ buffer: PixelBuffer, _ r: PixelRect) {
        for y in max(0, r.y)..<min(buffer.height, r.y + r.height) {
            let row = buffer.pixels + y * buffer.stride + max(0, r.x) * 4
            memset(row, 0, max(0, min(buffer.width, r.x + r.width) - max(0, r.x)) * 4)
        }
    }

    /// Copies `box` of `image` (premultiplied ARGB) to `origin + box` in `buffer`, every channel
    /// times `alpha`, clipped to the buffer.
    private func copy(_ image: PixelImage, into buffer: PixelBuffer, at origin: (x: Int, y: Int), box: PixelRect, alpha: Double) {
        let k = UInt32((alpha * 256).rounded())
        for y in box.y..<(box.y + box.height) {
            let by = origin.y + y
            guard by >= 0, by < buffer.height else { continue }
            let row = (buffer.pixels + by * buffer.stride).assumingMemoryBound(to: UInt32.self)
            for x in box.x..<(box.x + box.width) {
                let bx = origin.x + x
                guard bx >= 0, bx < buffer.width else { continue }
                let p = image.pixels[y * image.width + x]
                if k >= 256 { row[bx] = p; continue }
                var q: UInt32 = 0
                for shift: UInt32 in [0, 8, 16, 24] { q |= ((((p >> shift) & 0xFF) * k) >> 8) << shift }
                row[bx] = q
            }
        }
    }

    /// A small dark pill with `text` at the widget's top-left corner (8 pt in).
    private func mark(_ buffer: PixelBuffer, at origin: (x: Int, y: Int), text: String) {
        guard let surface = cairo_image_surface_create_for_data(buffer.pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                                 Int32(buffer.width), Int32(buffer.height), Int32(buffer.stride)) else { return }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return }
        defer { cairo_destroy(cr) }
        let s = buffer.scale
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, 11 * s)
        var ext = cairo_text_extents_t()
        cairo_text_extents(cr, text, &ext)
        let pad = 6 * s, h = 18 * s
        let x = Double(origin.x) + 8 * s, y = Double(origin.y) + 8 * s, w = ext.x_advance + 2 * pad
        let r = h / 2
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -Double.pi / 2, Double.pi / 2)
        cairo_arc(cr, x + r, y + r, r, Double.pi / 2, 3 * Double.pi / 2)
        cairo_close_path(cr)
        cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.85)
        cairo_fill(cr)
        cairo_set_source_rgba(cr, 1, 1, 1, 1)
        cairo_move_to(cr, x + pad, y + h / 2 - ext.y_bearing - ext.height / 2)
        cairo_show_text(cr, text)
        cairo_surface_flush(surface)
    }
}
