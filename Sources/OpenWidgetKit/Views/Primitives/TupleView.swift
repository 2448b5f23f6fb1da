/// Several views built by one `@ViewBuilder` block. `value` is the tuple of the views.
/// Its children flatten into the enclosing node, in order.
public struct TupleView<T>: View, PrimitiveView {
    public typealias Body = Never
    public var value: T
    public init(_ value: T) { self.value = value }

    func makeNodes() -> [ViewNode] {
        if let single = value as? any View { return ViewEval.nodes(single) }
        var out: [ViewNode] = []
        for child in Mirror(reflecting: value).children {
            if let v = child.value as? any View { out += ViewEval.nodes(v) }
        }
        return out
    }
}
