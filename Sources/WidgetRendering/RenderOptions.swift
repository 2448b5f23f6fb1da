import FoundationEssentials
import OpenWidgetKit

/// A size of the character grid, in cells (a cell is 8 × 16 pt).
public struct GridSize: Hashable, Sendable {
    public var columns: Int
    public var rows: Int
    public init(columns: Int, rows: Int) { self.columns = columns; self.rows = rows }

    /// Largest grid any renderer will allocate, whatever an override asks for.
    static let maximum = GridSize(columns: 512, rows: 256)

    /// This size clamped to 1…`maximum` on both axes.
    var clamped: GridSize {
        GridSize(columns: min(max(columns, 1), Self.maximum.columns), rows: min(max(rows, 1), Self.maximum.rows))
    }
}

/// What every renderer of this module takes besides the tree and the family.
///
/// A plain value: build one per render (or keep one around) from any thread.
public struct RenderOptions: Hashable, Sendable {
    /// How SF Symbol names become characters. Default: plain single-width Unicode.
    public var glyphs: GlyphMap
    /// Placeholder redaction: `nil` follows the tree (root `modifiers.redacted`, or a
    /// `redacted` subtree), `true` redacts everything, `false` never redacts.
    public var redact: Bool?
    /// Redact `privacySensitive` subtrees (the `.privacy` reason, e.g. a locked screen) even when
    /// the tree is not a placeholder.
    public var redactPrivate: Bool
    /// The instant live dates (`Text(date, style:)`, timers, `ProgressView(timerInterval:)`)
    /// are rendered at.
    public var now: Date
    /// Grid size override in cells; `nil` uses the family's `cellGrid` (and, for the one-line
    /// renderings, the width of `accessoryInline`).
    public var size: GridSize?
    /// Colours for the renderers that show them (Pango).
    public var palette: ColorPalette
    /// The formats of live times and dates. Default `posix` (24-hour, `22 Nov 2026`), so a
    /// rendering does not depend on the machine; the host and `preview` pass the user's
    /// (`LocaleFormats.currentTime`).
    public var locale: LocaleFormats = .posix

    public init(glyphs: GlyphMap = .unicode, redact: Bool? = nil, redactPrivate: Bool = false,
                now: Date = Date(), size: GridSize? = nil, palette: ColorPalette = .system) {
        self.glyphs = glyphs; self.redact = redact; self.redactPrivate = redactPrivate
        self.now = now; self.size = size; self.palette = palette
    }

    /// The grid a system or accessory family is laid out on.
    func grid(for family: WidgetFamily) -> GridSize {
        if let size { return size.clamped }
        let g = family.cellGrid
        return GridSize(columns: g.columns, rows: g.rows).clamped
    }

    /// Width of the one-line summary of a non-inline family (a bar's `text`), in columns.
    public static let barLineWidth = 64

    /// The width of a one-line rendering (inline, pango, waybar `text`): the `accessoryInline`
    /// width for that family, as WidgetKit truncates it; `barLineWidth` when a larger family is
    /// summarised on one line; `size.columns` when set.
    func inlineWidth(for family: WidgetFamily) -> Int {
        if let size { return size.clamped.columns }
        return family == .accessoryInline ? WidgetFamily.accessoryInline.cellGrid.columns : Self.barLineWidth
    }

    /// Whether the tree is shown redacted as a placeholder.
    func isPlaceholder(_ root: ViewNode) -> Bool {
        redact ?? (root.modifiers?.redacted ?? false)
    }
}
