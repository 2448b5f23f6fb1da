/// A horizontal stack: `hstack` node, `alignment` (`top`/`center`/`bottom`/`firstTextBaseline`…,
/// default `center`), `spacing` (nil = system default).
public struct HStack<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    var alignment: VerticalAlignment
    var spacing: Double?
    var content: Content
    public init(alignment: VerticalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment; self.spacing = spacing; self.content = content()
    }
    func makeNodes() -> [ViewNode] { [stackNode(.hstack, alignment.name, spacing, ViewEval.nodes(content))] }
}

/// A vertical stack: `vstack` node, `alignment` (`leading`/`center`/`trailing`, default `center`).
public struct VStack<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    var alignment: HorizontalAlignment
    var spacing: Double?
    var content: Content
    public init(alignment: HorizontalAlignment = .center, spacing: Double? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment; self.spacing = spacing; self.content = content()
    }
    func makeNodes() -> [ViewNode] { [stackNode(.vstack, alignment.name, spacing, ViewEval.nodes(content))] }
}

/// An overlaying stack: `zstack` node, `alignment` (`center`, `topLeading`…, default `center`),
/// children back to front.
public struct ZStack<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    var alignment: Alignment
    var content: Content
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.alignment = alignment; self.content = content()
    }
    func makeNodes() -> [ViewNode] { [stackNode(.zstack, alignment.name, nil, ViewEval.nodes(content))] }
}

func stackNode(_ kind: ViewNode.Kind, _ alignment: String, _ spacing: Double?, _ children: [ViewNode]) -> ViewNode {
    var n = ViewNode(kind: kind, children: children)
    n.alignment = alignment
    n.spacing = spacing
    return n
}

/// Flexible space along the enclosing stack's axis: `spacer` node; `minLength` is stored in
/// `value` (nil = system default).
public struct Spacer: View, PrimitiveView {
    public typealias Body = Never
    var minLength: Double?
    public init(minLength: Double? = nil) { self.minLength = minLength }
    func makeNodes() -> [ViewNode] {
        var n = ViewNode(kind: .spacer)
        n.value = minLength
        return [n]
    }
}

/// A separator line across the enclosing stack: `divider` node.
public struct Divider: View, PrimitiveView {
    public typealias Body = Never
    public init() {}
    func makeNodes() -> [ViewNode] { [ViewNode(kind: .divider)] }
}
