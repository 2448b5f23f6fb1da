/// The size-negotiation layout of the system families, in character cells, modelled on
/// SwiftUI's: a parent proposes a size (`nil` on an axis = "your ideal size"), the child
/// answers with the size it takes, and the parent places it. Stacks give their least flexible
/// children their share first (by `layoutPriority`, then flexibility), so fixed-size text keeps
/// its ideal width while spacers, infinite frames, shapes and progress bars share the rest.
///
/// Every answer is memoised per node and proposal, so a layout costs a few measurements per
/// node whatever the nesting. Internal; one instance per render, not shared between threads.

enum Axis { case horizontal, vertical }

/// A size proposal in cells; `nil` asks for the ideal size.
struct Proposal: Hashable {
    var width: Int?
    var height: Int?
    func along(_ a: Axis) -> Int? { a == .horizontal ? width : height }
    static func make(_ a: Axis, main: Int?, cross: Int?) -> Proposal {
        a == .horizontal ? Proposal(width: main, height: cross) : Proposal(width: cross, height: main)
    }
}

struct CellSize: Hashable {
    var width: Int
    var height: Int
    func along(_ a: Axis) -> Int { a == .horizontal ? width : height }
    static let zero = CellSize(width: 0, height: 0)
}

/// Alignment on one axis: -1 leading/top, 0 centre, 1 trailing/bottom.
typealias Align = Int

func offset(_ align: Align, child: Int, in container: Int) -> Int {
    switch align {
    case ..<0: 0
    case 0: (container - child) / 2
    default: container - child
    }
}

/// `.frame` in cells; `Int.max`-like values stand for `.infinity`.
struct FrameCells {
    var width: Int?, height: Int?
    var minWidth: Int?, maxWidth: Int?, minHeight: Int?, maxHeight: Int?
    var alignX: Align = 0, alignY: Align = 0
}

/// How a shape is drawn.
struct ShapePaint {
    var type: String
    /// Interior character (nil: not filled).
    var fill: Character?
    /// Outline character (nil: no outline).
    var stroke: Character?
    var trimFrom = 0.0
    var trimTo = 1.0
    /// Degrees clockwise (`rotationEffect`, accumulated from ancestors).
    var rotation = 0.0
}

/// A node of the laid-out tree: a view's content, or one of its layout modifiers as a wrapper.
final class LayoutNode {
    enum Kind {
        case empty
        case text(String, lineLimit: Int?, align: Align)
        case bar(Double)
        case shape(ShapePaint?)
        /// The axis of the stack it is in (nil: flexible on both).
        case spacer(Axis?)
        /// `.horizontal`: a ─ line; `.vertical`: a │ line.
        case divider(Axis)
        case stack(Axis, align: Align, spacing: Int)
        case zstack(x: Align, y: Align)
        case padding(top: Int, leading: Int, bottom: Int, trailing: Int)
        case frame(FrameCells)
        /// `ViewThatFits`: shows the first child whose ideal size fits the proposal on the
        /// constrained axes (a nil proposal fits anything), else the last child.
        case firstFit(horizontal: Bool, vertical: Bool)
    }

    let kind: Kind
    var children: [LayoutNode]
    var hidden = false
    var priority = 0.0
    /// Where a one-line text that does not fit is cut: `head`, `middle`, or nil (the tail).
    var truncation: String?
    fileprivate var sizes: [Proposal: CellSize] = [:]
    fileprivate var wrapped: [Proposal: [String]] = [:]

    init(_ kind: Kind, _ children: [LayoutNode] = []) {
        self.kind = kind; self.children = children
    }

    var isEmpty: Bool { if case .empty = kind { return children.isEmpty }; return false }
}

enum GridLayout {
    static let unbounded = RenderLimits.maxCells

    /// Lays `root` out on a grid of `columns` × `rows` and returns the drawn lines.
    static func render(_ root: LayoutNode, columns: Int, rows: Int) -> [String] {
        var canvas = Canvas(columns: columns, rows: rows)
        let p = Proposal(width: columns, height: rows)
        let s = size(root, p)
        place(root, x: max(0, (columns - s.width) / 2), y: max(0, (rows - s.height) / 2), size: s, proposal: p, on: &canvas)
        return canvas.lines
    }

    static func clampCells(_ v: Int) -> Int { min(max(v, 0), unbounded) }

    // MARK: Measuring

    static func size(_ n: LayoutNode, _ p: Proposal) -> CellSize {
        if let s = n.sizes[p] { return s }
        let s = measure(n, p)
        let clamped = CellSize(width: clampCells(s.width), height: clampCells(s.height))
        n.sizes[p] = clamped
        return clamped
    }

    private static func measure(_ n: LayoutNode, _ p: Proposal) -> CellSize {
        switch n.kind {
        case .empty:
            return .zero
        case .text:
            let lines = textLines(n, p)
            return CellSize(width: lines.map { displayWidth(of: $0) }.max() ?? 0, height: lines.count)
        case .bar:
            return CellSize(width: p.width ?? 10, height: 1)
        case .shape:
            return CellSize(width: p.width ?? 1, height: p.height ?? 1)
        case .spacer(let axis):
            switch axis {
            case .horizontal?: return CellSize(width: p.width ?? 0, height: 0)
            case .vertical?: return CellSize(width: 0, height: p.height ?? 0)
            case nil: return CellSize(width: p.width ?? 0, height: p.height ?? 0)
            }
        case .divider(let a):
            return a == .horizontal ? CellSize(width: p.width ?? 1, height: 1) : CellSize(width: 1, height: p.height ?? 1)
        case .stack(let axis, _, let spacing):
            return stackLayout(n, axis: axis, spacing: spacing, p).size
        case .zstack:
            var s = CellSize.zero
            for c in n.children {
                let cs = size(c, p)
                s.width = max(s.width, cs.width); s.height = max(s.height, cs.height)
            }
            return s
        case .padding(let t, let l, let b, let r):
            guard let c = n.children.first else { return CellSize(width: l + r, height: t + b) }
            let cs = size(c, inset(p, t, l, b, r))
            return CellSize(width: cs.width + l + r, height: cs.height + t + b)
        case .frame(let f):
            guard let c = n.children.first else { return frameSize(f, child: .zero, p) }
            return frameSize(f, child: size(c, frameChildProposal(f, p)), p)
        case .firstFit:
            guard let c = fitting(n, p) else { return .zero }
            return size(c, p)
        }
    }

    /// The child a `firstFit` node shows for `p`.
    static func fitting(_ n: LayoutNode, _ p: Proposal) -> LayoutNode? {
        guard case .firstFit(let h, let v) = n.kind else { return nil }
        for c in n.children {
            let ideal = size(c, Proposal(width: h ? nil : p.width, height: v ? nil : p.height))
            let fitsX = !h || p.width.map { ideal.width <= $0 } ?? true
            let fitsY = !v || p.height.map { ideal.height <= $0 } ?? true
            if fitsX && fitsY { return c }
        }
        return n.children.last
    }

    static func inset(_ p: Proposal, _ t: Int, _ l: Int, _ b: Int, _ r: Int) -> Proposal {
        Proposal(width: p.width.map { max(0, $0 - l - r) }, height: p.height.map { max(0, $0 - t - b) })
    }

    static func frameChildProposal(_ f: FrameCells, _ p: Proposal) -> Proposal {
        func axis(_ fixed: Int?, _ mn: Int?, _ mx: Int?, _ proposed: Int?) -> Int? {
            if let fixed { return fixed }
            guard var v = proposed else { return nil }
            if let mx { v = min(v, mx) }
            if let mn { v = max(v, mn) }
            return v
        }
        return Proposal(width: axis(f.width, f.minWidth, f.maxWidth, p.width),
                        height: axis(f.height, f.minHeight, f.maxHeight, p.height))
    }

    static func frameSize(_ f: FrameCells, child: CellSize, _ p: Proposal) -> CellSize {
        func axis(_ fixed: Int?, _ mn: Int?, _ mx: Int?, _ proposed: Int?, _ c: Int) -> Int {
            if let fixed { return fixed }
            let pv = proposed ?? c
            var r = c
            if let mn { r = max(mn, min(r, pv)) }
            if let mx { r = min(mx, max(r, pv)) }
            return r
        }
        return CellSize(width: axis(f.width, f.minWidth, f.maxWidth, p.width, child.width),
                        height: axis(f.height, f.minHeight, f.maxHeight, p.height, child.height))
    }

    /// The children's proposals and sizes in a stack, and the stack's size.
    static func stackLayout(_ n: LayoutNode, axis: Axis, spacing: Int, _ p: Proposal)
        -> (size: CellSize, offers: [Proposal], sizes: [CellSize]) {
        let kids = n.children
        guard !kids.isEmpty else { return (.zero, [], []) }
        let cross = axis == .horizontal ? p.height : p.width
        let totalSpacing = clampCells(spacing * (kids.count - 1))
        var offers = [Proposal](repeating: Proposal(width: nil, height: nil), count: kids.count)
        var sizes = [CellSize](repeating: .zero, count: kids.count)
        if let main = p.along(axis) {
            let minMain = kids.map { size($0, .make(axis, main: 0, cross: cross)).along(axis) }
            let maxMain = kids.map { size($0, .make(axis, main: unbounded, cross: cross)).along(axis) }
            var remaining = max(0, main - totalSpacing)
            let priorities = Set(kids.map(\.priority)).sorted(by: >)
            for prio in priorities {
                let group = kids.indices.filter { kids[$0].priority == prio }
                    .sorted { (maxMain[$0] - minMain[$0], $0) < (maxMain[$1] - minMain[$1], $1) }
                let lowerMin = kids.indices.filter { kids[$0].priority < prio }.reduce(0) { $0 + minMain[$1] }
                var avail = max(0, remaining - lowerMin)
                // Bounded children (text, fixed frames) share what the unbounded ones (spacers,
                // shapes, bars, infinite frames) leave at their minimum; those take the rest.
                // So a text next to a Spacer keeps its ideal width, two texts split evenly.
                let isUnbounded = group.map { maxMain[$0] >= unbounded }
                var leftBounded = isUnbounded.filter { !$0 }.count
                var leftUnbounded = group.count - leftBounded
                var unboundedMin = zip(group, isUnbounded).filter { $0.1 }.reduce(0) { $0 + minMain[$1.0] }
                for (i, open) in zip(group, isUnbounded) {
                    let share: Int
                    if open {
                        share = leftUnbounded == 1 ? avail : avail / leftUnbounded
                        leftUnbounded -= 1; unboundedMin -= minMain[i]
                    } else {
                        let pool = max(0, avail - unboundedMin)
                        share = leftBounded == 1 ? pool : pool / leftBounded
                        leftBounded -= 1
                    }
                    let offer = Proposal.make(axis, main: max(0, share), cross: cross)
                    let s = size(kids[i], offer)
                    offers[i] = offer; sizes[i] = s
                    avail = max(0, avail - s.along(axis)); remaining = max(0, remaining - s.along(axis))
                }
            }
        } else {
            for (i, k) in kids.enumerated() {
                offers[i] = .make(axis, main: nil, cross: cross)
                sizes[i] = size(k, offers[i])
            }
        }
        let mainTotal = clampCells(sizes.reduce(0) { $0 + $1.along(axis) } + totalSpacing)
        let crossMax = sizes.map { axis == .horizontal ? $0.height : $0.width }.max() ?? 0
        let s = axis == .horizontal ? CellSize(width: mainTotal, height: crossMax) : CellSize(width: crossMax, height: mainTotal)
        return (s, offers, sizes)
    }

    /// The lines a text shows for a proposal: wrapped to the proposed width, limited by
    /// `lineLimit` and the proposed height (at least one line), the last kept line ending in
    /// "…" when text was cut.
    static func textLines(_ n: LayoutNode, _ p: Proposal) -> [String] {
        guard case .text(let s, let limit, _) = n.kind else { return [] }
        if let l = n.wrapped[p] { return l }
        var maxLines = min(limit ?? Int.max, p.height ?? Int.max, GridSize.maximum.rows)
        maxLines = max(1, maxLines)
        var lines: [String]
        if let w = p.width {
            if w <= 0 { lines = [""] }
            else if maxLines == 1 {
                let first = s.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
                let line = s.contains("\n") && displayWidth(of: first) < w ? first + "…" : first
                lines = [n.truncation.map { line.truncated(toWidth: w, mode: $0) } ?? line.truncated(toWidth: w)]
            } else {
                lines = wrap(s, width: w, maxLines: maxLines + 1)
            }
        } else {
            lines = s.split(separator: "\n", omittingEmptySubsequences: false).prefix(maxLines + 1).map(String.init)
        }
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            let last = lines[maxLines - 1]
            let w = p.width ?? (displayWidth(of: last) + 1)
            lines[maxLines - 1] = displayWidth(of: last) + 1 <= w ? last + "…" : (last + "  ").truncated(toWidth: w)
        }
        n.wrapped[p] = lines
        return lines
    }

    /// Greedy word wrap by display width; words wider than a line are broken.
    static func wrap(_ s: String, width: Int, maxLines: Int) -> [String] {
        var lines: [String] = []
        for para in s.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = "", lw = 0
            for word in para.split(separator: " ") {
                var word = Substring(word)
                var ww = displayWidth(of: word)
                if lw > 0 && lw + 1 + ww <= width { line += " " + word; lw += 1 + ww; continue }
                if lw > 0 { lines.append(line); line = ""; lw = 0 }
                while ww > width {
                    var head = "", hw = 0
                    var idx = word.startIndex
                    while idx < word.endIndex {
                        let cw = displayWidth(of: word[idx])
                        if hw + cw > width { break }
                        head.append(word[idx]); hw += cw; idx = word.index(after: idx)
                    }
                    if head.isEmpty { idx = word.index(after: word.startIndex) } // a wide char in a 1-column line
                    lines.append(head)
                    if lines.count >= maxLines { return lines }
                    word = word[idx...]; ww = displayWidth(of: word)
                }
                line = String(word); lw = ww
            }
            lines.append(line)
            if lines.count >= maxLines { return lines }
        }
        return lines
    }

    // MARK: Placing

    static func place(_ n: LayoutNode, x: Int, y: Int, size s: CellSize, proposal p: Proposal, on canvas: inout Canvas) {
        if n.hidden { return }
        // Nothing of this node can reach the grid.
        if x >= canvas.columns || y >= canvas.rows || x + s.width < 0 || y + s.height < 0 { return }
        switch n.kind {
        case .empty, .spacer:
            return
        case .text(_, _, let align):
            for (i, line) in textLines(n, p).enumerated() where i < s.height {
                canvas.write(line, x: x + offset(align, child: displayWidth(of: line), in: s.width), y: y + i)
            }
        case .bar(let f):
            let filled = min(max(Int(saturating: (f * Double(s.width)).rounded()), 0), s.width)
            canvas.fill("█", x: x, y: y, width: filled, height: 1)
            canvas.fill("░", x: x + filled, y: y, width: s.width - filled, height: 1)
        case .shape(let paint):
            if let paint { ShapeDrawing.draw(paint, x: x, y: y, width: s.width, height: s.height, on: &canvas) }
        case .divider(let a):
            if a == .horizontal { canvas.fill("─", x: x, y: y, width: s.width, height: 1) }
            else { canvas.fill("│", x: x, y: y, width: 1, height: s.height) }
        case .stack(let axis, let align, let spacing):
            let l = stackLayout(n, axis: axis, spacing: spacing, p)
            var cursor = 0
            for (i, c) in n.children.enumerated() {
                let cs = l.sizes[i]
                if axis == .horizontal {
                    place(c, x: x + cursor, y: y + offset(align, child: cs.height, in: s.height), size: cs, proposal: l.offers[i], on: &canvas)
                } else {
                    place(c, x: x + offset(align, child: cs.width, in: s.width), y: y + cursor, size: cs, proposal: l.offers[i], on: &canvas)
                }
                cursor += cs.along(axis) + spacing
                if cursor > RenderLimits.maxCells { break }
            }
        case .zstack(let ax, let ay):
            for c in n.children {
                let cs = size(c, p)
                place(c, x: x + offset(ax, child: cs.width, in: s.width), y: y + offset(ay, child: cs.height, in: s.height),
                      size: cs, proposal: p, on: &canvas)
            }
        case .padding(let t, let l, let b, let r):
            guard let c = n.children.first else { return }
            let cp = inset(p, t, l, b, r)
            place(c, x: x + l, y: y + t, size: size(c, cp), proposal: cp, on: &canvas)
        case .frame(let f):
            guard let c = n.children.first else { return }
            let cp = frameChildProposal(f, p)
            let cs = size(c, cp)
            place(c, x: x + offset(f.alignX, child: cs.width, in: s.width), y: y + offset(f.alignY, child: cs.height, in: s.height),
                  size: cs, proposal: cp, on: &canvas)
        case .firstFit:
            guard let c = fitting(n, p) else { return }
            place(c, x: x, y: y, size: size(c, p), proposal: p, on: &canvas)
        }
    }
}
