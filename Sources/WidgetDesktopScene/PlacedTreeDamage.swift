import FoundationEssentials
import OpenWidgetKit
import WidgetLayout
import WidgetRendering

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
/// - a change under a rotation, `scaleEffect` or shadow (which draw outside the frames), or to a
///   node on the root's chain of only children (which carries the widget's container
///   background and redaction), damages the whole widget;
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
            let sameOwn = PlacedTreeDamage.bare(a.node) == PlacedTreeDamage.bare(b.node)
            if !sameOwn {
                if onRootChain || PlacedTreeDamage.drawsOutside(a.node) || PlacedTreeDamage.drawsOutside(b.node) { whole = true; return }
                rects.append(PlacedTreeDamage.subtreeInk(a)); rects.append(PlacedTreeDamage.subtreeInk(b))
                return
            }
            let moved = a.frame != b.frame || a.contentFrame != b.contentFrame || a.text != b.text
                || a.indicator != b.indicator || a.font != b.font
            if moved || timeChanged(a.node) {
                if PlacedTreeDamage.drawsOutside(a.node) || (onRootChain && a.frame != b.frame) { whole = true; return }
                if PlacedTreeDamage.clips(a.node) && a.frame != b.frame {
                    rects.append(PlacedTreeDamage.subtreeInk(a)); rects.append(PlacedTreeDamage.subtreeInk(b))
                    return
                }
                if PlacedTreeDamage.drawsItself(a.node) { rects.append(PlacedTreeDamage.ownInk(a)); rects.append(PlacedTreeDamage.ownInk(b)) }
            }
            guard a.children.count == b.children.count else {
                if PlacedTreeDamage.drawsOutside(a.node) { whole = true; return }
                rects.append(PlacedTreeDamage.subtreeInk(a)); rects.append(PlacedTreeDamage.subtreeInk(b))
                return
            }
            let chain = onRootChain && a.children.count == 1
            let before = rects.count
            for (x, y) in zip(a.children, b.children) { compare(x, y, onRootChain: chain, depth: depth + 1) }
            if rects.count > before && PlacedTreeDamage.drawsOutside(a.node) { whole = true }
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

    /// The ink of `p` and every descendant.
    static func subtreeInk(_ p: PlacedNode) -> Rect {
        var r = ownInk(p)
        p.walk { r = union(r, ownInk($0)) }
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
