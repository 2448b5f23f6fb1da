/// A view that renders nothing: it produces no node (an `empty` node only at the root).
public struct EmptyView: View, PrimitiveView {
    public typealias Body = Never
    public init() {}
    func makeNodes() -> [ViewNode] { [] }
}
