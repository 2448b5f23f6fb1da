/// Groups views without adding a node: its children flatten into the enclosing node, and a
/// modifier applied to a `Group` applies to each child (as in SwiftUI).
public struct Group<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    public var content: Content
    public init(@ViewBuilder content: () -> Content) { self.content = content() }
    func makeNodes() -> [ViewNode] { ViewEval.nodes(content) }
}
