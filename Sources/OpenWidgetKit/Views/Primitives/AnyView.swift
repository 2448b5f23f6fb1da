/// A type-erased view. The wrapped view is evaluated lazily, when the tree is evaluated, so
/// its `@Environment` reads see the values in force where the `AnyView` sits.
public struct AnyView: View, PrimitiveView {
    public typealias Body = Never
    private let make: () -> [ViewNode]

    public init<V: View>(_ view: V) {
        if let any = view as? AnyView { make = any.make } else { make = { ViewEval.nodes(view) } }
    }

    public init<V: View>(erasing view: V) { self.init(view) }

    func makeNodes() -> [ViewNode] { make() }
}
