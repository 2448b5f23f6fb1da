import CCairo
import WidgetLayout
import WidgetRendering

/// Text through Pango: measures for the layout (`TextMeasurer`) and draws the same layouts on
/// a Cairo context, so what is drawn fills exactly the box that was measured.
///
/// Metrics are made independent of the output scale (hint metrics off, no hinting), so a
/// layout in points is the same at scale 1, 2 and 3 and in SVG. Families: `FontCatalog`.
///
/// Threading: not thread-safe (one Pango context and a reused layout); use one per thread.
public final class PangoText: TextMeasurer {
    let context: OpaquePointer
    let layout: OpaquePointer
    private var descriptions: [ResolvedFont: OpaquePointer] = [:]
    /// Attribute lists by (letter spacing in Pango units, tabular figures, lines).
    private var attributeLists: [AttributeKey: OpaquePointer] = [:]
    private struct AttributeKey: Hashable { var spacing: Int32, tabular: Bool, strikethrough: Bool, underline: Bool }
    private let plain: OpaquePointer

    public init() {
        let fontMap = pango_cairo_font_map_get_default()
        context = pango_font_map_create_context(fontMap)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_cairo_context_set_resolution(context, 72)
        layout = pango_layout_new(context)
        // Alignment is the layout's (leading is the right edge in a right-to-left layout,
        // `LayoutDirectionMirror`), not the paragraph's: without this Pango swaps left and
        // right for an Arabic or Hebrew paragraph.
        pango_layout_set_auto_dir(layout, 0)
        plain = pango_attr_list_new()
    }

    deinit {
        for d in descriptions.values { pango_font_description_free(d) }
        for a in attributeLists.values { pango_attr_list_unref(a) }
        for l in drawLayouts.values { g_object_unref(UnsafeMutableRawPointer(l)) }
        pango_attr_list_unref(plain)
        g_object_unref(UnsafeMutableRawPointer(layout))
        g_object_unref(UnsafeMutableRawPointer(context))
    }

    private func description(_ font: ResolvedFont) -> OpaquePointer {
        if let d = descriptions[font] { return d }
        let d = pango_font_description_new()!
        pango_font_description_set_family(d, FontCatalog.family(for: font.design, size: font.size, tabularDigits: font.monospacedDigit))
        pango_font_description_set_weight(d, PangoWeight(rawValue: UInt32(min(max(font.weight, 100), 1000))))
        pango_font_description_set_style(d, font.italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        pango_font_description_set_absolute_size(d, max(0.1, font.size) * Double(PANGO_SCALE))
        if descriptions.count > 256 { for v in descriptions.values { pango_font_description_free(v) }; descriptions = [:] }
        descriptions[font] = d
        return d
    }

    /// The attributes of `font`: SF Pro's tracking for its size (`Tracking`) on the sans
    /// faces plus the view's own `tracking`, tabular figures for `monospacedDigit`, and the
    /// strikethrough and underline lines.
    private func attributes(_ font: ResolvedFont) -> OpaquePointer {
        let em = font.design == .default || font.design == .rounded ? Tracking.sfPro(size: font.size) : 0
        let points = em * font.size + (font.tracking.isFinite ? min(max(font.tracking, -1000), 1000) : 0)
        let key = AttributeKey(spacing: Int32(saturating: (points * Double(PANGO_SCALE)).rounded()), tabular: font.monospacedDigit,
                               strikethrough: font.strikethrough, underline: font.underline)
        if let a = attributeLists[key] { return a }
        let a = pango_attr_list_new()!
        if key.spacing != 0 { pango_attr_list_insert(a, pango_attr_letter_spacing_new(key.spacing)) }
        if key.tabular { pango_attr_list_insert(a, pango_attr_font_features_new("tnum 1")) }
        if key.strikethrough { pango_attr_list_insert(a, pango_attr_strikethrough_new(1)) }
        if key.underline { pango_attr_list_insert(a, pango_attr_underline_new(PANGO_UNDERLINE_SINGLE)) }
        if attributeLists.count > 256 { for v in attributeLists.values { pango_attr_list_unref(v) }; attributeLists = [:] }
        attributeLists[key] = a
        return a
    }

    /// Sets up the shared layout (or `target`) for `text`; returns it.
    @discardableResult
    func configure(_ text: String, font: ResolvedFont, width: Double?, maxLines: Int?, alignment: Double = 0,
                   into target: OpaquePointer? = nil) -> OpaquePointer {
        let layout = target ?? self.layout
        pango_layout_set_font_description(layout, description(font))
        pango_layout_set_attributes(layout, attributes(font))
        text.withCString { pango_layout_set_text(layout, $0, -1) }
        if let width, width.isFinite {
            pango_layout_set_width(layout, Int32(saturating: min(max(0, width), 1e6) * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            if let maxLines {
                pango_layout_set_height(layout, -Int32(min(max(maxLines, 1), 1000)))
                pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            } else {
                pango_layout_set_height(layout, -1)
                pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
            }
        } else {
            pango_layout_set_width(layout, -1)
            pango_layout_set_height(layout, -1)
            pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
        }
        pango_layout_set_alignment(layout, alignment >= 0.75 ? PANGO_ALIGN_RIGHT : (alignment >= 0.25 ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT))
        return layout
    }

    private struct Key: Hashable {
        var text: String, font: ResolvedFont, width: Double?, maxLines: Int?
    }
    /// Answers kept across layouts (timeline entries and families repeat most of their texts):
    /// the ones asked for again stay, one-off texts pass through (`GenerationalCache`).
    private var measured = GenerationalCache<Key, TextMeasurement>(generationLimit: PangoText.cacheGeneration)
    /// Answers per generation of each memo: at most twice as many are kept (~150 KB of text
    /// measurements), reached within two minutes of a ticking clock.
    static let cacheGeneration = 512

    /// Forgets every kept measurement, of texts and of symbols, and the layouts kept for drawing
    /// (the benchmark's cold runs).
    public func clearCache() {
        for l in drawLayouts.values { g_object_unref(UnsafeMutableRawPointer(l)) }
        drawLayouts.removeAll(keepingCapacity: true)
        measured.removeAll()
        symbolMeasured.removeAll()
        twinClasses.removeAll(keepingCapacity: true)
        twinOf.removeAll(keepingCapacity: true)
        twinGlyphs.removeAll(keepingCapacity: true)
    }

    /// Pango layouts made to answer `measure` (a test's count of the text engine's work).
    private(set) var layoutsMade = 0

    /// The answer for `text` is the kept one of its twin (`twin(of:font:)`) when it has one: a
    /// ticking clock's new time is laid out once, not once per width and size its layout asks.
    public func measure(_ text: String, font: ResolvedFont, width: Double?, maxLines: Int?) -> TextMeasurement {
        var key = Key(text: text, font: font, width: width, maxLines: maxLines)
        if let m = measured.value(for: key) { return m }
        if let twin = twin(of: text, font: font) {
            key.text = twin
            if let m = measured.value(for: key) { return m }
        }
        let m = layOut(text, font: font, width: width, maxLines: maxLines)
        measured.insert(m, for: key)
        return m
    }

    // MARK: texts that measure alike

    /// True when `a` and `b` are twins (`twin(of:font:)`) in every face a size of `font` is
    /// drawn in (the default design's text and display cuts either side of
    /// `FontCatalog.displaySize`), so every measurement of one is the other's. Costs one layout
    /// of each text not seen before per face.
    public func measuresAlike(_ a: String, _ b: String, font: ResolvedFont) -> Bool {
        if a == b { return true }
        var sizes = [font]
        if font.design == .default && !font.monospacedDigit {
            var text = font, display = font
            text.size = FontCatalog.displaySize / 2
            display.size = FontCatalog.displaySize
            sizes = [text, display]
        }
        return sizes.allSatisfy { f in (twin(of: a, font: f) ?? a) == (twin(of: b, font: f) ?? b) }
    }

    /// A font apart from its size and the tracking that scales with it (`ResolvedFont.scaled`),
    /// with the family Pango is asked for at that size (`FontCatalog.family`).
    private struct Face: Hashable { var font: ResolvedFont, family: String }
    private struct Shape: Hashable { var zeroed: String, face: Face }
    private struct Member: Hashable { var text: String, face: Face }
    /// Per text with its digits as "0", in a face: the texts seen of it with different glyph
    /// geometry in design units (`glyphGeometry`), the last `twinsPerShape` (a face's figures
    /// need not all be equally wide: Inter Bold's tabular "4" is narrower).
    private var twinClasses: [Shape: [(text: String, geometry: [Int])]] = [:]
    static let twinsPerShape = 8
    /// Per text and face: the text whose measurements it shares (itself when none).
    private var twinOf: [Member: String] = [:]
    /// Entries of each twin table; emptied when full.
    static let twinLimit = 512

    /// The text measured before that measures exactly as `text` in every size of `font`'s face,
    /// nil when none: a text that differs from it only in ASCII digits, each replaced by a digit,
    /// whose glyphs lay out with the same runs, fonts, clusters, advances and offsets in design
    /// units (tabular figures: "10:42:17" and "10:42:18" in a `monospacedDigit` font). Why that
    /// is exact: a measurement reads only the runs' fonts (their ascent and descent), the glyphs'
    /// advances and offsets (kerning and letter spacing included) and the line breaks, which
    /// digits allow alike; metrics are unhinted, so at any size each position is the same
    /// function (the size, then Pango's rounding to whole points) of the same design units. A
    /// variable face (whose advances may follow the size otherwise: an optical-size axis) has no
    /// twins. Costs one layout of `text` per face.
    private func twin(of text: String, font: ResolvedFont) -> String? {
        let digit = { (c: UInt8) in c >= 0x30 && c <= 0x39 }
        guard text.utf8.count <= 256, text.utf8.contains(where: digit) else { return nil }
        let member = Member(text: text, face: Self.face(font))
        if let t = twinOf[member] { return t == text ? nil : t }
        let face = member.face
        let shape = Shape(zeroed: String(decoding: text.utf8.map { digit($0) ? 0x30 : $0 }, as: UTF8.self), face: face)
        var found = text
        if let (g, glyphs) = glyphGeometry(text, font: font) {
            var known = twinClasses[shape] ?? []
            if let twin = known.first(where: { $0.geometry == g }) {
                found = twin.text
                if twinGlyphs.count >= Self.twinLimit { twinGlyphs.removeAll(keepingCapacity: true) }
                twinGlyphs[member] = glyphs
            } else {
                if known.count >= Self.twinsPerShape { known.removeFirst() }
                known.append((text, g))
                if twinClasses.count >= Self.twinLimit { twinClasses.removeAll(keepingCapacity: true) }
                twinClasses[shape] = known
            }
        }
        if twinOf.count >= Self.twinLimit { twinOf.removeAll(keepingCapacity: true) }
        twinOf[member] = found
        return found == text ? nil : found
    }

    /// The size glyphs are laid out at to read their geometry in design units: Pango rounds
    /// positions to whole points, so at this size one point is at most one design unit (a face
    /// of up to this many units per em).
    static let designUnitSize = 16384.0

    private static func face(_ font: ResolvedFont) -> Face {
        var plain = font
        plain.size = 0
        plain.tracking = 0
        return Face(font: plain, family: FontCatalog.family(for: font.design, size: font.size, tabularDigits: font.monospacedDigit))
    }

    /// The runs and glyphs of `text` laid out unwrapped in `font`'s face at `designUnitSize`, as
    /// numbers: per run its characters, font, bidi level and glyph count, per glyph its advance,
    /// offsets and cluster; and its glyphs by their cluster's byte offset (nil where a cluster
    /// has several). nil when a run's face is variable or has more units per em.
    private func glyphGeometry(_ text: String, font: ResolvedFont) -> (geometry: [Int], glyphs: [Int32: UInt32]?)? {
        guard let d = pango_font_description_copy(description(font)) else { return nil }
        defer { pango_font_description_free(d) }
        pango_font_description_set_absolute_size(d, Self.designUnitSize * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, d)
        pango_layout_set_attributes(layout, attributes(font))
        text.withCString { pango_layout_set_text(layout, $0, -1) }
        pango_layout_set_width(layout, -1)
        pango_layout_set_height(layout, -1)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
        layoutsMade += 1
        guard let iter = pango_layout_get_iter(layout) else { return nil }
        defer { pango_layout_iter_free(iter) }
        var out: [Int] = []
        var ids: [Int32: UInt32]? = [:]
        repeat {
            guard let run = pango_layout_iter_get_run_readonly(iter) else { out.append(-1); continue }  // a line's end
            let item = run.pointee.item.pointee, glyphs = run.pointee.glyphs.pointee
            guard let f = item.analysis.font, let hb = pango_font_get_hb_font(f) else { return nil }
            let face = hb_font_get_face(hb)
            guard hb_ot_var_has_data(face) == 0, Double(hb_face_get_upem(face)) <= Self.designUnitSize else { return nil }
            out += [Int(item.offset), Int(item.length), Int(item.num_chars), Int(bitPattern: f), Int(item.analysis.level), Int(glyphs.num_glyphs)]
            for i in 0..<Int(glyphs.num_glyphs) {
                let g = glyphs.glyphs[i].geometry
                out += [Int(g.width), Int(g.x_offset), Int(g.y_offset), Int(glyphs.log_clusters[i])]
                let at = item.offset + glyphs.log_clusters[i]
                if ids?.updateValue(glyphs.glyphs[i].glyph, forKey: at) != nil { ids = nil }
            }
        } while pango_layout_iter_next_run(iter) != 0
        return (out, ids)
    }

    // MARK: drawing a twin

    private struct DrawKey: Hashable { var text: String, font: ResolvedFont, width: Double?, maxLines: Int?, alignment: Double }
    /// Layouts of texts drawn (`drawText`), by how they were configured; at most
    /// `drawLayoutLimit`, emptied when full.
    private var drawLayouts: [DrawKey: OpaquePointer] = [:]
    static let drawLayoutLimit = 32
    /// Per text and face that has a twin: its glyphs by cluster byte offset (`glyphGeometry`).
    private var twinGlyphs: [Member: [Int32: UInt32]] = [:]
    /// Layouts made to draw (a test's count).
    private(set) var drawLayoutsMade = 0

    /// Draws `text` with its top-left at (`x`, `y`) in `cr`'s current source, as `configure`
    /// then `show` do, in a layout kept for it (`drawLayoutLimit`). A twin of a text (`twin(of:font:)`, found while measuring) is drawn in that
    /// text's layout, kept from drawing it, with its own glyphs put in for the time of the drawing:
    /// not shaped again, the same pixels (twins have the same runs, clusters and positions, and a
    /// glyph's id does not depend on the size). Not for underlined or struck-through text.
    func drawText(_ text: String, font: ResolvedFont, width: Double?, maxLines: Int?, alignment: Double, on cr: OpaquePointer, x: Double, y: Double) {
        let member = Member(text: text, face: Self.face(font))
        if let twin = twinOf[member], twin != text {
            guard !font.underline, !font.strikethrough, let glyphs = twinGlyphs[member] else {
                configure(text, font: font, width: width, maxLines: maxLines, alignment: alignment)
                show(on: cr, x: x, y: y)
                return
            }
            let kept = keptLayout(twin, font: font, width: width, maxLines: maxLines, alignment: alignment)
            if let swapped = Self.putGlyphs(glyphs, into: kept) {
                cairo_move_to(cr, x, y)
                pango_cairo_show_layout(cr, kept)
                for (info, glyph) in swapped { info.pointee.glyph = glyph }
                return
            }
        }
        // A text drawn again as it was (the date beside a ticking time, inside its damage) is
        // not shaped again either.
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, keptLayout(text, font: font, width: width, maxLines: maxLines, alignment: alignment))
    }

    /// The kept layout of `text` configured so, made when there is none.
    private func keptLayout(_ text: String, font: ResolvedFont, width: Double?, maxLines: Int?, alignment: Double) -> OpaquePointer {
        let key = DrawKey(text: text, font: font, width: width, maxLines: maxLines, alignment: alignment)
        if let l = drawLayouts[key] { return l }
        if drawLayouts.count >= Self.drawLayoutLimit {
            for l in drawLayouts.values { g_object_unref(UnsafeMutableRawPointer(l)) }
            drawLayouts.removeAll(keepingCapacity: true)
        }
        let kept = pango_layout_new(context)!
        pango_layout_set_auto_dir(kept, 0)
        configure(text, font: font, width: width, maxLines: maxLines, alignment: alignment, into: kept)
        drawLayouts[key] = kept
        drawLayoutsMade += 1
        return kept
    }

    /// Puts `glyphs` (by cluster byte offset) into the glyphs of `layout`'s runs but an
    /// ellipsis; returns what was there to put back, nil (nothing changed) when a cluster has
    /// no glyph in `glyphs`.
    private static func putGlyphs(_ glyphs: [Int32: UInt32], into layout: OpaquePointer) -> [(UnsafeMutablePointer<PangoGlyphInfo>, UInt32)]? {
        var changes: [(UnsafeMutablePointer<PangoGlyphInfo>, UInt32)] = []
        var line = pango_layout_get_lines_readonly(layout)
        while let l = line {
            defer { line = l.pointee.next }
            guard let data = l.pointee.data else { continue }
            var run = data.assumingMemoryBound(to: PangoLayoutLine.self).pointee.runs
            while let r = run {
                defer { run = r.pointee.next }
                guard let item = r.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self).pointee,
                      item.item.pointee.analysis.flags & UInt8(PANGO_ANALYSIS_FLAG_IS_ELLIPSIS) == 0 else { continue }
                let string = item.glyphs.pointee
                for i in 0..<Int(string.num_glyphs) {
                    guard let g = glyphs[item.item.pointee.offset + string.log_clusters[i]] else { return nil }
                    changes.append((string.glyphs + i, g))
                }
            }
        }
        for i in changes.indices { let old = changes[i].0.pointee.glyph; changes[i].0.pointee.glyph = changes[i].1; changes[i].1 = old }
        return changes
    }

    private func layOut(_ text: String, font: ResolvedFont, width: Double?, maxLines: Int?) -> TextMeasurement {
        configure(text, font: font, width: width, maxLines: maxLines)
        layoutsMade += 1
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let scale = Double(PANGO_SCALE)
        let lines = max(1, Int(pango_layout_get_line_count(layout)))
        let height = Double(logical.height) / scale
        // Left-aligned, the layout's logical width is its widest line (not the wrap width).
        var widest = (Double(logical.x + logical.width) / scale).rounded(.up)
        // An ellipsized line with letter spacing overshoots the wrap width by about a point
        // (Pango does not count the spacing of the "…"): it is still cut to the width.
        if let width, width.isFinite { widest = min(widest, max(0, width)) }
        let truncated = pango_layout_is_ellipsized(layout) != 0
        let baseline = Double(pango_layout_get_baseline(layout)) / scale
        return TextMeasurement(width: widest, height: height.rounded(.up), lineHeight: height / Double(lines), baseline: baseline, truncated: truncated)
    }

    /// Rectangles of the shown lines of the configured layout, relative to its origin.
    func lineRects() -> [(x: Double, y: Double, width: Double, height: Double)] {
        var out: [(Double, Double, Double, Double)] = []
        let scale = Double(PANGO_SCALE)
        let iter = pango_layout_get_iter(layout)
        repeat {
            var r = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &r)
            out.append((Double(r.x) / scale, Double(r.y) / scale, Double(r.width) / scale, Double(r.height) / scale))
        } while pango_layout_iter_next_line(iter) != 0
        pango_layout_iter_free(iter)
        return out
    }

    /// Draws the configured layout with its top-left at (`x`, `y`) in `cr`'s current colour.
    ///
    /// The context is not updated from `cr`: with unhinted metrics the layout does not depend
    /// on the transform, and switching the context's matrix between measuring and drawing
    /// would make Pango lay out and load fonts again for every text.
    func show(on cr: OpaquePointer, x: Double, y: Double) {
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }

    /// Draws `string` on one line (cut with "…" at `width` when given) with its top-left at
    /// (`x`, `y`) in `cr`'s current source: a caller's own labels (the desktop scene's menu and
    /// marks), measured with `measure(_:font:width:maxLines: 1)`. Threading: the text engine's.
    public func draw(_ string: String, font: ResolvedFont, width: Double?, on cr: OpaquePointer, x: Double, y: Double) {
        configure(string, font: font, width: width, maxLines: 1)
        show(on: cr, x: x, y: y)
    }

    // MARK: symbols

    /// Ink rectangles of icon-font glyphs at 1 pt (x and y from the layout's origin), by codepoint.
    private var symbolInk: [UInt32: (x: Double, y: Double, width: Double, height: Double)] = [:]
    private var symbolMeasured = GenerationalCache<SymbolKey, SymbolMeasurement>(generationLimit: PangoText.cacheGeneration)
    private struct SymbolKey: Hashable { var symbol: String, size: Double }

    /// Sets up the shared layout for one glyph of the icon font at `size` points.
    private func configureSymbol(_ scalar: Unicode.Scalar, size: Double) {
        let d = pango_font_description_new()!
        pango_font_description_set_family(d, FontCatalog.symbolFamily)
        pango_font_description_set_absolute_size(d, max(0.1, size) * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, d)
        pango_font_description_free(d)
        pango_layout_set_attributes(layout, plain)
        String(Character(scalar)).withCString { pango_layout_set_text(layout, $0, -1) }
        pango_layout_set_width(layout, -1)
        pango_layout_set_height(layout, -1)
        pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
    }

    /// The glyph's ink at 1 pt, measured at 100 pt (nil: no such scalar, or no ink).
    private func ink(_ codepoint: UInt32) -> (x: Double, y: Double, width: Double, height: Double)? {
        if let i = symbolInk[codepoint] { return i.width > 0 ? i : nil }
        guard let scalar = Unicode.Scalar(codepoint) else { return nil }
        configureSymbol(scalar, size: 100)
        var r = PangoRectangle()
        pango_layout_get_extents(layout, &r, nil)
        let k = Double(PANGO_SCALE) * 100
        let i = (x: Double(r.x) / k, y: Double(r.y) / k, width: Double(r.width) / k, height: Double(r.height) / k)
        symbolInk[codepoint] = i
        return i.width > 0 && i.height > 0 ? i : nil
    }

    /// The icon font's size for text of 1 pt: a full Material icon (its 20-unit live area on
    /// the 24-unit grid) is then 0.95 em tall, 1.3 cap heights, as SF's medium-scale circle
    /// symbols are (they reach above the cap height and below the baseline).
    static let symbolScale = 1.14

    /// SF Symbols' metrics for the stand-in glyph: set at `symbolScale` × the font's size, its
    /// box is its ink rounded up to whole points, so a narrow symbol (`chevron.right`) is
    /// narrow and a wide one wide; centred on the cap height. A name with no icon gets the
    /// fallback box's square.
    public func measureSymbol(_ symbol: String, font: ResolvedFont) -> SymbolMeasurement {
        let textSize = font.size.isFinite ? min(max(font.size, 0), 10_000) : 0
        let size = textSize * Self.symbolScale
        let key = SymbolKey(symbol: symbol, size: textSize)
        if let m = symbolMeasured.value(for: key) { return m }
        let m: SymbolMeasurement
        if let cp = SymbolFont.codepoint(for: symbol), let i = ink(cp) {
            // Up to whole points, but not for the last thousandth of the outline's rounding.
            m = .centred(width: (i.width * size - 1e-3).rounded(.up), height: (i.height * size - 1e-3).rounded(.up), size: textSize)
        } else {
            m = .square(size: textSize)
        }
        symbolMeasured.insert(m, for: key)
        return m
    }

    /// Draws one glyph of the icon font with its ink centred in `rect`, in `cr`'s current
    /// source: as measured for text of `textSize` points, or with nil as large as fits (a
    /// `resizable()` symbol).
    func showSymbol(_ codepoint: UInt32, on cr: OpaquePointer, in rect: Rect, textSize: Double?) {
        guard let scalar = Unicode.Scalar(codepoint), let i = ink(codepoint) else { return }
        let size = textSize.map { $0 * Self.symbolScale } ?? min(rect.width / i.width, rect.height / i.height)
        guard size.isFinite, size > 0 else { return }
        configureSymbol(scalar, size: size)
        show(on: cr, x: rect.midX - (i.x + i.width / 2) * size, y: rect.midY - (i.y + i.height / 2) * size)
    }

    /// Whether the icon font is installed and has a glyph for `codepoint` (what the coverage
    /// test checks for every row of `SymbolTable`).
    public func iconFontHasGlyph(_ codepoint: UInt32) -> Bool {
        let d = pango_font_description_new()!
        defer { pango_font_description_free(d) }
        pango_font_description_set_family(d, FontCatalog.symbolFamily)
        pango_font_description_set_absolute_size(d, 12 * Double(PANGO_SCALE))
        guard let font = pango_context_load_font(context, d) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        let described = pango_font_describe(font)
        defer { pango_font_description_free(described) }
        guard let family = pango_font_description_get_family(described), String(cString: family) == FontCatalog.symbolFamily else { return false }
        return pango_font_has_char(font, codepoint) != 0
    }
}

/// The font families WidgetHost draws with, chosen to be installed by `scripts/install-deps.sh`
/// (Debian `fonts-inter`, `fonts-quicksand`, `fonts-dejavu-core`,
/// `fonts-material-design-icons-iconfont`); each list ends in a generic family, so a machine
/// without them still draws text. Immutable.
public enum FontCatalog {
    /// SF Pro Text's stand-in (Inter is a close neo-grotesque with tabular figures).
    public static let sans = "Inter, Noto Sans, DejaVu Sans, sans-serif"
    /// SF Pro Display's: Inter's display cut, tighter and narrower as SF Pro Display is (its
    /// letters average 0.424 em against Inter's 0.470; SF's system font 0.417, docs/widgetkit-parity.md).
    public static let sansDisplay = "Inter Display, Inter, Noto Sans, DejaVu Sans, sans-serif"
    /// SF Pro, like SF Pro Text and Display, switches to its display cut at 20 points.
    public static let displaySize = 20.0
    /// Inter Display as Debian packages it (4.0 beta 7) has no working tabular figures (its
    /// `tnum` digits differ in width), so `monospacedDigit` text stays in Inter.
    /// `.rounded`: Quicksand, the packaged face nearest SF Pro Rounded (round terminals, a
    /// grotesque's proportions; Regular and Bold), then Inter.
    public static let rounded = "Quicksand, Inter, Noto Sans, DejaVu Sans, sans-serif"
    public static let monospaced = "DejaVu Sans Mono, Noto Sans Mono, monospace"
    public static let serif = "DejaVu Serif, Noto Serif, serif"
    /// The SF Symbols stand-in.
    public static let symbolFamily = "Material Icons"

    static func family(for design: ResolvedFont.Design, size: Double, tabularDigits: Bool = false) -> String {
        switch design {
        case .default: size >= displaySize && !tabularDigits ? sansDisplay : sans
        case .rounded: rounded
        case .monospaced: monospaced
        case .serif: serif
        }
    }
}

/// Apple's tracking for SF Pro by point size (Human Interface Guidelines, "Typography":
/// 17 pt −0.43 pt, 34 pt +0.40 pt, 11 pt +0.07 pt…), applied to its stand-in so that text
/// takes about the width it takes on iOS: the text styles below 20 pt are set tighter, the
/// large titles looser. Pure.
enum Tracking {
    /// Thousandths of an em for 6…40 pt.
    private static let table: [Double] = [41, 34, 26, 19, 12, 6, 0, -6, -11, -16, -20, -26, -25, -24, -23, -18, -12, -4, 3, 6,
                                          8, 11, 14, 14, 14, 13, 13, 12, 12, 11, 10, 10, 8, 8, 8]

    /// Tracking in ems for a font of `size` points: the table, interpolated between whole
    /// sizes, its ends below 6 pt, easing to 0 from 40 pt to 80 pt.
    static func sfPro(size: Double) -> Double {
        guard size.isFinite, size > 0 else { return 0 }
        if size <= 6 { return table[0] / 1000 }
        if size >= 80 { return 0 }
        if size >= 40 { return table[table.count - 1] / 1000 * (80 - size) / 40 }
        let i = Int(saturating: size.rounded(.down)) - 6, f = size - size.rounded(.down)
        return (table[i] + (table[min(i + 1, table.count - 1)] - table[i]) * f) / 1000
    }
}
