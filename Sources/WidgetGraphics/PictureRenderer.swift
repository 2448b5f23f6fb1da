import CCairo
import FoundationEssentials
import OpenWidgetKit
import WidgetLayout
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// The file format of a picture.
public enum PictureFormat: String, Sendable, CaseIterable {
    case png, svg
}

/// How a widget is drawn.
public struct PictureOptions: Sendable {
    /// Pixels per point: 1, 2 or 3 (clamped to 1…4).
    public var scale: Double
    public var appearance: Appearance
    /// The instant live dates and timer progress are drawn at.
    public var now: Date
    /// Placeholder redaction: nil follows the tree, true redacts everything, false never.
    public var redact: Bool?
    /// Draw the accessory families on a dark backdrop, a stand-in for a Lock Screen wallpaper
    /// (default: transparent, as iOS floats an accessory on the wallpaper; a widget that wants
    /// a backing draws `AccessoryWidgetBackground()`).
    public var accessoryBackdrop: Bool
    /// Redact `privacySensitive` subtrees even when the entry is not a placeholder (the
    /// `.privacy` reason: a locked screen), as `RenderOptions.redactPrivate` does for text.
    public var redactPrivate: Bool
    /// The accented rendering mode (iOS 18's tinted Home Screen) in this tint (`AccentTint`):
    /// a system family's `widgetAccentable()` content is drawn in the tint, the rest in a pale
    /// tone of it, on a dark tinted backdrop instead of its container background. nil: full
    /// colour. The accessory families keep the Lock Screen's monochrome.
    public var tint: StyleSpec?

    public init(scale: Double = 2, appearance: Appearance = .light, now: Date, redact: Bool? = nil, accessoryBackdrop: Bool = false,
                redactPrivate: Bool = false, tint: StyleSpec? = nil) {
        self.scale = scale; self.appearance = appearance; self.now = now; self.redact = redact; self.accessoryBackdrop = accessoryBackdrop
        self.redactPrivate = redactPrivate; self.tint = tint
    }
}

/// An encoded picture and what could not be drawn faithfully.
public struct Picture: Sendable {
    public var bytes: [UInt8]
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// `Image(systemName:)` names with no icon in the map (drawn as the fallback box).
    public var unmappedSymbols: [String]
}

/// What a drawing could not do.
public struct PictureError: Error, CustomStringConvertible {
    public var description: String
}

/// Draws evaluated widget trees to PNG or SVG: the family's nominal size in points × scale,
/// the system families' rounded corner shape, container background and content margins, the
/// accessory families in the monochrome rendering mode.
///
/// Threading: one renderer per thread (it owns a `PangoText`). Time is bounded by
/// `LayoutLimits` (nodes, depth, text length).
public final class PictureRenderer {
    /// The text engine (its measurement cache persists across pictures).
    public let text = PangoText()
    /// The PNG encoder and its scratch buffer, kept across pictures.
    private let encoder = PNGEncoder()
    /// The pixels of the PNG surface, kept across pictures (zeroed before each): a fresh
    /// 400 KB surface per picture cost a fifth of a small PNG's time in page faults.
    private var pixels: UnsafeMutableRawPointer?
    private var pixelCapacity = 0
    /// The formats of live times and dates in pictures: the render process and the desktop
    /// programs pass the user's (`LocaleFormats.currentTime`), as the host's text outputs use it.
    public let locale: LocaleFormats

    public init(locale: LocaleFormats = .posix) { self.locale = locale }

    deinit { pixels?.deallocate() }

    /// Largest pixel buffer kept (a widget at scale 3 fits; a contact sheet gets its own).
    static let keptPixelBytes = 4 << 20

    /// A zeroed ARGB32 image surface of `pw` × `ph` over the kept pixel buffer (grown when
    /// needed), or a surface of its own when larger than `keptPixelBytes`. The surface must be
    /// destroyed before the next call.
    private func imageSurface(_ pw: Int, _ ph: Int) -> OpaquePointer? {
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(clamping: pw)))
        guard stride > 0, ph > 0, ph <= Self.keptPixelBytes / stride else {
            return cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(clamping: pw), Int32(clamping: ph))
        }
        let bytes = stride * ph
        if bytes > pixelCapacity {
            pixels?.deallocate()
            pixels = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
            pixelCapacity = bytes
        }
        guard let pixels else { return nil }
        memset(pixels, 0, bytes)
        return cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(clamping: pw), Int32(clamping: ph), Int32(clamping: stride))
    }

    /// Corner radius of a system family's widget shape, in points (iPhone).
    public static let cornerRadius = 22.0

    /// The laid-out tree of `root` in `family` (exposed for tests and benchmarks): the content
    /// is laid out inside the root's `contentMargins`, which the SDK sets to the family's iOS
    /// default (`WidgetFamily.defaultContentMargins`) or to zero after
    /// `.contentMarginsDisabled()`. A tree without them (an older SDK's) reaches the edges.
    /// In `accessoryInline` the tree is first reduced to the one line iOS shows
    /// (`InlineAccessoryLine`).
    public func layout(_ root: ViewNode, family: WidgetFamily, now: Date) -> PlacedNode {
        let s = family.nominalSize
        let bounds = Rect(x: 0, y: 0, width: s.width, height: s.height).inset(by: Self.contentMargins(root))
        let shown = family == .accessoryInline ? InlineAccessoryLine.reduce(root) : root
        return LayoutEngine(measurer: text, now: now, locale: locale).layout(shown, in: bounds)
    }

    /// `placed` (laid out by `layout` for the same tree and family at an earlier instant) as
    /// `layout` would give it at `now`, without laying it out when only live texts changed and
    /// the text engine vouches they measure as before (`LiveTextRestamp`); nil otherwise.
    public func restamp(_ placed: PlacedNode, now: Date) -> PlacedNode? {
        LiveTextRestamp.restamp(placed, now: now, locale: locale, measurer: text)
    }

    /// The root's content margins, each made finite and clamped to 0…40 pt (bad input draws);
    /// the leading one on the right of a root laid out right to left.
    static func contentMargins(_ root: ViewNode) -> Insets {
        guard let m = root.modifiers?.contentMargins else { return .zero }
        func one(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 40) : 0 }
        let rtl = root.modifiers?.other?[LayoutDirection.modifierKey] == .string(LayoutDirection.rightToLeft.rawValue)
        return Insets(top: one(m.top), leading: one(rtl ? m.trailing : m.leading), bottom: one(m.bottom), trailing: one(rtl ? m.leading : m.trailing))
    }

    /// The `containerBackground` of the tree: the root's or, as the SDK may wrap the root, the
    /// first one along the chain of only children.
    static func firstContainerBackground(_ root: ViewNode) -> StyleSpec? {
        var n: ViewNode? = root
        var depth = 0
        while let node = n, depth < 8 {
            if let c = node.modifiers?.containerBackground { return c }
            n = node.children?.count == 1 ? node.children?.first : nil
            depth += 1
        }
        return nil
    }

    /// One widget as a picture. `placed`: its layout (`layout(root, family:, now: options.now)`)
    /// when the caller has it already — the render process lays a tree out once for its PNG, its
    /// SVG and its regions.
    public func render(_ root: ViewNode, family: WidgetFamily, format: PictureFormat, options: PictureOptions,
                       placed: PlacedNode? = nil) throws -> Picture {
        let size = family.nominalSize
        return try draw(width: size.width, height: size.height, format: format, options: options) { painterFor in
            self.drawWidget(root, family: family, at: (0, 0), options: options, placed: placed, painterFor: painterFor)
        }
    }

    /// Paints one widget onto the caller's Cairo context `cr` (device space in pixels): its
    /// top-left at pixel (`x`, `y`), `options.scale` pixels per point, laid out as `placed`
    /// (`layout(root, family:, now: options.now)`). Where `x` and `y` are whole pixels, the
    /// pixels equal those of `render(root, …, format: .png)` moved by (`x`, `y`), over what the
    /// context holds. Draws only: the clip, the operator and the surface are the caller's
    /// (the context is left as it was found). Returns the `Image(systemName:)` names drawn as
    /// the fallback box. Threading: the renderer's (one thread).
    @discardableResult
    public func paint(_ root: ViewNode, family: WidgetFamily, placed: PlacedNode, on cr: OpaquePointer,
                      atPixelX x: Double, y: Double, options: PictureOptions) -> [String] {
        var unmapped: Set<String> = []
        cairo_save(cr)
        cairo_translate(cr, x, y)
        let scale = Self.clampedScale(options.scale)
        cairo_scale(cr, scale, scale)
        drawWidget(root, family: family, at: (0, 0), options: options, placed: placed) { palette in
            self.painter(on: cr, palette: palette, options: options) { unmapped.formUnion($0) }
        }
        cairo_restore(cr)
        return unmapped.sorted()
    }

    /// `PictureOptions.scale` as drawn: clamped to 1…4, 2 when not a number.
    public static func clampedScale(_ scale: Double) -> Double {
        scale.isFinite ? min(max(scale, 1), 4) : 2
    }

    /// A contact sheet: one row per item, each family side by side, a caption above each.
    public func renderSheet(title: String, rows: [(caption: String, cells: [(family: WidgetFamily, tree: ViewNode)])],
                            format: PictureFormat, options: PictureOptions) throws -> Picture {
        let gap = 24.0, captionHeight = 18.0, titleHeight = 30.0
        var width = 0.0, height = gap + titleHeight
        for row in rows {
            var w = gap, h = 0.0
            for c in row.cells { w += c.family.nominalSize.width + gap; h = max(h, c.family.nominalSize.height) }
            width = max(width, w)
            height += captionHeight * 2 + h + gap
        }
        width = max(width, 300)
        return try draw(width: width, height: height, format: format, options: options) { painterFor in
            let cr = painterFor(nil).cr
            let bg = options.appearance == .dark ? RGBA(0.1, 0.1, 0.11) : RGBA(0.8, 0.8, 0.83)
            cairo_set_source_rgba(cr, bg.r, bg.g, bg.b, 1)
            cairo_paint(cr)
            let ink = options.appearance == .dark ? RGBA(1, 1, 1) : RGBA(0, 0, 0)
            func caption(_ s: String, _ x: Double, _ y: Double, size: Double, weight: Int, alpha: Double) {
                cairo_set_source_rgba(cr, ink.r, ink.g, ink.b, alpha)
                self.text.configure(s, font: ResolvedFont(size: size, weight: weight), width: width - x - gap, maxLines: 1)
                self.text.show(on: cr, x: x, y: y)
            }
            caption(title, gap, gap, size: 20, weight: 700, alpha: 1)
            var y = gap + titleHeight
            for row in rows {
                caption(row.caption, gap, y, size: 14, weight: 600, alpha: 0.85)
                var x = gap, h = 0.0
                for c in row.cells {
                    caption(c.family.rawValue, x, y + captionHeight, size: 11, weight: 400, alpha: 0.6)
                    self.drawWidget(c.tree, family: c.family, at: (x, y + captionHeight * 2), options: options, painterFor: painterFor)
                    x += c.family.nominalSize.width + gap
                    h = max(h, c.family.nominalSize.height)
                }
                y += captionHeight * 2 + h + gap
            }
        }
    }

    // MARK: drawing

    /// Creates the surface, scales it, runs `body`, encodes. `body` gets a function that makes
    /// a painter for a palette (nil: light full colour) on the surface's context.
    private func draw(width: Double, height: Double, format: PictureFormat, options: PictureOptions,
                      _ body: (_ painterFor: (Palette?) -> WidgetPainter) -> Void) throws -> Picture {
        let scale = Self.clampedScale(options.scale)
        let pw = Int(saturating: (width * scale).rounded()), ph = Int(saturating: (height * scale).rounded())
        let sink = ByteSink()
        let surface: OpaquePointer?
        switch format {
        case .png: surface = imageSurface(pw, ph)
        case .svg: surface = cairo_svg_surface_create_for_stream(ByteSink.write, Unmanaged.passUnretained(sink).toOpaque(), Double(pw), Double(ph))
        }
        guard let surface, cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            if let surface { cairo_surface_destroy(surface) }
            throw PictureError(description: "cannot create a \(pw)×\(ph) \(format.rawValue) surface")
        }
        let cr = cairo_create(surface)!
        cairo_scale(cr, scale, scale)
        var unmapped: Set<String> = []
        body { palette in self.painter(on: cr, palette: palette, options: options) { unmapped.formUnion($0) } }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        if format == .png {
            if let png = encoder.encode(surface) { sink.bytes = png } else { sink.failed = true }
        }
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        guard status == CAIRO_STATUS_SUCCESS, !sink.failed else {
            throw PictureError(description: "cairo could not encode the \(format.rawValue): \(String(cString: cairo_status_to_string(status)))")
        }
        let bytes = format == .svg ? SVGStableIDs.renumber(sink.bytes) : sink.bytes
        return Picture(bytes: bytes, pixelWidth: pw, pixelHeight: ph, unmappedSymbols: unmapped.sorted())
    }

    /// A painter on `cr` for `palette` (nil: `options`' appearance in full colour) that reports
    /// the symbols it could not draw to `unmapped` when it finishes.
    private func painter(on cr: OpaquePointer, palette: Palette?, options: PictureOptions,
                         unmapped: @escaping (Set<String>) -> Void) -> WidgetPainter {
        let p = WidgetPainter(cr: cr, text: text, palette: palette ?? Palette(appearance: options.appearance, mode: .fullColor),
                              now: options.now, redaction: options.redact)
        p.onFinish = unmapped
        p.redactPrivate = options.redactPrivate
        return p
    }

    /// Draws one widget with its top-left at `origin` (points).
    private func drawWidget(_ root: ViewNode, family: WidgetFamily, at origin: (Double, Double), options: PictureOptions,
                            placed given: PlacedNode? = nil, painterFor: (Palette?) -> WidgetPainter) {
        let mode: RenderingMode = family.isAccessory ? .monochrome : .fullColor
        let palette = Palette(appearance: family.isAccessory ? .dark : options.appearance, mode: mode)
        let painter = painterFor(palette)
        painter.family = family
        if !family.isAccessory, let tint = options.tint {
            painter.accented = AccentedColors(tint: Palette(appearance: .light, mode: .fullColor).color(tint, foreground: nil, tint: nil))
        }
        defer { painter.finish() }
        let cr = painter.cr
        let s = family.nominalSize
        let frame = Rect(x: 0, y: 0, width: s.width, height: s.height)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_translate(cr, origin.0, origin.1)
        if family.isAccessory {
            // iOS clips every accessory family to its shape: the circle, the rounded band.
            if family == .accessoryCircular { painter.shapePath("circle", frame, cornerRadius: 0) } else { painter.roundedRect(frame, radius: family == .accessoryInline ? 4 : 12) }
            cairo_clip_preserve(cr)
            if options.accessoryBackdrop {
                cairo_set_source_rgba(cr, 0.16, 0.2, 0.27, 1)
                cairo_fill(cr)
            } else {
                cairo_new_path(cr)
            }
        } else {
            painter.roundedRect(frame, radius: Self.cornerRadius)
            cairo_clip(cr)
            // Accented, the container background gives way to the tint's dark backdrop.
            let base = painter.accented?.backdrop ?? palette.widgetBackground
            cairo_set_source_rgba(cr, base.r, base.g, base.b, 1)
            cairo_paint(cr)
            if painter.accented == nil, let bg = Self.firstContainerBackground(root) {
                painter.setStyle(bg, PaintEnvironment(), in: frame)
                cairo_paint(cr)
            }
        }
        let placed = given ?? layout(root, family: family, now: options.now)
        var env = PaintEnvironment()
        if options.redact == true || (options.redact == nil && root.modifiers?.redacted == true) { env.redacted = true }
        painter.paint(placed, env)
    }
}

/// Collects the bytes Cairo writes (PNG and SVG streams). Used on the drawing thread only.
final class ByteSink {
    var bytes: [UInt8] = []
    var failed = false
    static let limit = 256 << 20

    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        guard sink.bytes.count + Int(length) <= limit else { sink.failed = true; return CAIRO_STATUS_WRITE_ERROR }
        sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
        return CAIRO_STATUS_SUCCESS
    }
}
