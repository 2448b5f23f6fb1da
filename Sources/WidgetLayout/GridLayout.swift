import OpenWidgetKit
import WidgetRendering

/// One sanitized `GridItem` of a lazy grid: its size rule, the spacing after it and the
/// alignment of its cells.
struct GridTrack {
    enum Rule { case fixed(Double), flexible(min: Double, max: Double), adaptive(min: Double, max: Double) }
    var rule: Rule
    var spacing: Double
    var alignment: AlignmentSpec?

    /// From the tree's spec: unknown sizes are flexible; lengths finite and ≥ 0, min ≤ max;
    /// the SDK's defaults (flexible 10…∞, spacing 8) for what is missing.
    init(_ s: GridItemSpec) {
        let lo = Sanitize.length(s.minimum) ?? 10
        let hi = max(lo, Sanitize.maximum(s.maximum) ?? .infinity)
        switch s.size {
        case "fixed": rule = .fixed(Sanitize.length(s.minimum) ?? 0)
        case "adaptive": rule = .adaptive(min: max(lo, 1), max: max(hi, 1))
        default: rule = .flexible(min: lo, max: hi)
        }
        spacing = Sanitize.length(s.spacing) ?? LayoutPass.defaultSpacing
        alignment = s.alignment.map { AlignmentSpec(name: $0) }
    }
}

/// A grid's cells as laid out for one proposal: the grid's size and, per child of the box (in
/// order), the proposal it was sized for and its rectangle relative to the grid's origin
/// (nil: not shown). A `GridRow` child gets its row's rectangle and its cells in `rowCells`.
struct GridArrangement {
    var size: Size
    var cells: [(ProposedSize, Rect)?]
    var rowCells: [Int: [(ProposedSize, Rect)]] = [:]
}

/// The layouts of `ViewThatFits`, `Grid` and `LazyVGrid` / `LazyHGrid` (SwiftUI's documented
/// rules), as an extension of the layout pass that sizes the cells. Same threading rule.
extension LayoutPass {
    static let defaultSpacing = 8.0

    // MARK: ViewThatFits

    /// The child a `ViewThatFits` shows for `p`: the first whose ideal size fits the proposal
    /// on the constrained axes (an unspecified dimension always fits), else the last.
    func chosenCandidate(_ b: LayoutBox, _ p: ProposedSize, horizontal: Bool, vertical: Bool) -> Int? {
        guard !b.children.isEmpty else { return nil }
        for (i, c) in b.children.enumerated() {
            var probe = p
            if horizontal { probe.width = nil }
            if vertical { probe.height = nil }
            let ideal = size(c, probe)
            let fitsW = !horizontal || p.width.map { ideal.width <= $0 + 0.001 } ?? true
            let fitsH = !vertical || p.height.map { ideal.height <= $0 + 0.001 } ?? true
            if fitsW && fitsH { return i }
        }
        return b.children.count - 1
    }

    // MARK: Grid

    /// A `Grid`: `GridRow` children are rows of cells, any other child a row spanning every
    /// column. Columns are sized like an HStack's children (least flexible first), a column
    /// as wide as its widest one-column cell; rows like a VStack's, as tall as their tallest
    /// cell. Each cell sits in its column × row rectangle by the grid's alignment (the row's
    /// vertical alignment when it names one, its column's `gridColumnAlignment` horizontally),
    /// or at its own `gridCellAnchor`; a cell with `gridCellColumns(n)` takes the rectangle of
    /// n columns and the spacing between them.
    func grid(_ b: LayoutBox, _ p: ProposedSize) -> GridArrangement {
        if let g = b.grids[p] { return g }
        let hs = b.horizontalSpacing ?? Self.defaultSpacing, vs = b.spacing ?? Self.defaultSpacing
        let rows: [[LayoutBox]?] = b.children.map { $0.node.kind == .gridRow ? $0.children : nil }
        // Each cell's first column and the columns it spans.
        let spans: [[(start: Int, count: Int)]?] = rows.map { r in
            r.map { cells in
                var next = 0
                return cells.map { c in
                    defer { next += Self.columnSpan(c) }
                    return (next, Self.columnSpan(c))
                }
            }
        }
        let columns = spans.reduce(0) { m, r in max(m, r?.last.map { $0.start + $0.count } ?? 0) }
        func cells(column j: Int) -> [LayoutBox] {
            rows.indices.flatMap { i in
                zip(rows[i] ?? [], spans[i] ?? []).compactMap { c, s in s.start == j && s.count == 1 ? c : nil }
            }
        }
        // Column widths: each column's minimum and maximum are its one-column cells' widest.
        func colWidth(_ j: Int, _ offer: Double?) -> Double {
            cells(column: j).reduce(0) { max($0, size($1, ProposedSize(width: offer, height: nil)).width) }
        }
        let widths = tracks(count: columns, available: p.width, spacing: hs) { colWidth($0, $1) }
        let gridWidth = widths.reduce(0, +) + hs * Double(max(columns - 1, 0))
        var starts: [Double] = []
        var x0 = 0.0
        for w in widths { starts.append(x0); x0 += w + hs }
        func spanWidth(_ s: (start: Int, count: Int)) -> Double {
            let end = min(s.start + s.count, columns)
            guard s.start < end else { return 0 }
            return widths[s.start..<end].reduce(0, +) + hs * Double(end - s.start - 1)
        }
        // A column's horizontal alignment: its first cell's `gridColumnAlignment`, else the grid's.
        let columnAlignment: [Double?] = (0..<columns).map { j in
            for (r, ss) in zip(rows, spans) {
                for (c, s) in zip(r ?? [], ss ?? []) where s.start == j {
                    if case .string(let name)? = c.node.modifiers?.other?["gridColumnAlignment"] { return AlignmentSpec(name: name).x }
                }
            }
            return nil
        }
        // Row heights, the column widths fixed.
        func rowProposals(_ i: Int, _ h: Double?) -> [ProposedSize] {
            if let ss = spans[i] { return ss.map { ProposedSize(width: spanWidth($0), height: h) } }
            return [ProposedSize(width: columns > 0 ? gridWidth : p.width, height: h)]
        }
        func rowHeight(_ i: Int, _ h: Double?) -> Double {
            let kids = rows[i] ?? [b.children[i]]
            return zip(kids, rowProposals(i, h)).reduce(0) { max($0, size($1.0, $1.1).height) }
        }
        let heights = tracks(count: b.children.count, available: p.height, spacing: vs) { rowHeight($0, $1) }
        var width = gridWidth
        for i in b.children.indices where rows[i] == nil { width = max(width, size(b.children[i], rowProposals(i, heights[i])[0]).width) }
        var out = GridArrangement(size: .zero, cells: [])
        var y = 0.0
        for i in b.children.indices {
            let h = heights[i]
            let rowRect = Rect(x: 0, y: y, width: width, height: h)
            if let r = rows[i], let ss = spans[i] {
                var align = b.alignment
                // A GridRow's own alignment, when it names one (even `.center`), wins over the grid's.
                if let name = b.children[i].node.alignment { align.y = AlignmentSpec(name: name).y }
                var placed: [(ProposedSize, Rect)] = []
                for (c, span) in zip(r, ss) {
                    let q = ProposedSize(width: spanWidth(span), height: h)
                    let s = Sanitize.drawable(size(c, q), q)
                    let cellRect = Rect(x: span.start < starts.count ? starts[span.start] : gridWidth, y: y, width: q.width ?? 0, height: h)
                    var a = align
                    if span.start < columnAlignment.count, let x = columnAlignment[span.start] { a.x = x }
                    if let anchor = Self.cellAnchor(c) { a = anchor }
                    placed.append((q, Rect(origin: a.origin(of: s, in: cellRect), size: s)))
                }
                out.rowCells[i] = placed
                out.cells.append((ProposedSize(width: width, height: h), rowRect))
            } else {
                let q = rowProposals(i, h)[0]
                let s = Sanitize.drawable(size(b.children[i], q), q)
                out.cells.append((q, Rect(origin: b.alignment.origin(of: s, in: rowRect), size: s)))
            }
            y += h + (i < b.children.count - 1 ? vs : 0)
        }
        out.size = Size(width: width, height: max(0, y))
        b.grids[p] = out
        return out
    }

    /// The most columns a cell may span (`gridCellColumns`): a bad number cannot make a grid
    /// of millions of columns.
    static let maxColumnSpan = 64

    /// The columns cell `c` spans: its `gridCellColumns`, 1 to `maxColumnSpan`.
    static func columnSpan(_ c: LayoutBox) -> Int {
        guard case .number(let n)? = c.node.modifiers?.other?["gridCellColumns"], n.isFinite else { return 1 }
        return Int(min(max(n.rounded(.down), 1), Double(maxColumnSpan)))
    }

    /// Cell `c`'s `gridCellAnchor` (unit point, each coordinate finite), nil when it has none.
    static func cellAnchor(_ c: LayoutBox) -> AlignmentSpec? {
        guard case .array(let xy)? = c.node.modifiers?.other?["gridCellAnchor"], xy.count == 2,
              case .number(let x) = xy[0], case .number(let y) = xy[1], x.isFinite, y.isFinite else { return nil }
        return AlignmentSpec(x: x, y: y)
    }

    /// Sizes of `count` tracks sharing `available` (minus the spacing between them) the way a
    /// stack shares its length: each track's flexibility is its size offered ∞ less its size
    /// offered 0; the least flexible is served first, offered an equal share of what is left.
    /// Unspecified or infinite: every track takes its size for that proposal.
    private func tracks(count: Int, available: Double?, spacing: Double, _ sizeFor: (Int, Double?) -> Double) -> [Double] {
        guard count > 0 else { return [] }
        guard let total = available, total.isFinite else { return (0..<count).map { sizeFor($0, available) } }
        let mins = (0..<count).map { sizeFor($0, 0) }
        let flex = (0..<count).map { sizeFor($0, .infinity) - mins[$0] }
        var remaining = max(0, total - spacing * Double(count - 1))
        var out = [Double](repeating: 0, count: count)
        var left = Double(count)
        for i in (0..<count).sorted(by: { flex[$0] < flex[$1] || (flex[$0] == flex[$1] && $0 < $1) }) {
            let v = sizeFor(i, max(0, remaining / left))
            out[i] = v.isFinite ? v : 0
            remaining -= out[i]
            left -= 1
        }
        return out
    }

    // MARK: lazy grids

    /// A `LazyVGrid` (`axis` horizontal: the items are columns, the children flow into rows)
    /// or `LazyHGrid` (vertical: the items are rows, the children flow into columns). The
    /// tracks are SwiftUI's: fixed items first take their size; then each flexible item, in
    /// order, an equal share of what is left clamped to its minimum…maximum, and each adaptive
    /// item as many tracks of at least its minimum as fit its share. Along the flow, each line
    /// is as long as its longest cell, lines `spacing` (default 8) apart.
    func lazyGrid(_ b: LayoutBox, _ axis: Axis, _ p: ProposedSize) -> GridArrangement {
        if let g = b.grids[p] { return g }
        let flow = axis.other
        let items = b.gridTracks.isEmpty ? [GridTrack(GridItemSpec(size: "flexible"))] : b.gridTracks
        let tracks = lazyTracks(b, items, axis, available: p[axis].flatMap { $0.isFinite ? $0 : nil })
        let lineSpacing = b.spacing ?? Self.defaultSpacing
        var out = GridArrangement(size: .zero, cells: [])
        var cross = 0.0, length = 0.0
        var start = 0
        while start < b.children.count {
            let line = Array(b.children[start..<min(start + tracks.count, b.children.count)])
            var proposals: [ProposedSize] = [], sizes: [Size] = []
            var lineLength = 0.0
            for (k, c) in line.enumerated() {
                var q = ProposedSize.unspecified
                q[axis] = tracks[k].size
                let s = Sanitize.drawable(size(c, q), q)
                proposals.append(q); sizes.append(s)
                lineLength = max(lineLength, s[flow])
            }
            var along = 0.0
            for (k, _) in line.enumerated() {
                var slot = Rect(x: 0, y: 0, width: 0, height: 0)
                if axis == .horizontal {
                    slot = Rect(x: along, y: length, width: tracks[k].size, height: lineLength)
                } else {
                    slot = Rect(x: length, y: along, width: lineLength, height: tracks[k].size)
                }
                var align = tracks[k].alignment ?? .center
                if tracks[k].alignment == nil { if axis == .horizontal { align.x = b.alignment.x } else { align.y = b.alignment.y } }
                out.cells.append((proposals[k], Rect(origin: align.origin(of: sizes[k], in: slot), size: sizes[k])))
                along += tracks[k].size + (k < tracks.count - 1 ? tracks[k].spacing : 0)
            }
            cross = max(cross, along)
            length += lineLength
            start += tracks.count
            if start < b.children.count { length += lineSpacing }
        }
        let full = tracks.reduce(0) { $0 + $1.size } + tracks.dropLast().reduce(0) { $0 + $1.spacing }
        out.size = Size(axis: flow, main: length, cross: max(cross, full))
        b.grids[p] = out
        return out
    }

    /// The tracks (size and spacing after) of a lazy grid's items for `available` points
    /// across (nil: the ideal, each flexible or adaptive item as wide as its widest cell).
    private func lazyTracks(_ b: LayoutBox, _ items: [GridTrack], _ axis: Axis, available: Double?) -> [(size: Double, spacing: Double, alignment: AlignmentSpec?)] {
        var sizes = [Double?](repeating: nil, count: items.count)
        var counts = [Int](repeating: 1, count: items.count)
        let ideal: Double = available != nil ? 0 : b.children.reduce(0) { max($0, size($1, .unspecified)[axis]) }
        var remaining = (available ?? 0) - items.dropLast().reduce(0) { $0 + $1.spacing }
        var left = 0
        for (i, it) in items.enumerated() {
            if case .fixed(let v) = it.rule { sizes[i] = v; remaining -= v } else { left += 1 }
        }
        for (i, it) in items.enumerated() where sizes[i] == nil {
            let share = max(0, remaining / Double(max(left, 1)))
            switch it.rule {
            case .flexible(let lo, let hi):
                sizes[i] = available == nil ? min(max(ideal, lo), hi) : min(max(share, lo), hi)
            case .adaptive(let lo, let hi):
                if available == nil { sizes[i] = min(max(ideal, lo), hi); break }
                let n = max(1, Int(saturating: ((share + it.spacing) / (lo + it.spacing)).rounded(.down)))
                let n2 = min(n, 64)
                counts[i] = n2
                sizes[i] = min(max((share - Double(n2 - 1) * it.spacing) / Double(n2), lo), hi)
            case .fixed: break
            }
            let used = sizes[i]! * Double(counts[i]) + Double(counts[i] - 1) * it.spacing
            remaining -= used
            left -= 1
        }
        var out: [(size: Double, spacing: Double, alignment: AlignmentSpec?)] = []
        for (i, it) in items.enumerated() {
            for _ in 0..<counts[i] { out.append((sizes[i] ?? 0, it.spacing, it.alignment)) }
        }
        return out
    }
}
