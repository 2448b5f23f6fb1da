import OpenWidgetKit

/// What iOS shows of a view in the `accessoryInline` family: one line — the first text, after
/// the first image when there is one — whatever stacks, shapes and other texts the view holds.
/// A `ViewThatFits` keeps its candidates, each reduced to its own line, so the layout picks the
/// first line that fits the band.
///
/// Pure: a tree in, a tree out; bounded by `LayoutLimits.maxDepth`. A value: safe anywhere.
public enum InlineAccessoryLine {
    /// `root` as the one line iOS draws: an `HStack` (spacing 4) of the image and the text,
    /// the text cut to one line, with the root's widget-wide modifiers (content margins,
    /// container background, redaction, URL, layout direction); the root itself when it holds neither a text
    /// nor an image.
    public static func reduce(_ root: ViewNode) -> ViewNode {
        guard var out = line(root, depth: 0) else { return root }
        // What the root says about the widget as a whole; its look (padding, frames, fonts) is
        // the system's in this family.
        var m = Modifiers()
        m.contentMargins = root.modifiers?.contentMargins
        m.containerBackground = root.modifiers?.containerBackground
        m.redacted = root.modifiers?.redacted
        m.privacySensitive = root.modifiers?.privacySensitive
        m.widgetURL = root.modifiers?.widgetURL
        // A right-to-left widget's line runs right to left: the image on the right.
        if let d = root.modifiers?.other?[LayoutDirection.modifierKey] { m.other = [LayoutDirection.modifierKey: d] }
        out.modifiers = m.isEmpty ? nil : m
        return out
    }

    /// The line of `node`: a `ViewThatFits` of lines, or an `HStack` of image and text; nil
    /// when the subtree shows neither.
    private static func line(_ node: ViewNode, depth: Int) -> ViewNode? {
        guard depth < LayoutLimits.maxDepth else { return nil }
        if node.kind == .viewThatFits {
            let candidates = node.childNodes.prefix(LayoutLimits.maxChildren).compactMap { line($0, depth: depth + 1) }
            guard !candidates.isEmpty else { return nil }
            var fits = ViewNode(kind: .viewThatFits, children: candidates)
            fits.axes = "horizontal"
            return fits
        }
        var image: ViewNode?, text: ViewNode?
        find(node, image: &image, text: &text, depth: depth)
        guard image != nil || text != nil else { return nil }
        if var t = text {
            var m = t.modifiers ?? Modifiers()
            m.lineLimit = 1
            t.modifiers = m
            text = t
        }
        var row = ViewNode(kind: .hstack, children: [image, text].compactMap { $0 })
        row.spacing = 4
        return row
    }

    /// The first image and the first text under `node`, depth first in source order, each
    /// carrying the redaction and `privacySensitive` of the ancestors it leaves (a private
    /// text stays private on one line); hidden subtrees are skipped.
    private static func find(_ node: ViewNode, image: inout ViewNode?, text: inout ViewNode?, depth: Int,
                             inherited: Modifiers = Modifiers()) {
        guard depth < LayoutLimits.maxDepth, node.modifiers?.hidden != true, image == nil || text == nil else { return }
        var carried = inherited
        if let r = node.modifiers?.redacted { carried.redacted = r }
        if node.modifiers?.privacySensitive == true { carried.privacySensitive = true }
        func lifted(_ n: ViewNode) -> ViewNode {
            var n = n, m = n.modifiers ?? Modifiers()
            m.redacted = m.redacted ?? carried.redacted
            m.privacySensitive = m.privacySensitive ?? carried.privacySensitive
            n.modifiers = m.isEmpty ? nil : m
            return n
        }
        switch node.kind {
        case .text where text == nil:
            text = lifted(node)
        case .image where image == nil:
            image = lifted(node)
        default:
            for c in node.childNodes.prefix(LayoutLimits.maxChildren) {
                find(c, image: &image, text: &text, depth: depth + 1, inherited: carried)
                if image != nil && text != nil { return }
            }
        }
    }
}
