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
    public typealias Widget = ViewStreamWidget
    /// The `desktop` section as the host resolved it.
    public typealias Layout = ViewStreamLayout

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

extension ViewStreamLayout {
    /// The selector of widget `id`'s monitor(s) (`OutputSelector`): its own, else the group's,
    /// else the primary monitor.
    public func output(of id: String) -> String { outputs?[id] ?? output ?? OutputSelector.primary }
}
