import OpenWidgetKit

/// Right-to-left layout (`LayoutDirection`): SwiftUI lays a right-to-left subtree out as the
/// mirror image of its left-to-right layout — stacks run from the trailing (right) edge,
/// `leading` alignments and padding sit on the right — while images, shapes and the glyphs of
/// text stay unmirrored. So the engine lays every tree out left to right and then, where a
/// node's direction (`other["layoutDirection"]`, inherited) differs from its parent's,
/// reflects that node's whole subtree about the node's own vertical centre line; a nested
/// subtree back in the other direction is reflected again, so reflections compose. A wrapped
/// text's line alignment flips with it (leading is the right edge).
///
/// Pure and bounded (one visit per placed node, depth bounded by `LayoutLimits.maxDepth`).
/// A plain function over values: safe from any thread.
enum LayoutDirectionMirror {
    /// The direction a node asks for: nil when it does not set one (it inherits).
    static func direction(of node: ViewNode) -> LayoutDirection? {
        guard case .string(let s)? = node.modifiers?.other?[LayoutDirection.modifierKey] else { return nil }
        return LayoutDirection(rawValue: s)
    }

    /// `placed` (laid out left to right) with every subtree whose direction differs from its
    /// parent's reflected; the root's parent is `inherited`.
    static func resolve(_ placed: PlacedNode, inherited: LayoutDirection = .leftToRight) -> PlacedNode {
        let own = direction(of: placed.node) ?? inherited
        var p = own == inherited ? placed : reflect(placed, about: placed.frame.midX)
        if !p.children.isEmpty { p.children = p.children.map { resolve($0, inherited: own) } }
        return p
    }

    /// `p` and its subtree reflected about the vertical line at `axis`.
    static func reflect(_ p: PlacedNode, about axis: Double) -> PlacedNode {
        var r = p
        r.frame = reflect(p.frame, axis)
        r.contentFrame = reflect(p.contentFrame, axis)
        r.indicator = p.indicator.map { reflect($0, axis) }
        if var t = p.text {
            t.alignment = 1 - t.alignment
            r.text = t
        }
        if !p.children.isEmpty { r.children = p.children.map { reflect($0, about: axis) } }
        return r
    }

    private static func reflect(_ r: Rect, _ axis: Double) -> Rect {
        Rect(x: 2 * axis - r.x - r.width, y: r.y, width: r.width, height: r.height)
    }
}
