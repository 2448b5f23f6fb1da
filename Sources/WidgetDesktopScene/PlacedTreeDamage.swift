import FoundationEssentials
import OpenWidgetKit
import WidgetLayout
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// Where two layouts of one widget draw differently, in the widget's points: the rectangles of
/// the placed nodes that changed (a clock whose seconds tick: the seconds' text, old and new),
/// never less than what changed.
///
/// Rules, walking both trees in step:
/// - a node that draws itself (text, image, shape, colour, divider, controls, a background)
///   and moved, resized or changed its text, font or indicator damages its ink before and after;
/// - a node whose own properties (modifiers, style, value, …) changed damages its whole subtree
///   before and after, since modifiers reach the descendants (colour, opacity, redaction, clip);
/// - a node with a different number of children damages both subtrees;
/// - a change in or under a rotation, `scaleEffect` or shadow damages that node's subtree ink
///   through its transform (`ink`), before and after;
/// - a change to a node on the root's chain of only children (which carries the widget's
///   container background and redaction) damages the whole widget;
/// - a `ProgressView(timerInterval:)` damages its ink when its fraction at the two instants differs.
/// Ink is the union of frame, content frame and indicator, outset by `inkMargin` (antialiasing
/// and glyph overhang), plus half a stroke's line width.
///
/// Pure; any thread.
public enum PlacedTreeDamage {
    /// Points every ink rectangle is outset by.
    public static let inkMargin = 1.0

    /// The damage from `old` (laid out at `oldNow`) to `new` (at `newNow`) in a widget of
    /// `bounds`; `[bounds]` when the whole widget changed, `[]` when nothing did.
    public static func damage(from old: PlacedNode, at oldNow: Date, to new: PlacedNode, at newNow: Date, bounds: Rect) -> [Rect] {
        var walk = Walk(oldNow: oldNow, newNow: newNow)
        walk.compare(old, new, onRootChain: true, depth: 0)
        if walk.whole { return [bounds] }
        return walk.rects.compactMap { clip($0, to: bounds) }
    }

    private struct Walk {
        let oldNow: Date, newNow: Date
        var rects: [Rect] = []
        var whole = false
        var visited = 0

        mutating func compare(_ a: PlacedNode, _ b: PlacedNode, onRootChain: Bool, depth: Int) {
            guard !whole else { return }
            visited += 1
            guard visited <= LayoutLimits.maxNodes, depth <= LayoutLimits.maxDepth else { whole = true; return }
            typealias D = PlacedTreeDamage
            if D.drawsOutside(a.node) || D.drawsOutside(b.node) {
                // Rotated, scaled or shadowed: any change redraws the whole transformed ink.
                guard !same(a, b, depth: depth) else { return }
                if onRootChain { whole = true } else { rects += [D.ink(a), D.ink(b)] }
                return
            }
            if D.bare(a.node) != D.bare(b.node) {
                if onRootChain { whole = true } else { rects += [D.ink(a), D.ink(b)] }
                return
            }
            if a.frame != b.frame || a.contentFrame != b.contentFrame || a.text != b.text || a.indicator != b.indicator
                || a.font != b.font || timeChanged(a.node) {
                if D.clips(a.node) && a.frame != b.frame { rects += [D.ink(a), D.ink(b)]; return }
                if D.drawsItself(a.node) { rects += [D.ownInk(a), D.ownInk(b)] }
            }
            guard a.children.count == b.children.count else { rects += [D.ink(a), D.ink(b)]; return }
            let chain = onRootChain && a.children.count == 1
            for (x, y) in zip(a.children, b.children) { compare(x, y, onRootChain: chain, depth: depth + 1) }
        }

        /// Whether two subtrees draw the same.
        func same(_ a: PlacedNode, _ b: PlacedNode, depth: Int) -> Bool {
            guard depth <= LayoutLimits.maxDepth, a.children.count == b.children.count else { return false }
            guard PlacedTreeDamage.bare(a.node) == PlacedTreeDamage.bare(b.node), a.frame == b.frame, a.contentFrame == b.contentFrame,
                  a.text == b.text, a.indicator == b.indicator, a.font == b.font, !timeChanged(a.node) else { return false }
            return zip(a.children, b.children).allSatisfy { same($0, $1, depth: depth + 1) }
        }

        /// A `ProgressView(timerInterval:)` whose fraction differs at the two instants.
        func timeChanged(_ n: ViewNode) -> Bool {
            guard n.kind == .progress, let d = n.date else { return false }
            return LiveDateFormatter.fraction(d, now: oldNow) != LiveDateFormatter.fraction(d, now: newNow)
        }
    }

    /// The node without its children: what it draws and hands down.
    static func bare(_ n: ViewNode) -> ViewNode {
        var n = n
        n.children = nil
        return n
    }

    static func drawsItself(_ n: ViewNode) -> Bool {
        if n.modifiers?.background != nil { return true }
        switch n.kind {
        case .text, .image, .shape, .color, .divider, .progress, .gauge, .toggle, .accessoryWidgetBackground: return true
        default: return false
        }
    }

    /// A rotation, `scaleEffect` or shadow: drawing outside the node's frames.
    static func drawsOutside(_ n: ViewNode) -> Bool {
        guard let m = n.modifiers else { return false }
        if let r = m.rotation, r != 0 { return true }
        return m.other?["scaleEffect"] != nil || m.other?["shadow"] != nil
    }

    static func clips(_ n: ViewNode) -> Bool {
        m(n)?["cornerRadius"] != nil || m(n)?["clipShape"] != nil
    }

    private static func m(_ n: ViewNode) -> [String: JSONValue]? { n.modifiers?.other }

    /// The node's own ink: frame ∪ content frame ∪ indicator, outset.
    static func ownInk(_ p: PlacedNode) -> Rect {
        var r = union(p.frame, p.contentFrame)
        if let i = p.indicator { r = union(r, i) }
        var margin = inkMargin
        if let s = p.node.shape, s.stroke != nil, let lw = s.lineWidth, lw.isFinite, lw > 0 { margin += min(lw, 1000) / 2 }
        if p.node.kind == .gauge, let i = p.indicator { margin += i.height / 2 }  // a linear gauge's marker
        if p.font.italic, p.font.size.isFinite { margin += min(p.font.size, LayoutLimits.maxFontSize) / 4 }
        return outset(r, margin)
    }

    /// The ink of `p` and every descendant, through each node's rotation, `scaleEffect` and
    /// shadow (as `WidgetPainter` applies them: scale, then rotation, about the frame's centre;
    /// the shadow inside them, offset and spread by half its radius).
    static func ink(_ p: PlacedNode) -> Rect {
        var r = ownInk(p)
        for c in p.children { r = union(r, ink(c)) }
        guard let m = p.node.modifiers, drawsOutside(p.node) else { return r }
        if case .object(let o)? = m.other?["shadow"] {
            func num(_ k: String) -> Double {
                guard case .number(let v)? = o[k], v.isFinite else { return 0 }
                return min(max(v, -200), 200)
            }
            let spread = max(0, num("radius")) / 2 + inkMargin
            r = union(r, outset(r.offsetBy(num("x"), num("y")), spread))
        }
        let cx = p.frame.midX, cy = p.frame.midY
        if case .number(let k)? = m.other?["scaleEffect"], k.isFinite, k > 0, k < 100 {
            r = Rect(x: cx + (r.x - cx) * k, y: cy + (r.y - cy) * k, width: r.width * k, height: r.height * k)
        }
        if let deg = m.rotation, deg.isFinite, deg != 0 {
            let a = deg * .pi / 180, c = cos(a), s = sin(a)
            let corners = [(r.x, r.y), (r.maxX, r.y), (r.x, r.maxY), (r.maxX, r.maxY)].map { (x, y) in
                (cx + (x - cx) * c - (y - cy) * s, cy + (x - cx) * s + (y - cy) * c)
            }
            let xs = corners.map(\.0), ys = corners.map(\.1)
            r = outset(Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!), inkMargin)
        }
        return r
    }

    static func union(_ a: Rect, _ b: Rect) -> Rect {
        let x = min(a.x, b.x), y = min(a.y, b.y)
        return Rect(x: x, y: y, width: max(a.maxX, b.maxX) - x, height: max(a.maxY, b.maxY) - y)
    }

    static func outset(_ r: Rect, _ d: Double) -> Rect { Rect(x: r.x - d, y: r.y - d, width: r.width + 2 * d, height: r.height + 2 * d) }

    /// `r` inside `bounds`, nil when they do not meet or `r` is not finite.
    static func clip(_ r: Rect, to bounds: Rect) -> Rect? {
        guard [r.x, r.y, r.width, r.height].allSatisfy(\.isFinite) else { return bounds }
        let x0 = max(r.x, bounds.x), y0 = max(r.y, bounds.y), x1 = min(r.maxX, bounds.maxX), y1 = min(r.maxY, bounds.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}
