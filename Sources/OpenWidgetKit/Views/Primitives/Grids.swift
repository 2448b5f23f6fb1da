/// `ViewThatFits`, `Grid`/`GridRow`, `LazyVGrid`/`LazyHGrid` and `AccessoryWidgetBackground`:
/// each one node whose kind keeps its meaning for the renderers (see `ViewNode.Kind`).

/// Shows the first of its children whose ideal size fits on `axes`: `viewThatFits` node with
/// the candidates as children, in order, and `axes` (`"horizontal"`, `"vertical"`, nil = both).
public struct ViewThatFits<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    var axes: Axis.Set
    var content: Content
    public init(in axes: Axis.Set = [.horizontal, .vertical], @ViewBuilder content: () -> Content) {
        self.axes = axes; self.content = content()
    }
    func makeNodes() -> [ViewNode] {
        var n = ViewNode(kind: .viewThatFits, children: ViewEval.nodes(content))
        n.axes = axes == .horizontal ? "horizontal" : (axes == .vertical ? "vertical" : nil)
        return [n]
    }
}

/// The axes of a layout (`ViewThatFits(in: .horizontal)`, `ScrollView(.vertical)`).
public enum Axis: Int8, Hashable, Sendable, CaseIterable {
    case horizontal, vertical
    public struct Set: OptionSet, Hashable, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let horizontal = Set(rawValue: 1)
        public static let vertical = Set(rawValue: 2)
    }
}

/// The translucent backdrop of an accessory widget: `accessoryWidgetBackground` node.
public struct AccessoryWidgetBackground: View, PrimitiveView {
    public typealias Body = Never
    public init() {}
    func makeNodes() -> [ViewNode] { [ViewNode(kind: .accessoryWidgetBackground)] }
}

/// A two-dimensional layout: `grid` node; its children are `gridRow`s (a child that is not a
/// row spans every column, e.g. a `Divider`).
public struct Grid<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    var alignment: Alignment
    var horizontalSpacing: Double?
    var verticalSpacing: Double?
    var content: Content
    public init(alignment: Alignment = .center, horizontalSpacing: Double? = nil, verticalSpacing: Double? = nil,
                @ViewBuilder content: () -> Content) {
        self.alignment = alignment; self.horizontalSpacing = horizontalSpacing; self.verticalSpacing = verticalSpacing
        self.content = content()
    }
    func makeNodes() -> [ViewNode] {
        var n = stackNode(.grid, alignment.name, verticalSpacing, ViewEval.nodes(content))
        n.horizontalSpacing = horizontalSpacing
        return [n]
    }
}

/// One row of a `Grid`: `gridRow` node, one child per cell.
public struct GridRow<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    var alignment: VerticalAlignment?
    var content: Content
    public init(alignment: VerticalAlignment? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment; self.content = content()
    }
    /// The node's `alignment` is nil when the row names none: the grid's then applies.
    func makeNodes() -> [ViewNode] {
        var n = stackNode(.gridRow, "", nil, ViewEval.nodes(content))
        n.alignment = alignment?.name
        return [n]
    }
}

/// A column (of a `LazyVGrid`) or row (of a `LazyHGrid`) description.
public struct GridItem: Hashable, Sendable {
    public enum Size: Hashable, Sendable {
        case fixed(Double)
        case flexible(minimum: Double = 10, maximum: Double = .infinity)
        case adaptive(minimum: Double, maximum: Double = .infinity)
    }
    public var size: Size
    public var spacing: Double?
    public var alignment: Alignment?
    public init(_ size: Size = .flexible(), spacing: Double? = nil, alignment: Alignment? = nil) {
        self.size = size; self.spacing = spacing; self.alignment = alignment
    }

    var spec: GridItemSpec {
        switch size {
        case .fixed(let v): GridItemSpec(size: "fixed", minimum: v, spacing: spacing, alignment: alignment?.name)
        case .flexible(let mn, let mx): GridItemSpec(size: "flexible", minimum: mn, maximum: mx, spacing: spacing, alignment: alignment?.name)
        case .adaptive(let mn, let mx): GridItemSpec(size: "adaptive", minimum: mn, maximum: mx, spacing: spacing, alignment: alignment?.name)
        }
    }
}

/// Children flowing into rows of `columns.count` cells: `lazyVGrid` node with `gridItems`.
/// Nothing is lazy in a widget: every child is evaluated.
public struct LazyVGrid<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    var columns: [GridItem]
    var alignment: HorizontalAlignment
    var spacing: Double?
    var content: Content
    public init(columns: [GridItem], alignment: HorizontalAlignment = .center, spacing: Double? = nil,
                pinnedViews: PinnedScrollableViews = [], @ViewBuilder content: () -> Content) {
        self.columns = columns; self.alignment = alignment; self.spacing = spacing; self.content = content()
    }
    func makeNodes() -> [ViewNode] {
        var n = stackNode(.lazyVGrid, alignment.name, spacing, ViewEval.nodes(content))
        n.gridItems = columns.map(\.spec)
        return [n]
    }
}

/// Children flowing into columns of `rows.count` cells: `lazyHGrid` node with `gridItems`.
public struct LazyHGrid<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    var rows: [GridItem]
    var alignment: VerticalAlignment
    var spacing: Double?
    var content: Content
    public init(rows: [GridItem], alignment: VerticalAlignment = .center, spacing: Double? = nil,
                pinnedViews: PinnedScrollableViews = [], @ViewBuilder content: () -> Content) {
        self.rows = rows; self.alignment = alignment; self.spacing = spacing; self.content = content()
    }
    func makeNodes() -> [ViewNode] {
        var n = stackNode(.lazyHGrid, alignment.name, spacing, ViewEval.nodes(content))
        n.gridItems = rows.map(\.spec)
        return [n]
    }
}

/// Accepted for source compatibility (a widget does not scroll).
public struct PinnedScrollableViews: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let sectionHeaders = PinnedScrollableViews(rawValue: 1)
    public static let sectionFooters = PinnedScrollableViews(rawValue: 2)
}
