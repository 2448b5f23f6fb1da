import FoundationEssentials

/// One line of the host's desktop view stream, read by `WireCodec.decodeViewStreamFields`: the
/// members of WidgetHostCore's `DesktopViewMessage`.
public struct WireViewStreamFields: Sendable {
    public var snapshot: Bool
    public var layout: ViewStreamLayout?
    public var widgets: [ViewStreamWidget]
    public var removed: [String]
}

/// One widget of the host's desktop view stream (WidgetHostCore's `DesktopViewMessage.Widget`)
/// as the surface lays it out and draws it.
public struct ViewStreamWidget: Codable, Equatable, Sendable {
    public var id: String
    public var kind: String
    public var family: WidgetFamily
    /// The current entry's evaluated tree; nil while the widget has no entry yet.
    public var view: ViewNode?
    /// The current entry's date.
    public var entryDate: Date?
    /// The entry is past its time and no newer one came (drawn with the stale mark).
    public var stale: Bool
    /// False while the widget's bundle is not running (crashed, over budget, not loaded).
    public var running: Bool

    public init(id: String, kind: String, family: WidgetFamily, view: ViewNode?, entryDate: Date?, stale: Bool, running: Bool) {
        self.id = id; self.kind = kind; self.family = family; self.view = view; self.entryDate = entryDate
        self.stale = stale; self.running = running
    }
}

/// The `desktop` section as the host resolved it, in its view stream (WidgetHostCore's
/// `DesktopViewMessage.Layout`). Value type.
public struct ViewStreamLayout: Codable, Equatable, Sendable {
    /// Widget ids in grid order.
    public var widgets: [String]
    public var anchor: String
    public var margin: Double
    public var gap: Double
    public var columns: Int
    /// Pixels per point when the display does not say (X11 without `Xft.dpi`).
    public var scale: Double
    /// Dark appearance (the config's `picture.colorScheme`; nil: follow the desktop).
    public var dark: Bool?
    /// The monitor(s) of the widgets `outputs` does not name (WidgetHostCore's `OutputSelector`);
    /// nil: the primary one.
    public var output: String?
    /// Widget id → its monitor(s), overriding `output`; nil or absent: none.
    public var outputs: [String: String]?

    public init(widgets: [String], anchor: String, margin: Double, gap: Double, columns: Int, scale: Double, dark: Bool?,
                output: String? = nil, outputs: [String: String]? = nil) {
        self.widgets = widgets; self.anchor = anchor; self.margin = margin; self.gap = gap; self.columns = columns
        self.scale = scale; self.dark = dark; self.output = output; self.outputs = outputs
    }
}
