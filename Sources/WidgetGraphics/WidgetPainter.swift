import CCairo
import FoundationEssentials
import OpenWidgetKit
import WidgetLayout
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// The inherited drawing state: SwiftUI's environment reduced to what changes pixels.
struct PaintEnvironment {
    var foreground: StyleSpec?
    var tint: StyleSpec?
    var opacity = 1.0
    var redacted = false
    /// Inside `widgetAccentable()`: drawn in the tint in the accented rendering mode.
    var accentable = false
    /// Laid out right to left (`LayoutDirection`): bars fill from the right.
    var rightToLeft = false

    /// The environment under a node carrying `m`. `redactionAllowed` is the picture's
    /// `redact` option (false: never redact); `redactPrivate` redacts `privacySensitive`
    /// subtrees (the `.privacy` reason, as on a locked screen).
    func applying(_ m: Modifiers?, redactionAllowed: Bool?, redactPrivate: Bool = false) -> PaintEnvironment {
        guard let m else { return self }
        var e = self
        if let f = m.foreground { e.foreground = f }
        if let t = m.tint { e.tint = t }
        if let o = m.opacity, o.isFinite { e.opacity *= min(max(o, 0), 1) }
        if let other = m.other {
            if case .bool(let a)? = other["widgetAccentable"] { e.accentable = a }
            if case .string(let d)? = other[LayoutDirection.modifierKey] { e.rightToLeft = d == LayoutDirection.rightToLeft.rawValue }
        }
        if redactionAllowed != false, let r = m.redacted { e.redacted = r || redactionAllowed == true }
        if redactionAllowed != false, redactPrivate, m.privacySensitive == true { e.redacted = true }
        return e
    }
}

/// Draws a laid-out tree (`PlacedNode`) on a Cairo context in points: text through `PangoText`,
/// shapes, controls, symbols. Holds no policy: what to draw comes from the tree, how from the
/// palette. Threading: used on one thread (it shares the `PangoText`).
final class WidgetPainter {
    /// The context drawn on (a blurred subtree draws on an offscreen one meanwhile).
    private(set) var cr: OpaquePointer
    let text: PangoText
    let palette: Palette
    let now: Date
    let redaction: Bool?
    /// Redact `privacySensitive` subtrees.
    var redactPrivate = false
    /// SF Symbol names drawn as the fallback box.
    var unmapped: Set<String> = []
    /// Called by `finish()` with `unmapped`.
    var onFinish: ((Set<String>) -> Void)?
    /// The family drawn: the shape `AccessoryWidgetBackground` takes (nil: a rounded rectangle).
    var family: WidgetFamily?
    /// The accented rendering mode (`AccentedColors`); nil: colours as they are.
    var accented: AccentedColors?
    private var painted = 0

    init(cr: OpaquePointer, text: PangoText, palette: Palette, now: Date, redaction: Bool?) {
        self.cr = cr; self.text = text; self.palette = palette; self.now = now; self.redaction = redaction
    }

    /// Reports what could not be drawn (once, when the painter is done).
    func finish() { onFinish?(unmapped); onFinish = nil }

    func set(_ c: RGBA, _ env: PaintEnvironment) {
        let c = accented?.color(c, accentable: env.accentable) ?? c
        cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a * env.opacity)
    }

    /// Sets the source to `spec` (nil: the foreground) over `box`: a linear gradient when the
    /// style has stops, else its colour.
    func setStyle(_ spec: StyleSpec?, _ env: PaintEnvironment, in box: Rect) {
        // A placeholder keeps its shapes' and backgrounds' colours (iOS redacts text and
        // images only).
        let s = spec ?? env.foreground
        guard let stops = s?.gradient, stops.count > 1, stops.count <= 64 else {
            set(color(s, env), env)
            return
        }
        let colors = stops.map { stop in
            let c = palette.color(stop, foreground: env.foreground, tint: env.tint).with(alpha: env.opacity)
            return accented?.color(c, accentable: env.accentable) ?? c
        }
        let given = s?.gradientPoints.flatMap { $0.count == 4 && $0.allSatisfy { $0.isFinite && abs($0) < 1e6 } ? $0 : nil }
        let pattern: OpaquePointer
        switch s?.gradientKind {
        case "radial":
            // Centre in unit points, radii in points (SwiftUI's startRadius / endRadius).
            let p = given ?? [0.5, 0.5, 0, min(box.width, box.height) / 2]
            let cx = box.x + p[0] * box.width, cy = box.y + p[1] * box.height
            pattern = cairo_pattern_create_radial(cx, cy, max(0, p[2]), cx, cy, max(0, p[3]))
        case "elliptical":
            // SwiftUI's EllipticalGradient: radii as fractions of the box, so the ellipse
            // stretches with it (0.5: the ellipse inscribed in the box, centred).
            let p = given ?? [0.5, 0.5, 0, 0.5]
            guard box.width > 0, box.height > 0 else { cairo_set_source_rgba(cr, colors[0].r, colors[0].g, colors[0].b, colors[0].a); return }
            pattern = cairo_pattern_create_radial(p[0], p[1], max(0, p[2]), p[0], p[1], max(0, p[3]))
            var m = cairo_matrix_t()
            cairo_matrix_init_scale(&m, 1 / box.width, 1 / box.height)
            cairo_matrix_translate(&m, -box.x, -box.y)
            cairo_pattern_set_matrix(pattern, &m)
        case "angular":
            let p = given ?? [0.5, 0.5, 0, 360]
            pattern = angularPattern(colors, center: (box.x + p[0] * box.width, box.y + p[1] * box.height),
                                     from: p[2], to: p[3], reach: 2 * (box.width + box.height) + 1)
            cairo_set_source(cr, pattern)
            cairo_pattern_destroy(pattern)
            return
        default:
            let p = given ?? [0.5, 0, 0.5, 1]
            pattern = cairo_pattern_create_linear(box.x + p[0] * box.width, box.y + p[1] * box.height,
                                                  box.x + p[2] * box.width, box.y + p[3] * box.height)
        }
        for (i, c) in colors.enumerated() {
            cairo_pattern_add_color_stop_rgba(pattern, Double(i) / Double(colors.count - 1), c.r, c.g, c.b, c.a)
        }
        cairo_set_source(cr, pattern)
        cairo_pattern_destroy(pattern)
    }

    /// An angular gradient as a Cairo mesh (Cairo has no conic gradient): 5° wedges around
    /// `center`, each shaded from its start colour to its end colour; outside `from`…`to`
    /// (degrees, clockwise from the trailing side) the nearer end's colour, as SwiftUI pads.
    private func angularPattern(_ stops: [RGBA], center: (x: Double, y: Double), from start: Double, to end: Double, reach: Double) -> OpaquePointer {
        let mesh = cairo_pattern_create_mesh()!
        // Counter-clockwise: the same gradient clockwise with the stops reversed.
        let (from, to, colors) = end >= start ? (start, end, stops) : (end, start, Array(stops.reversed()))
        let sweep = to - from
        func color(atDegrees a: Double) -> RGBA {
            // a is in from..<from + 360; past `to` (a partial turn) the nearer end's colour.
            var t = sweep > 0 ? (a - from) / sweep : 0
            if t > 1 { t = (a - to) < (from + 360 - a) ? 1 : 0 }
            t = min(max(t, 0), 1) * Double(colors.count - 1)
            let i = min(max(Int(saturating: t), 0), colors.count - 2), f = t - Double(i)
            let a = colors[i], b = colors[i + 1]
            return RGBA(a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f, a.a + (b.a - a.a) * f)
        }
        let step = 5.0
        var a = from
        while a < from + 360 - 1e-9 {
            let b = min(a + step, from + 360)
            let c0 = color(atDegrees: a), c1 = color(atDegrees: b)
            cairo_mesh_pattern_begin_patch(mesh)
            cairo_mesh_pattern_move_to(mesh, center.x, center.y)
            cairo_mesh_pattern_line_to(mesh, center.x + cos(a * .pi / 180) * reach, center.y + sin(a * .pi / 180) * reach)
            cairo_mesh_pattern_line_to(mesh, center.x + cos(b * .pi / 180) * reach, center.y + sin(b * .pi / 180) * reach)
            for (corner, c) in [(0, c0), (1, c0), (2, c1), (3, c1)] {
                cairo_mesh_pattern_set_corner_color_rgba(mesh, UInt32(corner), c.r, c.g, c.b, c.a)
            }
            cairo_mesh_pattern_end_patch(mesh)
            a = b
        }
        return mesh
    }

    func color(_ spec: StyleSpec?, _ env: PaintEnvironment) -> RGBA {
        palette.color(spec ?? env.foreground, foreground: env.foreground, tint: env.tint)
    }

    func rect(_ r: Rect) { cairo_rectangle(cr, r.x, r.y, r.width, r.height) }

    func roundedRect(_ r: Rect, radius: Double) {
        let rad = max(0, min(radius, r.width / 2, r.height / 2))
        guard rad > 0 else { rect(r); return }
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.maxX - rad, r.y + rad, rad, -.pi / 2, 0)
        cairo_arc(cr, r.maxX - rad, r.maxY - rad, rad, 0, .pi / 2)
        cairo_arc(cr, r.x + rad, r.maxY - rad, rad, .pi / 2, .pi)
        cairo_arc(cr, r.x + rad, r.y + rad, rad, .pi, 1.5 * .pi)
        cairo_close_path(cr)
    }

    func capsule(_ r: Rect) { roundedRect(r, radius: min(r.width, r.height) / 2) }

    // MARK: the tree

    func paint(_ p: PlacedNode, _ parent: PaintEnvironment) {
        painted += 1
        guard painted <= LayoutLimits.maxNodes else { return }
        let m = p.node.modifiers
        if m?.hidden == true { return }
        let env = parent.applying(m, redactionAllowed: redaction, redactPrivate: redactPrivate)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        if let deg = m?.rotation, deg.isFinite, deg != 0 {
            cairo_translate(cr, p.frame.midX, p.frame.midY)
            cairo_rotate(cr, deg * .pi / 180)
            cairo_translate(cr, -p.frame.midX, -p.frame.midY)
        }
        if let scale = m?.other?["scaleEffect"], case .number(let s) = scale, s.isFinite, s > 0, s < 100 {
            cairo_translate(cr, p.frame.midX, p.frame.midY)
            cairo_scale(cr, s, s)
            cairo_translate(cr, -p.frame.midX, -p.frame.midY)
        }
        clip(p, m)
        if let radius = Self.blurRadius(m) {
            paintBlurred(p.frame, radius: radius) { self.paintShadowed(p, env) }
            return
        }
        paintShadowed(p, env)
    }

    /// `.blur(radius:)` from the tree: a finite radius in points, at most 100; nil when there
    /// is no blur or a radius of 0.
    static func blurRadius(_ m: Modifiers?) -> Double? {
        guard case .number(let r)? = m?.other?["blur"], r.isFinite, r > 0 else { return nil }
        return min(r, 100)
    }

    /// Draws `body` (a node) into an offscreen image of the device pixels it can reach — its
    /// `frame` grown by 3 σ, within the clip — blurs those pixels (`BoxBlur`, σ = the radius in
    /// device pixels, as SwiftUI's radius is the Gaussian's standard deviation) and lays them
    /// down where they were. An SVG gets the blurred pixels as an image.
    private func paintBlurred(_ frame: Rect, radius: Double, _ body: () -> Void) {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let perPoint = abs(m.xx * m.yy - m.xy * m.yx).squareRoot()
        let sigma = min(radius * perPoint, BoxBlur.maxSigma)
        guard sigma >= 0.5, perPoint > 0 else { body(); return }
        let grow = 3 * sigma / perPoint
        var clip = (x0: 0.0, y0: 0.0, x1: 0.0, y1: 0.0)
        cairo_clip_extents(cr, &clip.x0, &clip.y0, &clip.x1, &clip.y1)
        let x0 = max(frame.x - grow, clip.x0), y0 = max(frame.y - grow, clip.y0)
        let x1 = min(frame.maxX + grow, clip.x1), y1 = min(frame.maxY + grow, clip.y1)
        guard x1 > x0, y1 > y0 else { return }
        // The region's bounding box in device pixels.
        var dx0 = Double.infinity, dy0 = Double.infinity, dx1 = -Double.infinity, dy1 = -Double.infinity
        for (ux, uy) in [(x0, y0), (x1, y0), (x0, y1), (x1, y1)] {
            var x = ux, y = uy
            cairo_user_to_device(cr, &x, &y)
            dx0 = min(dx0, x); dy0 = min(dy0, y); dx1 = max(dx1, x); dy1 = max(dy1, y)
        }
        let px = dx0.rounded(.down), py = dy0.rounded(.down)
        let w = Int(saturating: (dx1.rounded(.up) - px)), h = Int(saturating: (dy1.rounded(.up) - py))
        guard w > 0, h > 0, w <= 4096, h <= 4096, let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h)) else { body(); return }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let offscreen = cairo_create(surface) else { body(); return }
        var om = m
        om.x0 -= px; om.y0 -= py
        cairo_set_matrix(offscreen, &om)
        let target = cr
        cr = offscreen
        body()
        cr = target
        cairo_destroy(offscreen)
        cairo_surface_flush(surface)
        if let data = cairo_image_surface_get_data(surface) {
            BoxBlur.blur(data, width: w, height: h, stride: Int(cairo_image_surface_get_stride(surface)), sigma: sigma)
        }
        cairo_surface_mark_dirty(surface)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, surface, px, py)
        cairo_paint(cr)
        cairo_restore(cr)
    }

    /// A node's content, with its `.shadow` under it when it has one.
    private func paintShadowed(_ p: PlacedNode, _ env: PaintEnvironment) {
        let m = p.node.modifiers
        if let shadow = Self.shadow(m), !env.redacted {
            // SwiftUI's shadow follows the drawn pixels: draw the node into a group, lay the
            // group's alpha down offset and spread (a blur of nine taps), then the group.
            cairo_push_group(cr)
            paintContent(p, env)
            let group = cairo_pop_group(cr)
            let taps = shadow.radius > 0.5 ? Self.blurTaps : [(0.0, 0.0)]
            for (dx, dy) in taps {
                cairo_save(cr)
                cairo_translate(cr, shadow.x + dx * shadow.radius / 2, shadow.y + dy * shadow.radius / 2)
                let c = shadow.color.map { color($0, env) } ?? RGBA(0, 0, 0, 0.33)
                cairo_set_source_rgba(cr, c.r, c.g, c.b, c.a / Double(taps.count))  // the group's alpha carries the opacity
                cairo_mask(cr, group)
                cairo_restore(cr)
            }
            cairo_set_source(cr, group)
            cairo_paint(cr)
            cairo_pattern_destroy(group)
            return
        }
        paintContent(p, env)
    }

    /// The centre and eight points around it: offsets (in radii) that spread a shadow.
    private static let blurTaps: [(Double, Double)] = [(0, 0)] + (0..<8).map { (cos(Double($0) * .pi / 4), sin(Double($0) * .pi / 4)) }

    /// `.shadow(color:radius:x:y:)` from the tree, its numbers finite and bounded, its colour
    /// nil when absent (iOS's default, black at 33 %); nil when there is no shadow.
    static func shadow(_ m: Modifiers?) -> (radius: Double, x: Double, y: Double, color: StyleSpec?)? {
        guard case .object(let o)? = m?.other?["shadow"] else { return nil }
        func num(_ k: String) -> Double {
            guard case .number(let v)? = o[k], v.isFinite else { return 0 }
            return min(max(v, -200), 200)
        }
        var color: StyleSpec?
        if case .object(let c)? = o["color"] {
            var s = StyleSpec()
            if case .string(let n)? = c["name"] { s.name = n }
            if case .array(let v)? = c["rgba"] { s.rgba = v.compactMap { if case .number(let x) = $0 { return x } else { return nil } } }
            if case .number(let a)? = c["opacity"] { s.opacity = a }
            if s.name != nil || s.rgba != nil { color = s }
        }
        return (max(0, num("radius")), num("x"), num("y"), color)
    }

    /// A node's background, own drawing and children (inside its transform and clip).
    private func paintContent(_ p: PlacedNode, _ env: PaintEnvironment) {
        let m = p.node.modifiers
        if let bg = m?.background {
            setStyle(bg, env, in: p.frame)
            rect(p.frame)
            cairo_fill(cr)
        }
        switch p.node.kind {
        case .text: paintText(p, env)
        case .image: paintImage(p, env)
        case .shape: paintShape(p, env)
        case .color:
            setStyle(p.node.shape?.fill ?? StyleSpec(name: p.node.text ?? "primary"), env, in: p.contentFrame)
            rect(p.contentFrame)
            cairo_fill(cr)
        case .divider:
            set(palette.separator, env)
            rect(p.contentFrame)
            cairo_fill(cr)
        case .progress: paintProgress(p, env)
        case .gauge: paintGauge(p, env)
        case .toggle: paintToggle(p, env)
        case .accessoryWidgetBackground: paintAccessoryBackground(p, env)
        case .button:
            let inner = buttonLabelEnvironment(p, env)
            paintBezel(p, inner)
            for c in p.children { paint(c, inner) }
            return
        default: break
        }
        for c in p.children { paint(c, env) }
    }

    /// `AccessoryWidgetBackground()`: the family's shape (a disc in `accessoryCircular`, a
    /// rounded rectangle elsewhere) in the foreground at 20 %, iOS's translucent backing.
    private func paintAccessoryBackground(_ p: PlacedNode, _ env: PaintEnvironment) {
        set(color(nil, env).with(alpha: 0.2), env)
        if family == .accessoryCircular {
            shapePath("circle", p.contentFrame, cornerRadius: 0)
        } else {
            roundedRect(p.contentFrame, radius: family == .accessoryInline ? 4 : 12)
        }
        cairo_fill(cr)
    }

    /// The environment of a button's label: the tint (the accent when none) for the automatic,
    /// borderless and bordered styles, white on the prominent bezel, the inherited foreground
    /// for `.plain` or when the button sets its own `foregroundStyle`.
    private func buttonLabelEnvironment(_ p: PlacedNode, _ env: PaintEnvironment) -> PaintEnvironment {
        guard p.node.style != "plain", p.node.modifiers?.foreground == nil else { return env }
        var e = env
        e.foreground = p.node.style == "borderedProminent" ? StyleSpec(name: "white") : env.tint ?? StyleSpec(name: "accent")
        return e
    }

    /// A bordered button's bezel around its label's padded box: the tint at 15 % (`.bordered`)
    /// or solid (`.borderedProminent`), a rounded rectangle as iOS draws them.
    private func paintBezel(_ p: PlacedNode, _ env: PaintEnvironment) {
        guard let bezel = p.children.first(where: { $0.node.role == PlacedNode.bezelRole }) else { return }
        let tint = tintColor(env)
        set(p.node.style == "borderedProminent" ? tint : tint.with(alpha: 0.15), env)
        roundedRect(bezel.frame, radius: min(8, bezel.frame.height / 2))
        cairo_fill(cr)
    }

    private func clip(_ p: PlacedNode, _ m: Modifiers?) {
        guard let other = m?.other else { return }
        if case .number(let r)? = other["cornerRadius"], r.isFinite {
            roundedRect(p.frame, radius: r)
            cairo_clip(cr)
        }
        if case .object(let o)? = other["clipShape"], case .string(let type)? = o["type"] {
            var radius = 0.0
            if case .number(let r)? = o["cornerRadius"], r.isFinite { radius = r }
            shapePath(type, p.frame, cornerRadius: radius)
            cairo_clip(cr)
        }
    }

    func redactionColor(_ env: PaintEnvironment) -> RGBA {
        color(env.foreground, env).with(alpha: 0.18)
    }

    // MARK: text and symbols

    private func paintText(_ p: PlacedNode, _ env: PaintEnvironment) {
        guard let t = p.text, !t.string.isEmpty, meetsClip(p, margin: t.font.size / 2) else { return }
        let wrap = t.width
        // Pango aligns lines inside the wrap width; the content frame is the widest line.
        let x = p.contentFrame.x - ((wrap ?? p.contentFrame.width) - p.contentFrame.width) * t.alignment
        if !env.redacted {
            setStyle(nil, env, in: p.contentFrame)
            text.drawText(t.string, font: t.font, width: wrap, maxLines: t.maxLines, alignment: t.alignment, on: cr, x: x, y: p.contentFrame.y)
            return
        }
        text.configure(t.string, font: t.font, width: wrap, maxLines: t.maxLines, alignment: t.alignment)
        do {
            set(redactionColor(env), env)
            for line in text.lineRects() where line.width > 0 {
                roundedRect(Rect(x: x + line.x, y: p.contentFrame.y + line.y + line.height * 0.18, width: line.width, height: line.height * 0.64),
                            radius: line.height * 0.2)
            }
            cairo_fill(cr)
        }
    }

    private func paintImage(_ p: PlacedNode, _ env: PaintEnvironment) {
        let r = p.contentFrame
        let side = min(r.width, r.height)
        guard side > 0, meetsClip(p, margin: side / 2) else { return }
        if env.redacted {
            set(redactionColor(env), env)
            roundedRect(r, radius: side * 0.2)
            cairo_fill(cr)
            return
        }
        if let asset = p.node.asset {
            if paintAsset(asset, p, env) { return }
        }
        guard let name = p.node.symbol else {
            set(palette.color(StyleSpec(name: "fill.secondary"), foreground: nil, tint: nil), env)
            roundedRect(r, radius: side * 0.15)
            cairo_fill(cr)
            return
        }
        set(color(nil, env), env)
        if let cp = SymbolFont.codepoint(for: name) {
            let resizable = p.node.modifiers?.other?["resizable"] == .bool(true)
            text.showSymbol(cp, on: cr, in: r, textSize: resizable ? nil : p.font.size)
        } else {
            unmapped.insert(name)
            // The visible fallback: a dashed rounded square with a question mark.
            let box = Rect(x: r.midX - side * 0.4, y: r.midY - side * 0.4, width: side * 0.8, height: side * 0.8)
            roundedRect(box, radius: side * 0.15)
            cairo_set_line_width(cr, max(1, side * 0.08))
            var dash = [side * 0.12, side * 0.08]
            cairo_set_dash(cr, &dash, 2, 0)
            cairo_stroke(cr)
            cairo_set_dash(cr, nil, 0, 0)
            text.configure("?", font: ResolvedFont(size: side * 0.55, weight: 700), width: nil, maxLines: nil)
            let m = text.measure("?", font: ResolvedFont(size: side * 0.55, weight: 700), width: nil, maxLines: nil)
            text.show(on: cr, x: r.midX - m.width / 2, y: r.midY - m.height / 2)
        }
    }

    /// An asset catalogue image over the node's frame, from the variant nearest the device
    /// scale; false (so the placeholder is drawn) when it does not decode.
    private func paintAsset(_ asset: ImageAsset, _ p: PlacedNode, _ env: PaintEnvironment) -> Bool {
        var dx = 1.0, dy = 0.0
        cairo_user_to_device_distance(cr, &dx, &dy)
        let scale = (dx * dx + dy * dy).squareRoot()
        guard let image = AssetImage(asset, scale: scale) else { return false }
        defer { image.release() }
        let template = p.node.modifiers?.other?["renderingMode"] == .string("template")
        if template { set(color(nil, env), env) }
        image.paint(on: cr, in: p.contentFrame, alpha: env.opacity, template: template)
        return true
    }

    /// Whether `p`'s frames, outset by `margin` points (at least 2: glyphs overhang their
    /// boxes), meet the clip. A text or symbol wholly outside it is neither laid out nor shaped
    /// again — the lean desktop redraws only a damaged rectangle (a clock's seconds), and the
    /// clip would discard every pixel of it anyway; a picture drawn whole is unaffected.
    private func meetsClip(_ p: PlacedNode, margin: Double) -> Bool {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        cairo_clip_extents(cr, &x0, &y0, &x1, &y1)
        let m = margin.isFinite ? max(2, margin) : .infinity
        let left = min(p.frame.x, p.contentFrame.x) - m, top = min(p.frame.y, p.contentFrame.y) - m
        let right = max(p.frame.maxX, p.contentFrame.maxX) + m, bottom = max(p.frame.maxY, p.contentFrame.maxY) + m
        return !(right <= x0 || left >= x1 || bottom <= y0 || top >= y1)
    }

    // MARK: shapes

    func shapePath(_ type: String, _ r: Rect, cornerRadius: Double, trim: (Double, Double)? = nil) {
        switch type {
        case "circle", "ellipse":
            let circle = type == "circle"
            let rx = circle ? min(r.width, r.height) / 2 : r.width / 2, ry = circle ? rx : r.height / 2
            guard rx > 0, ry > 0 else { return }
            cairo_save(cr)
            cairo_translate(cr, r.midX, r.midY)
            cairo_scale(cr, rx, ry)
            // SwiftUI's circle starts at 3 o'clock and runs clockwise (y down).
            let (from, to) = trim ?? (0, 1)
            cairo_new_sub_path(cr)
            cairo_arc(cr, 0, 0, 1, 2 * .pi * from, 2 * .pi * to)
            if trim == nil { cairo_close_path(cr) }
            cairo_restore(cr)
        case "capsule": capsule(r)
        case "roundedRectangle", "containerRelativeShape": roundedRect(r, radius: cornerRadius)
        default: rect(r)
        }
    }

    private func paintShape(_ p: PlacedNode, _ env: PaintEnvironment) {
        guard let s = p.node.shape else { return }
        let from = min(max(s.trimFrom ?? 0, 0), 1), to = min(max(s.trimTo ?? 1, 0), 1)
        guard to > from || (s.trimFrom == nil && s.trimTo == nil) else { return }
        let trimmed = s.trimFrom != nil || s.trimTo != nil
        let radius = s.cornerRadius.flatMap { $0.isFinite ? $0 : nil } ?? 0
        let r = p.contentFrame
        if s.fill != nil || s.stroke == nil {
            setStyle(s.fill, env, in: r)
            shapePath(s.type, r, cornerRadius: radius, trim: trimmed ? (from, to) : nil)
            cairo_fill(cr)
        }
        if let stroke = s.stroke {
            setStyle(stroke, env, in: r)
            let lw = s.lineWidth.flatMap { $0.isFinite && $0 >= 0 ? min($0, 1000) : nil } ?? 1
            cairo_set_line_width(cr, lw)
            cairo_set_line_cap(cr, s.lineCap == "round" ? CAIRO_LINE_CAP_ROUND : (s.lineCap == "square" ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT))
            shapePath(s.type, r, cornerRadius: radius, trim: trimmed ? (from, to) : nil)
            cairo_stroke(cr)
        }
    }

    // MARK: controls

    private func fraction(_ n: ViewNode) -> Double? {
        if n.kind == .progress, let d = n.date { return LiveDateFormatter.fraction(d, now: now) }
        guard let v = n.value, v.isFinite else { return nil }
        var lo = 0.0, hi = 1.0
        if n.kind == .gauge, let b = n.bounds, b.count == 2, b[0].isFinite, b[1].isFinite { lo = b[0]; hi = b[1] }
        guard hi > lo else { return v >= hi ? 1 : 0 }
        return min(max((v - lo) / (hi - lo), 0), 1)
    }

    private func tintColor(_ env: PaintEnvironment) -> RGBA {
        palette.color(env.tint ?? StyleSpec(name: "accent"), foreground: env.foreground, tint: nil)
    }

    private func trackColor(_ env: PaintEnvironment) -> RGBA {
        palette.color(StyleSpec(name: "fill"), foreground: nil, tint: nil).with(alpha: 1.2)
    }

    private func paintProgress(_ p: PlacedNode, _ env: PaintEnvironment) {
        guard let r = p.indicator, r.width > 0, r.height > 0 else { return }
        let f = fraction(p.node)
        if r.width == r.height || f == nil {
            paintRing(r, fraction: f, start: -90, sweep: 360, env: env)
            return
        }
        set(trackColor(env), env)
        capsule(r)
        cairo_fill(cr)
        if let f, f > 0 {
            set(tintColor(env), env)
            capsule(filled(r, f, env))
            cairo_fill(cr)
        }
    }

    /// The filled part of a linear bar `r` at fraction `f`: from the leading edge (the right
    /// one right to left), at least a circle.
    private func filled(_ r: Rect, _ f: Double, _ env: PaintEnvironment) -> Rect {
        let w = max(r.height, r.width * f)
        return Rect(x: env.rightToLeft ? r.maxX - w : r.x, y: r.y, width: w, height: r.height)
    }

    private func paintRing(_ r: Rect, fraction f: Double?, start: Double, sweep: Double, env: PaintEnvironment, marker: Bool = false) {
        let side = min(r.width, r.height)
        let lw = max(1.5, side * 0.1)
        let radius = side / 2 - lw / 2
        guard radius > 0 else { return }
        let a0 = start * .pi / 180, a1 = (start + sweep) * .pi / 180
        cairo_set_line_width(cr, lw)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        guard let f else {
            // Indeterminate: eight spokes, fading.
            for i in 0..<8 {
                let a = Double(i) * .pi / 4
                set(color(nil, env).with(alpha: 0.25 + 0.75 * Double(i) / 8), env)
                cairo_set_line_width(cr, max(1, side * 0.08))
                cairo_move_to(cr, r.midX + cos(a) * side * 0.22, r.midY + sin(a) * side * 0.22)
                cairo_line_to(cr, r.midX + cos(a) * side * 0.42, r.midY + sin(a) * side * 0.42)
                cairo_stroke(cr)
            }
            return
        }
        set(trackColor(env), env)
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.midX, r.midY, radius, a0, a1)
        cairo_stroke(cr)
        if marker {
            let a = a0 + (a1 - a0) * f
            set(tintColor(env), env)
            cairo_new_sub_path(cr)
            cairo_arc(cr, r.midX + cos(a) * radius, r.midY + sin(a) * radius, lw * 0.75, 0, 2 * .pi)
            cairo_fill(cr)
        } else if f > 0 {
            set(tintColor(env), env)
            cairo_new_sub_path(cr)
            cairo_arc(cr, r.midX, r.midY, radius, a0, a0 + (a1 - a0) * f)
            cairo_stroke(cr)
        }
    }

    private func paintGauge(_ p: PlacedNode, _ env: PaintEnvironment) {
        guard let r = p.indicator, r.width > 0, r.height > 0 else { return }
        let f = fraction(p.node) ?? 0
        switch p.node.style ?? "automatic" {
        case "accessoryCircular", "circular":
            paintRing(r, fraction: f, start: 135, sweep: 270, env: env, marker: true)
        case "accessoryCircularCapacity":
            paintRing(r, fraction: f, start: -90, sweep: 360, env: env)
        case "accessoryLinear":
            set(trackColor(env), env)
            capsule(r)
            cairo_fill(cr)
            set(tintColor(env), env)
            cairo_new_sub_path(cr)
            let along = (r.width - r.height) * f
            cairo_arc(cr, env.rightToLeft ? r.maxX - r.height / 2 - along : r.x + r.height / 2 + along, r.midY, r.height * 0.75, 0, 2 * .pi)
            cairo_fill(cr)
        default:
            set(trackColor(env), env)
            capsule(r)
            cairo_fill(cr)
            if f > 0 {
                set(tintColor(env), env)
                capsule(filled(r, f, env))
                cairo_fill(cr)
            }
        }
    }

    private func paintToggle(_ p: PlacedNode, _ env: PaintEnvironment) {
        guard let r = p.indicator, r.width > 0, r.height > 0 else { return }
        let on = p.node.isOn == true
        set(on ? palette.color(env.tint ?? StyleSpec(name: "green"), foreground: nil, tint: nil) : trackColor(env), env)
        capsule(r)
        cairo_fill(cr)
        let knob = r.height - 4
        set(RGBA(1, 1, 1), env)
        cairo_new_sub_path(cr)
        cairo_arc(cr, on ? r.maxX - 2 - knob / 2 : r.x + 2 + knob / 2, r.midY, knob / 2, 0, 2 * .pi)
        cairo_fill(cr)
    }
}
