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

    /// Sets up the shared layout for `text`; returns it.
    @discardableResult
    func configure(_ text: String, font: ResolvedFont, width: Double?, maxLines: Int?, alignment: Double = 0) -> OpaquePointer {
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

    /// Forgets every kept measurement, of texts and of symbols (the benchmark's cold runs).
    public func clearCache() {
        measured.removeAll()
        symbolMeasured.removeAll()
    }

    public func measure(_ text: String, font: ResolvedFont, width: Double?, maxLines: Int?) -> TextMeasurement {
        let key = Key(text: text, font: font, width: width, maxLines: maxLines)
        if let m = measured.value(for: key) { return m }
        let m = layOut(text, font: font, width: width, maxLines: maxLines)
        measured.insert(m, for: key)
        return m
    }

    private func layOut(_ text: String, font: ResolvedFont, width: Double?, maxLines: Int?) -> TextMeasurement {
        configure(text, font: font, width: width, maxLines: maxLines)
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
