import FoundationEssentials
import OpenWidgetKit
import WidgetRendering

/// An entry's view tree as the outputs show it: the waybar fields plus the entry's URL.
public struct RenderedEntry: Equatable, Sendable {
    public var text: String
    public var alt: String?
    public var tooltip: String?
    public var classes: [String]
    public var percentage: Int?
    public var url: String?
    /// Pango markup of the one-line rendering; nil when it is just the escaped text.
    public var pango: String?
    /// `#RRGGBB` of the widget's `containerBackground`, when it is a colour (i3bar's `background`).
    public var background: String?
    public init(text: String, alt: String? = nil, tooltip: String? = nil, classes: [String] = [], percentage: Int? = nil, url: String? = nil,
                pango: String? = nil, background: String? = nil) {
        self.text = text; self.alt = alt; self.tooltip = tooltip; self.classes = classes; self.percentage = percentage; self.url = url
        self.pango = pango; self.background = background
    }
}

/// Turns an entry's view tree into output text. Pure; safe from any thread.
public protocol EntryRenderer {
    func render(_ view: ViewNode, family: WidgetFamily, now: Date) -> RenderedEntry
    /// The next instant after `date` at which the rendering of `view` changes by itself (a live
    /// date node ticking), nil when it never does. The scheduler re-renders then, and only while
    /// such a node is on screen.
    func nextChange(of view: ViewNode, after date: Date) -> Date?
}

/// The renderer of `WidgetRendering`: waybar fields from `WaybarRenderer`, live-date ticks from
/// `LiveDateFormatter`.
public struct StandardEntryRenderer: EntryRenderer {
    /// How SF Symbols are drawn (`run --nerd-font`).
    public var glyphs: GlyphMap
    /// The formats of live times and dates (the daemon passes the user's locale).
    public var locale: LocaleFormats
    public init(glyphs: GlyphMap = .unicode, locale: LocaleFormats = .posix) { self.glyphs = glyphs; self.locale = locale }

    public func render(_ view: ViewNode, family: WidgetFamily, now: Date) -> RenderedEntry {
        var options = RenderOptions(glyphs: glyphs, now: now)
        options.locale = locale
        let (w, markup, facts) = WaybarRenderer.renderWithMarkup(view, family: family, options: options)
        return RenderedEntry(text: w.text, alt: w.alt, tooltip: w.tooltip, classes: w.class, percentage: w.percentage, url: facts.url,
                             pango: markup == PangoRenderer.escape(w.text) ? nil : markup,
                             background: facts.containerBackground.flatMap { Self.barBackground($0, palette: options.palette) })
    }

    /// A container background a bar should paint: an explicit colour (`rgba`, `.red`, `.blue`…)
    /// that is opaque, not the semantic fills and system backgrounds every widget has on iOS.
    static func barBackground(_ spec: StyleSpec, palette: ColorPalette) -> String? {
        guard palette.alpha(spec) > 0.5 else { return nil }
        if spec.rgba != nil { return palette.hex(spec) }
        let name = spec.name?.lowercased() ?? ""
        let semantic = ["fill", "secondary", "tertiary", "quaternary", "accent", "primary", "background", "system"]
        guard !semantic.contains(where: { name.hasPrefix($0) }) else { return nil }
        return palette.hex(spec)
    }

    public func nextChange(of view: ViewNode, after date: Date) -> Date? {
        LiveDateFormatter.nextChange(of: view, after: date)
    }
}
