import OpenWidgetKit
import WidgetHostCore

/// Where the desktop's widgets go on one output: the surface's area (logical points of the
/// output, at the layout's anchor and margin) and each widget's frame inside that area, on the
/// Home Screen grid of `DesktopGrid` (small = one slot, medium two across, large two by two).
///
/// The area is the grid's bounding box, grown to `minimumSize` when the grid is smaller (so the
/// scene's own menu fits over a lone small or accessory widget); the grid then sits in the
/// area's corner nearest the anchor. An area larger than the output is kept at the output's
/// top-left. Widgets whose family is not known yet (no message about them) are not placed.
///
/// Pure value; any thread.
public struct DesktopPlacement: Equatable, Sendable {
    /// One placed widget. `frame` is in the area's logical points: the widget's nominal size
    /// × `zoom` (1 on the desktop grid; StandBy draws widgets larger).
    public struct Widget: Equatable, Sendable {
        public var id: String
        public var family: WidgetFamily
        public var frame: LogicalRect
        public var zoom = 1.0
    }

    /// The surface's area in the output's logical points; nil when no widget is placed.
    public var area: LogicalRect?
    /// The placed widgets in grid order (accessories first, as `DesktopGrid` places them).
    public var widgets: [Widget]
    /// The grid the frames come from.
    public var grid: DesktopGrid
    /// Where the grid's top-left sits in the area.
    public var gridX = 0.0, gridY = 0.0

    /// Places `layout.widgets` (those with a family in `families`) on `output`.
    public init(layout: DesktopViewMessage.Layout, families: [String: WidgetFamily], output: DisplayOutput,
                minimumSize: (width: Double, height: Double) = (0, 0)) {
        let known = layout.widgets.compactMap { id in families[id].map { (id: id, family: $0) } }
        grid = DesktopGrid(widgets: known, columns: layout.columns, gap: layout.gap)
        guard !grid.items.isEmpty else { area = nil; widgets = []; return }
        let anchor = DesktopConfig.Anchor(rawValue: layout.anchor) ?? DesktopConfig().anchor
        let right = anchor == .topRight || anchor == .bottomRight
        let bottom = anchor == .bottomLeft || anchor == .bottomRight
        let width = max(grid.width, Self.finite(minimumSize.width)), height = max(grid.height, Self.finite(minimumSize.height))
        let margin = Self.finite(layout.margin)
        let outW = Self.finite(output.logicalWidth), outH = Self.finite(output.logicalHeight)
        let x = right ? outW - margin - width : margin
        let y = bottom ? outH - margin - height : margin
        area = LogicalRect(x: max(0, x), y: max(0, y), width: width, height: height)
        gridX = right ? width - grid.width : 0
        gridY = bottom ? height - grid.height : 0
        let (gx, gy) = (gridX, gridY)
        widgets = grid.items.map { Widget(id: $0.id, family: $0.family, frame: LogicalRect(x: gx + $0.x, y: gy + $0.y, width: $0.width, height: $0.height)) }
    }

    /// The frame of widget `id` in the area, nil when it is not placed.
    public func frame(of id: String) -> LogicalRect? { widgets.first { $0.id == id }?.frame }

    /// The widget under area point (`x`, `y`), nil when none.
    public func widget(atX x: Double, y: Double) -> Widget? {
        widgets.first { x >= $0.frame.x && y >= $0.frame.y && x < $0.frame.x + $0.frame.width && y < $0.frame.y + $0.frame.height }
    }

    /// A buffer's size in pixels for this area at `scale`: the area × scale, rounded up (what
    /// `DisplayBackend.setArea` lends); (0, 0) without an area or for a scale that is not a
    /// positive number of sensible size.
    public func pixelSize(scale: Double) -> (width: Int, height: Int) {
        guard let area, scale.isFinite, scale > 0 else { return (0, 0) }
        let w = (area.width * scale).rounded(.up), h = (area.height * scale).rounded(.up)
        guard w < 1e6, h < 1e6 else { return (0, 0) }
        return (Int(w), Int(h))
    }

    private static func finite(_ v: Double) -> Double { v.isFinite ? max(0, v) : 0 }
}
