import OpenWidgetKit

/// Where each widget sits on the desktop, as on the Home Screen: system widgets on a grid of
/// slots the size of a small widget (small 1×1 slot = 2×2 icon cells, medium 2×1, large 2×2,
/// extra large 4×2), filled row by row, first fit, in the configured order; accessory widgets
/// side by side on a row above the grid, like the Lock Screen's.
///
/// With iOS's spacing (`gap` 22 pt between slots across, `gap + 16` down, where the icons'
/// labels go) every family's nominal size fits its slots exactly: a large widget (354 pt) is two
/// small ones (158 pt) and one vertical gap (38 pt). Frames are in points, relative to the
/// top-left of the block. Pure; any thread.
public struct DesktopGrid: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        public var id: String
        public var family: WidgetFamily
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
    }

    public var items: [Item]
    /// The size of the whole block in points.
    public var width: Double
    public var height: Double

    /// Lays out `widgets` (id and family, in order) on a grid `columns` slots wide.
    public init(widgets: [(id: String, family: WidgetFamily)], columns: Int = 2, gap: Double = 22) {
        let slot = WidgetFamily.systemSmall.nominalSize.width
        let columns = max(1, columns)
        let gap = gap.isFinite ? max(0, gap) : 22
        let pitchX = slot + gap, pitchY = slot + gap + 16
        var items: [Item] = []
        // The accessory row.
        var x = 0.0, rowHeight = 0.0
        for w in widgets where Self.isAccessory(w.family) {
            let s = w.family.nominalSize
            items.append(Item(id: w.id, family: w.family, x: x, y: 0, width: s.width, height: s.height))
            x += s.width + gap
            rowHeight = max(rowHeight, s.height)
        }
        let top = rowHeight > 0 ? rowHeight + gap : 0
        var width = max(0, x - gap)
        // The slots: occupied[row][column].
        var occupied: [[Bool]] = []
        var bottom = top
        for w in widgets where !Self.isAccessory(w.family) {
            let span = Self.slots(w.family)
            let cols = min(span.columns, columns)
            var row = 0
            search: while true {
                while occupied.count < row + span.rows { occupied.append(Array(repeating: false, count: columns)) }
                for col in 0...(columns - cols) {
                    let free = (row..<row + span.rows).allSatisfy { r in (col..<col + cols).allSatisfy { !occupied[r][$0] } }
                    if free {
                        for r in row..<row + span.rows { for c in col..<col + cols { occupied[r][c] = true } }
                        let s = w.family.nominalSize
                        let item = Item(id: w.id, family: w.family, x: Double(col) * pitchX, y: top + Double(row) * pitchY,
                                        width: s.width, height: s.height)
                        items.append(item)
                        width = max(width, item.x + item.width)
                        bottom = max(bottom, item.y + item.height)
                        break search
                    }
                }
                row += 1
            }
        }
        self.items = items
        self.width = width
        self.height = max(bottom, rowHeight)
    }

    /// The item under point (`x`, `y`) of the block, nil when none.
    public func item(atX x: Double, y: Double) -> Item? {
        items.first { x >= $0.x && y >= $0.y && x < $0.x + $0.width && y < $0.y + $0.height }
    }

    static func isAccessory(_ f: WidgetFamily) -> Bool {
        f == .accessoryCircular || f == .accessoryRectangular || f == .accessoryInline
    }

    /// Slots (small-widget squares) a system family covers.
    static func slots(_ f: WidgetFamily) -> (columns: Int, rows: Int) {
        switch f {
        case .systemMedium: (2, 1)
        case .systemLarge: (2, 2)
        case .systemExtraLarge: (4, 2)
        default: (1, 1)
        }
    }
}
