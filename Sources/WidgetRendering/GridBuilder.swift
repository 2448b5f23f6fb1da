import FoundationEssentials
import OpenWidgetKit

/// Turns a `ViewNode` tree into the `LayoutNode` tree the grid layout measures and draws:
/// resolves the inherited environment (redaction, live dates, glyphs, opacity, rotation),
/// converts points to cells (8 pt a column, 16 pt a row, rounded; `.infinity` stays
/// unbounded, NaN and negative values are ignored or clamped), wraps content in its
/// `padding` then `frame`, and expands composite views (Label, ProgressView, Gauge, Button,
/// Toggle) into text, bars and stacks. Depth, node count and children per node are capped by
/// `RenderLimits`.
struct GridBuilder {
    private var budget = RenderLimits.maxNodes

    static func columns(_ pt: Double?) -> Int? { cells(pt, 8) }
    static func rows(_ pt: Double?) -> Int? { cells(pt, 16) }

    private static func cells(_ pt: Double?, _ per: Double) -> Int? {
        guard let pt, !pt.isNaN else { return nil }
        if pt == .infinity { return RenderLimits.maxCells }
        guard pt.isFinite else { return 0 }
        return min(max(Int(saturating: (min(max(pt, 0), 1e9) / per).rounded()), 0), RenderLimits.maxCells)
    }

    static func horizontal(_ s: String?) -> Align {
        switch s?.lowercased() ?? "" {
        case let a where a.hasSuffix("leading"): -1
        case let a where a.hasSuffix("trailing"): 1
        default: 0
        }
    }

    static func vertical(_ s: String?) -> Align {
        switch s?.lowercased() ?? "" {
        case let a where a.hasPrefix("top") || a == "firsttextbaseline": -1
        case let a where a.hasPrefix("bottom") || a == "lasttextbaseline": 1
        default: 0
        }
    }

    /// The layout node of `n` under the environment `parent`; `axis` is the enclosing stack's.
    mutating func build(_ original: ViewNode, _ parent: RenderEnv, axis: Axis?, backdrop: Bool = false) -> LayoutNode {
        let n = original.forTextOutputs
        guard budget > 0, parent.depth < RenderLimits.maxDepth else { return LayoutNode(.empty) }
        budget -= 1
        let env = parent.applying(n.modifiers)
        let m = n.mods
        var node = content(n, env, parent: parent, axis: axis, backdrop: backdrop)
        if let p = m.padding {
            node = LayoutNode(.padding(top: Self.rows(p.top) ?? 0, leading: Self.columns(p.leading) ?? 0,
                                       bottom: Self.rows(p.bottom) ?? 0, trailing: Self.columns(p.trailing) ?? 0), [node])
        }
        if let f = m.frame {
            var fc = FrameCells(width: Self.columns(f.width), height: Self.rows(f.height),
                                minWidth: Self.columns(f.minWidth), maxWidth: Self.columns(f.maxWidth),
                                minHeight: Self.rows(f.minHeight), maxHeight: Self.rows(f.maxHeight))
            fc.alignX = Self.horizontal(f.alignment); fc.alignY = Self.vertical(f.alignment)
            if let mn = fc.minWidth, let mx = fc.maxWidth, mx < mn { fc.maxWidth = mn }
            if let mn = fc.minHeight, let mx = fc.maxHeight, mx < mn { fc.maxHeight = mn }
            node = LayoutNode(.frame(fc), [node])
        }
        if m.hidden == true { node.hidden = true }
        if env.truncationMode != nil, case .text = node.kind { node.truncation = env.truncationMode }
        if let lp = m.layoutPriority, lp.isFinite { node.priority = lp }
        return node
    }

    private func kids(_ n: ViewNode) -> [ViewNode] {
        // `EmptyView` takes no place and no spacing, unless a modifier gives it a frame.
        // A `widgetLabel` shows in accessory families only (TextRenderer handles it there).
        (n.children ?? []).prefix(RenderLimits.maxChildren).filter {
            ($0.kind != .empty || $0.modifiers?.frame != nil || $0.modifiers?.padding != nil) && $0.role != "widgetLabel"
        }
    }

    private func text(_ s: String, _ env: RenderEnv, lineLimit: Int? = nil) -> LayoutNode {
        // A string longer than any grid can show is cut before layout.
        let s = s.count > 4096 ? String(s.prefix(4096)) : s
        return LayoutNode(.text(s, lineLimit: lineLimit ?? env.lineLimit, align: env.textAlignment == nil ? -1 : Self.horizontal(env.textAlignment)))
    }

    private mutating func stack(_ axis: Axis, _ children: [ViewNode], _ env: RenderEnv, align: Align, spacing: Int) -> LayoutNode {
        LayoutNode(.stack(axis, align: align, spacing: spacing), children.map { build($0, env, axis: axis) })
    }

    private mutating func content(_ n: ViewNode, _ env: RenderEnv, parent: RenderEnv, axis: Axis?, backdrop: Bool) -> LayoutNode {
        switch n.kind {
        case .empty:
            return LayoutNode(.empty)
        case .text:
            return text(env.text(of: n), env)
        case .image:
            if let s = n.symbol { return text(env.glyph(s), env, lineLimit: 1) }
            return text(env.display(n.text ?? ""), env, lineLimit: 1)
        case .label:
            var parts: [LayoutNode] = []
            if let s = n.symbol { parts.append(text(env.glyph(s), env, lineLimit: 1)) }
            let ks = kids(n)
            if ks.contains(where: { $0.role == "icon" || $0.role == "title" }) {
                for role in ["icon", "title"] { for c in ks where c.role == role { parts.append(build(c, env, axis: .horizontal)) } }
            } else {
                parts += ks.map { build($0, env, axis: .horizontal) }
            }
            if let t = n.text, !t.isEmpty { parts.append(text(env.display(t), env)) }
            return LayoutNode(.stack(.horizontal, align: 0, spacing: 1), parts)
        case .hstack:
            let sp = n.spacing.map { Self.columns($0) ?? 1 } ?? 1
            return stack(.horizontal, kids(n), env, align: Self.vertical(n.alignment), spacing: sp)
        case .vstack:
            let sp = n.spacing.map { Self.rows($0) ?? 0 } ?? 0
            return stack(.vertical, kids(n), env, align: Self.horizontal(n.alignment), spacing: sp)
        case .group, .link, .unknown:
            return stack(.vertical, kids(n), env, align: Self.horizontal(n.alignment), spacing: 0)
        case .viewThatFits:
            return LayoutNode(.firstFit(horizontal: n.axes != "vertical", vertical: n.axes != "horizontal"),
                              kids(n).map { build($0, env, axis: axis) })
        case .accessoryWidgetBackground:
            // A backdrop: fills its place, draws nothing on a character grid.
            return LayoutNode(.shape(nil))
        case .grid:
            let rows = kids(n).map { $0.kind == .gridRow ? kids($0) : [$0] }
            let spanning = kids(n).map { $0.kind != .gridRow }
            return grid(rows, spanning: spanning, env, align: Self.horizontal(n.alignment),
                        hSpacing: n.horizontalSpacing.map { Self.columns($0) ?? 1 } ?? 1,
                        vSpacing: n.spacing.map { Self.rows($0) ?? 0 } ?? 0)
        case .gridRow:
            return stack(.horizontal, kids(n), env, align: Self.vertical(n.alignment), spacing: 1)
        case .lazyVGrid, .lazyHGrid:
            let cells = kids(n)
            let count = Self.lanes(n.gridItems ?? [], cells: cells.count)
            let lanes = stride(from: 0, to: cells.count, by: count).map { Array(cells[$0..<min($0 + count, cells.count)]) }
            if n.kind == .lazyVGrid {
                return grid(lanes, spanning: lanes.map { _ in false }, env, align: Self.horizontal(n.alignment), hSpacing: 1,
                            vSpacing: n.spacing.map { Self.rows($0) ?? 0 } ?? 0)
            }
            // A horizontal grid fills columns top to bottom.
            let columns = lanes.map { LayoutNode(.stack(.vertical, align: -1, spacing: 0), $0.map { build($0, env, axis: .vertical) }) }
            return LayoutNode(.stack(.horizontal, align: Self.vertical(n.alignment), spacing: n.spacing.map { Self.columns($0) ?? 1 } ?? 1), columns)
        case .zstack:
            let ks = kids(n)
            let children = ks.enumerated().map { i, c in build(c, env, axis: nil, backdrop: i == 0 && ks.count > 1) }
            return LayoutNode(.zstack(x: Self.horizontal(n.alignment), y: Self.vertical(n.alignment)), children)
        case .spacer:
            return LayoutNode(.spacer(axis))
        case .divider:
            return LayoutNode(.divider(axis == .horizontal ? .vertical : .horizontal))
        case .progress, .gauge:
            return valueView(n, env, parent: parent)
        case .button, .toggle:
            var f = InlineFlattener()
            let runs = f.join(f.items(n, parent))
            return text(runs.map(\.text).joined(), env, lineLimit: 1)
        case .shape:
            return LayoutNode(.shape(paint(n, env)))
        case .color:
            // A colour under other layers of a ZStack is a background: it fills but draws nothing.
            if backdrop { return LayoutNode(.shape(nil)) }
            var spec = StyleSpec(name: n.text)
            if let fg = n.modifiers?.foreground ?? n.shape?.fill { spec = fg }
            let d = env.options.palette.density(spec) * env.style.opacity
            return LayoutNode(.shape(ShapeDrawing.shade(d).map { ShapePaint(type: "rectangle", fill: $0, stroke: nil) }))
        }
    }

    /// How many cells a lazy grid puts in one row (`lazyVGrid`) or column (`lazyHGrid`): one
    /// per `fixed`/`flexible` item; an `adaptive` item as many as fit a medium widget's width
    /// (329 pt), at least one. As in the picture layout (`GridTrack`), a minimum is at least
    /// 1 pt and a spacing at least 0, and a number that is not finite counts as absent: a
    /// minimum of 1 with a spacing of −1 made this `Int(329 / 0)` and killed the host (issue 23).
    static func lanes(_ items: [GridItemSpec], cells: Int) -> Int {
        func finite(_ v: Double?) -> Double? { v.flatMap { $0.isFinite ? $0 : nil } }
        var count = 0
        for item in items where count < cells {
            if item.size == "adaptive" {
                let lane = (finite(item.minimum).map { max($0, 1) } ?? 50) + (finite(item.spacing).map { max($0, 0) } ?? 8)
                count += max(1, Int(saturating: 329 / lane))
            } else {
                count += 1
            }
        }
        return max(1, min(count, max(cells, 1)))
    }

    /// Rows of cells whose columns line up: each cell gets the width of its column's widest
    /// cell (its ideal width); `spanning` rows (a `Divider` in a `Grid`) take the whole width.
    private mutating func grid(_ rows: [[ViewNode]], spanning: [Bool], _ env: RenderEnv, align: Align,
                               hSpacing: Int, vSpacing: Int) -> LayoutNode {
        let built = rows.map { $0.map { build($0, env, axis: .horizontal) } }
        var widths: [Int] = []
        for (i, row) in built.enumerated() where !spanning[i] {
            for (j, cell) in row.enumerated() {
                let w = GridLayout.size(cell, Proposal(width: nil, height: nil)).width
                if j < widths.count { widths[j] = max(widths[j], w) } else { widths.append(w) }
            }
        }
        let lines = built.enumerated().map { i, row -> LayoutNode in
            if spanning[i] { return row.first ?? LayoutNode(.empty) }
            let cells = row.enumerated().map { j, cell -> LayoutNode in
                var f = FrameCells(width: widths[j])
                f.alignX = align
                return LayoutNode(.frame(f), [cell])
            }
            return LayoutNode(.stack(.horizontal, align: 0, spacing: hSpacing), cells)
        }
        return LayoutNode(.stack(.vertical, align: -1, spacing: vSpacing), lines)
    }

    private func paint(_ n: ViewNode, _ env: RenderEnv) -> ShapePaint {
        let info = n.shape ?? ShapeInfo(type: "rectangle")
        let palette = env.options.palette
        var p = ShapePaint(type: info.type)
        if let st = info.stroke {
            p.stroke = ShapeDrawing.shade(palette.density(st) * env.style.opacity)
        }
        if let fi = info.fill {
            p.fill = ShapeDrawing.shade(palette.density(fi) * env.style.opacity)
        } else if info.stroke == nil {
            p.fill = ShapeDrawing.shade(palette.density(env.style.foreground) * env.style.opacity)
        }
        if env.redacts, p.fill != nil { p.fill = "▒" }
        p.trimFrom = info.trimFrom ?? 0
        p.trimTo = info.trimTo ?? 1
        p.rotation = env.rotation
        return p
    }

    /// ProgressView and Gauge: a compact "◔ 5" in circular styles; otherwise the label, a bar
    /// across the width (with minimum/maximum labels for gauges) and the current value.
    private mutating func valueView(_ n: ViewNode, _ env: RenderEnv, parent: RenderEnv) -> LayoutNode {
        let fraction = TreeQuery.fraction(of: n, now: env.options.now)
        let ks = kids(n)
        let current = ks.first { $0.role == "currentValueLabel" }
        if InlineFlattener.isCircular(n) || (n.kind == .progress && fraction == nil) {
            guard let fraction else { return text("◌", env, lineLimit: 1) }
            var f = InlineFlattener()
            var value = current.map { f.join(f.items($0, env)).map(\.text).joined() } ?? ""
            if value.isEmpty { value = env.display(LiveDateFormatter.percent(fraction)) }
            return text(TreeQuery.pie(fraction) + " " + value, env, lineLimit: 1)
        }
        var rows: [LayoutNode] = []
        let labels = ks.filter { $0.role == "label" || (n.kind == .progress && $0.role == nil) }
        if n.kind == .gauge {
            var head = labels.map { build($0, env, axis: .horizontal) }
            if let current {
                if !head.isEmpty { head.append(LayoutNode(.spacer(.horizontal))) }
                head.append(build(current, env, axis: .horizontal))
            }
            if !head.isEmpty { rows.append(LayoutNode(.stack(.horizontal, align: 0, spacing: 1), head)) }
            var line: [LayoutNode] = []
            if let mn = ks.first(where: { $0.role == "minimumValueLabel" }) { line.append(build(mn, env, axis: .horizontal)) }
            line.append(LayoutNode(.bar(fraction ?? 0)))
            if let mx = ks.first(where: { $0.role == "maximumValueLabel" }) { line.append(build(mx, env, axis: .horizontal)) }
            rows.append(LayoutNode(.stack(.horizontal, align: 0, spacing: 1), line))
        } else {
            rows += labels.map { build($0, env, axis: .vertical) }
            rows.append(LayoutNode(.bar(fraction ?? 0)))
            if let current { rows.append(build(current, env, axis: .vertical)) }
        }
        return rows.count == 1 ? rows[0] : LayoutNode(.stack(.vertical, align: -1, spacing: 0), rows)
    }
}
