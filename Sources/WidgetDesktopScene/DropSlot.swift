import OpenWidgetKit
import WidgetHostCore

/// Where a widget dragged in edit mode lands: the grid place (`DesktopGrid`'s rules: small one
/// slot, medium two across, large two by two, first fit in order) whose frame holds the drop
/// point — found by trying the widget at every position of the grid order and laying the grid
/// out — else the nearest such place. Each trial grid sits in the area's corner nearest the
/// layout's anchor, as `DesktopPlacement` will place it after the drop (so on a right-anchored
/// grid that grows a column, the widgets already there make way to the left). `reach` is the
/// largest block a drag can make, which the scene's area holds while one is under way, so that
/// every widget is drawn where it makes way to (a new row below included). Pure; any thread.
public struct DropSlot: Equatable, Sendable {
    /// The position in the placed widgets' order the widget would take.
    public var index: Int
    /// The frame it would get, in the area's points (what the scene highlights).
    public var frame: LogicalRect
    /// The move to ask for; nil when the order would not change.
    public var move: SceneAction.MoveTarget?
    /// Every placed widget's frame were it dropped here (the others make way while dragging).
    public var preview: [String: LogicalRect]

    /// The slot for widget `id` dropped at area point (`x`, `y`) of `placement`, laid out as
    /// `layout` says; nil when `id` is not placed.
    public init?(id: String, x: Double, y: Double, placement: DesktopPlacement, layout: DesktopViewMessage.Layout) {
        let order = placement.widgets.map { (id: $0.id, family: $0.family) }
        // The grid order of placed widgets follows the layout's (accessories come first in the grid, not in the order).
        let ranked = layout.widgets.compactMap { wid in order.first { $0.id == wid } }
        guard let dragged = ranked.first(where: { $0.id == id }) else { return nil }
        self.init(dragged, others: ranked.filter { $0.id != id }, current: ranked.firstIndex { $0.id == id },
                  x: x, y: y, placement: placement, layout: layout)
    }

    /// The slot for a widget of `family` not on the desktop yet (one dragged from the gallery)
    /// dropped at area point (`x`, `y`); `id` names it in `preview`. Its `move` is where to put
    /// it once added (nil: at the end, where an add puts it). Nil when the area has no grid.
    public init?(adding family: WidgetFamily, id: String, x: Double, y: Double, placement: DesktopPlacement, layout: DesktopViewMessage.Layout) {
        let order = placement.widgets.map { (id: $0.id, family: $0.family) }
        let ranked = layout.widgets.compactMap { wid in order.first { $0.id == wid } }.filter { $0.id != id }
        self.init((id: id, family: family), others: ranked, current: ranked.count, x: x, y: y, placement: placement, layout: layout)
    }

    private init?(_ dragged: (id: String, family: WidgetFamily), others: [(id: String, family: WidgetFamily)], current: Int?,
                  x: Double, y: Double, placement: DesktopPlacement, layout: DesktopViewMessage.Layout) {
        let id = dragged.id
        let area = placement.area ?? LogicalRect(x: 0, y: 0, width: placement.grid.width, height: placement.grid.height)
        let anchor = DesktopConfig.Anchor(rawValue: layout.anchor) ?? DesktopConfig().anchor
        let right = anchor == .topRight || anchor == .bottomRight, bottom = anchor == .bottomLeft || anchor == .bottomRight
        var best: (index: Int, frame: LogicalRect, distance: Double, inside: Bool, grid: DesktopGrid, gx: Double, gy: Double)?
        for i in 0...others.count {
            var trial = others
            trial.insert(dragged, at: i)
            let grid = DesktopGrid(widgets: trial, columns: layout.columns, gap: layout.gap)
            guard let item = grid.items.first(where: { $0.id == id }) else { continue }
            let gx = right ? area.width - grid.width : 0, gy = bottom ? area.height - grid.height : 0
            let f = LogicalRect(x: gx + item.x, y: gy + item.y, width: item.width, height: item.height)
            let inside = f.contains(x: x, y: y)
            let dx = f.x + f.width / 2 - x, dy = f.y + f.height / 2 - y
            let d = dx * dx + dy * dy
            if let b = best, b.inside || (!inside && b.distance <= d) { continue }
            best = (i, f, d, inside, grid, gx, gy)
        }
        guard let best else { return nil }
        index = best.index
        frame = best.frame
        preview = Dictionary(best.grid.items.map { ($0.id, LogicalRect(x: best.gx + $0.x, y: best.gy + $0.y, width: $0.width, height: $0.height)) },
                             uniquingKeysWith: { a, _ in a })
        if current == best.index {
            move = nil
        } else if best.index < others.count {
            move = .before(others[best.index].id)
        } else {
            move = .index(max(0, layout.widgets.count - 1))
        }
    }

    /// The largest block (width and height in points, each the largest of any trial) the grid of
    /// `others` (in grid order) becomes with one more widget of any of `families` at any
    /// position: what the surface's area must hold while such a widget is dragged.
    public static func reach(of others: [(id: String, family: WidgetFamily)], adding families: [WidgetFamily],
                             columns: Int, gap: Double) -> (width: Double, height: Double) {
        var width = 0.0, height = 0.0
        for family in Set(families) {
            for i in 0...others.count {
                var trial = others
                trial.insert((id: "\u{0}reach", family: family), at: i)
                let grid = DesktopGrid(widgets: trial, columns: columns, gap: gap)
                width = max(width, grid.width); height = max(height, grid.height)
            }
        }
        return (width, height)
    }
}
