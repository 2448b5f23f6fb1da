import FoundationEssentials
import OpenWidgetKit

/// The desktop view stream (docs/architecture.md "The desktop program"): after the request
/// `{"op":"watch"}` on the control socket, the host writes one `DesktopViewMessage` per line,
/// encoded with `WireCodec` (sorted keys, dates as seconds since 1970) — first a snapshot, then
/// one message whenever a desktop widget's entry or state changes, and a new snapshot after a
/// config reload — until the subscriber closes. Nothing is written while nothing changes: the
/// surface ticks live dates (`Text(date, style: .timer)`) itself. Value type.
public struct DesktopViewMessage: Codable, Equatable, Sendable {
    /// One widget on the desktop as the surface lays it out and draws it.
    public struct Widget: Codable, Equatable, Sendable {
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

    /// The `desktop` section as the host resolved it. Value type.
    public struct Layout: Codable, Equatable, Sendable {
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
        /// The monitor(s) of the widgets `outputs` does not name (`OutputSelector`); nil: primary.
        public var output: String?
        /// Widget id → its monitor(s), overriding `output`; nil or absent: none.
        public var outputs: [String: String]?

        public init(widgets: [String], anchor: String, margin: Double, gap: Double, columns: Int, scale: Double, dark: Bool?,
                    output: String? = nil, outputs: [String: String]? = nil) {
            self.widgets = widgets; self.anchor = anchor; self.margin = margin; self.gap = gap; self.columns = columns
            self.scale = scale; self.dark = dark; self.output = output; self.outputs = outputs
        }

        /// The selector of widget `id`'s monitor(s).
        public func output(of id: String) -> String { outputs?[id] ?? output ?? OutputSelector.primary }
    }

    /// True for the first message and after a config reload: `layout` and `widgets` are everything.
    public var snapshot: Bool
    /// Present in a snapshot.
    public var layout: Layout?
    /// Widgets whose entry or state changed (every desktop widget in a snapshot).
    public var widgets: [Widget]
    /// Ids taken off the desktop since the last message.
    public var removed: [String]

    public init(snapshot: Bool, layout: Layout?, widgets: [Widget], removed: [String]) {
        self.snapshot = snapshot; self.layout = layout; self.widgets = widgets; self.removed = removed
    }
}
