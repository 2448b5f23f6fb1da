/// A piece of widget UI, as in SwiftUI. Evaluated once per entry and family into a `ViewNode`
/// tree by `ViewEvaluator`; nothing is kept alive between evaluations.
///
/// Contract: a custom view is a value whose `body` is read (once per evaluation, on the
/// evaluating thread) while `@Environment` holds the values in force at that point of the tree.
/// `View` is deliberately not main-actor isolated and views need not be `Sendable`.
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("Never has no body") }
}

/// A view the SDK evaluates itself (its `Body` is `Never`): it turns into zero or more nodes
/// that become children of the enclosing node. Tuples, `ForEach`, `Group`, conditionals and
/// optionals produce their content's nodes (they flatten); every other primitive produces one.
protocol PrimitiveView {
    /// The nodes of this view, evaluated under `EnvironmentValues.current`.
    func makeNodes() -> [ViewNode]
}

/// Evaluation helpers shared by all views.
enum ViewEval {
    /// The nodes of any view: a primitive evaluates itself, a custom view its `body`.
    static func nodes<V: View>(_ view: V) -> [ViewNode] {
        if let p = view as? any PrimitiveView { return p.makeNodes() }
        return nodes(view.body)
    }

    /// The nodes of a view as one node: itself when there is exactly one, an `empty` node when
    /// there is none, a `group` holding them otherwise.
    static func single<V: View>(_ view: V) -> ViewNode {
        one(nodes(view))
    }

    static func one(_ nodes: [ViewNode]) -> ViewNode {
        switch nodes.count {
        case 0: ViewNode(kind: .empty)
        case 1: nodes[0]
        default: ViewNode(kind: .group, children: nodes)
        }
    }

    /// The nodes of `view`, each tagged with `role` (content placed in a slot of a control).
    static func slot<V: View>(_ view: V, role: String) -> [ViewNode] {
        nodes(view).map { var n = $0; n.role = role; return n }
    }
}

/// Mark for primitives: `Body == Never`, the SDK never reads `body`.
extension View where Body == Never {
    public var body: Never { fatalError("\(Self.self) is a primitive view; it has no body") }
}
