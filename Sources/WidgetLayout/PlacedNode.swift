import OpenWidgetKit

/// Text as laid out: what the drawing passes to the text engine to fill `contentFrame`
/// exactly as the measurer measured it.
public struct PlacedText: Hashable, Sendable {
    /// The characters shown (a live date already formatted; capped at `LayoutLimits.maxTextLength`).
    public var string: String
    /// The font, `minimumScaleFactor` already applied.
    public var font: ResolvedFont
    /// The wrap width the text was measured with (nil: not wrapped). The content frame is the
    /// widest line, at most this wide; lines are aligned inside this width.
    public var width: Double?
    /// Lines shown at most (nil: all); a cut line ends in "…".
    public var maxLines: Int?
    /// `multilineTextAlignment`: 0 leading, 0.5 center, 1 trailing.
    public var alignment: Double
    /// Distance from the content frame's top to the first baseline.
    public var baseline: Double
    /// The `textCase` in effect (`uppercase`, `lowercase`; nil: none): how `string` was written
    /// from the node, so that a later instant is written alike (`LiveTextRestamp`).
    public var textCase: String? = nil
}

/// One node of a laid-out tree: the source node, where it sits (absolute points, origin at the
/// canvas' top-left) and its laid-out children. A plain value: safe to hand to another thread.
public struct PlacedNode: Sendable {
    /// The source node (its `children` are the source's; read `children` below for placement).
    public var node: ViewNode
    /// The node's box after its padding and frame: where `background` fills.
    public var frame: Rect
    /// The content's box inside padding and frame (text, shape, stack bounds).
    public var contentFrame: Rect
    /// For `text` (and `label` titles): how to draw it.
    public var text: PlacedText?
    /// The control's own drawing area: a progress bar or ring, a gauge's track, a toggle's switch.
    public var indicator: Rect?
    /// The font in effect here (used for symbols, redaction bars, control labels).
    public var font: ResolvedFont
    /// The laid-out children, in the source order (nodes beyond the limits are left out).
    public var children: [PlacedNode]

    /// The role of the node the layout adds inside a `.bordered` / `.borderedProminent`
    /// button: the label inside the bezel's padding, whose frame is the bezel.
    public static let bezelRole = "_bezel"

    /// Calls `body` on this node and every descendant, parents first. Depth is bounded by
    /// `LayoutLimits.maxDepth`, so recursion is safe.
    public func walk(_ body: (PlacedNode) throws -> Void) rethrows {
        try body(self)
        for c in children { try c.walk(body) }
    }
}

/// Bounds that keep a layout's time and memory small whatever the tree holds.
public enum LayoutLimits {
    /// Nodes deeper than this are left out.
    public static let maxDepth = 64
    /// Nodes laid out per tree (the rest are left out).
    public static let maxNodes = 4096
    /// Children of one node considered.
    public static let maxChildren = 512
    /// Characters of one text considered (a widget shows far fewer).
    public static let maxTextLength = 4096
    /// Any length (frame, padding, spacing, offset) is clamped to ±this.
    public static let maxLength = 100_000.0
    /// Largest font size honoured.
    public static let maxFontSize = 1000.0
    /// Size computations per layout; beyond, sizes are zero (bounded time on pathological trees).
    public static let maxSizeQueries = 200_000
}
