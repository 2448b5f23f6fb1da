/// A view with a modifier applied. Built-in modifiers are `_NodeModifier`s; custom ones are
/// `ViewModifier`s (`.modifier(MyModifier())`), whose `body(content:)` is evaluated.
///
/// A modifier applies to each node its content produces (so on a `Group` or `ForEach` it
/// applies to every child, as in SwiftUI).
public struct ModifiedContent<Content: View, Modifier>: View, PrimitiveView {
    public typealias Body = Never
    public var content: Content
    public var modifier: Modifier

    public init(content: Content, modifier: Modifier) { self.content = content; self.modifier = modifier }

    func makeNodes() -> [ViewNode] {
        if let m = modifier as? _NodeModifier { return m.nodes(of: content) }
        if let m = modifier as? any ViewModifier { return Self.custom(m, content) }
        return ViewEval.nodes(content)
    }

    private static func custom<M: ViewModifier>(_ m: M, _ content: Content) -> [ViewNode] {
        ViewEval.nodes(m.body(content: _ViewModifier_Content<M>(make: { ViewEval.nodes(content) })))
    }
}

/// A reusable modifier, as in SwiftUI: `body(content:)` wraps or decorates `content`.
public protocol ViewModifier {
    associatedtype Body: View
    typealias Content = _ViewModifier_Content<Self>
    @ViewBuilder func body(content: Content) -> Body
}

/// The content a `ViewModifier` receives; it evaluates to the modified view's nodes.
public struct _ViewModifier_Content<Modifier: ViewModifier>: View, PrimitiveView {
    public typealias Body = Never
    let make: () -> [ViewNode]
    func makeNodes() -> [ViewNode] { make() }
}

extension View {
    /// Applies a custom `ViewModifier`.
    public func modifier<M: ViewModifier>(_ modifier: M) -> ModifiedContent<Self, M> {
        ModifiedContent(content: self, modifier: modifier)
    }
}

/// A built-in modifier: an optional environment change for the content's evaluation, then a
/// transformation of each resulting node.
public struct _NodeModifier {
    var environment: ((inout EnvironmentValues) -> Void)?
    var transform: (ViewNode) -> ViewNode

    init(environment: ((inout EnvironmentValues) -> Void)? = nil, transform: @escaping (ViewNode) -> ViewNode) {
        self.environment = environment; self.transform = transform
    }

    func apply<V: View>(to view: V) -> ModifiedContent<V, _NodeModifier> { ModifiedContent(content: view, modifier: self) }

    func nodes<V: View>(of content: V) -> [ViewNode] {
        let nodes: [ViewNode]
        if let environment {
            var env = EnvironmentValues.current
            environment(&env)
            nodes = EnvironmentValues.$current.withValue(env) { ViewEval.nodes(content) }
        } else {
            nodes = ViewEval.nodes(content)
        }
        return nodes.map(transform)
    }

    // MARK: kinds of modifiers

    /// Changes the node's modifiers in place (style modifiers: each closure keeps an existing,
    /// i.e. innermost, value).
    static func modifiers(_ change: @escaping (inout Modifiers) -> Void) -> _NodeModifier {
        _NodeModifier { node in
            var n = node
            var m = n.mods
            change(&m)
            n.modifiers = m.isEmpty ? nil : m
            return n
        }
    }

    /// The layout stages, in the fixed order a node applies them.
    enum LayoutStage: Int { case padding = 1, frame = 2, background = 3 }

    static func stage(of m: Modifiers) -> Int {
        if m.background != nil { return LayoutStage.background.rawValue }
        if m.frame != nil { return LayoutStage.frame.rawValue }
        if m.padding != nil { return LayoutStage.padding.rawValue }
        return 0
    }

    /// A layout modifier: set on the node when the node has no layout modifier at or after
    /// `stage` and no `fixedSize`; otherwise the node is wrapped in a `group` that carries it,
    /// preserving the author's order. (Layout applies a node's `fixedSize` outside all its
    /// layout modifiers, so `.fixedSize().frame(…)` needs the frame on a wrapper: the frame's
    /// proposal is what the fixed-size child ignores, not the other way round.)
    static func layout(_ stage: LayoutStage, _ change: @escaping (inout Modifiers) -> Void) -> _NodeModifier {
        _NodeModifier { node in
            var n = node
            if Self.stage(of: node.mods) >= stage.rawValue || node.mods.other?["fixedSize"] != nil {
                n = ViewNode(kind: .group, children: [node])
                n.role = node.role
                n.children?[0].role = nil
            }
            var m = n.mods
            change(&m)
            n.modifiers = m
            return n
        }
    }

    /// Keeps a pixel-only modifier in `modifiers.other[name]` (the first applied wins).
    static func other(_ name: String, _ value: JSONValue) -> _NodeModifier {
        modifiers { m in
            var o = m.other ?? [:]
            if o[name] == nil { o[name] = value }
            m.other = o
        }
    }

    /// Sets `style` on every node of `kind` in the subtree (gauge/progress/label styles), unless
    /// a nearer style was already set.
    static func control(kind: ViewNode.Kind, style: String) -> _NodeModifier {
        func visit(_ node: ViewNode) -> ViewNode {
            var n = node
            if n.kind == kind {
                if n.style == nil { n.style = style }
                return n
            }
            if let c = n.children { n.children = c.map(visit) }
            return n
        }
        return _NodeModifier(transform: visit)
    }

    /// Places `extra` behind (`inFront == false`) or in front of the node, in a `zstack` with
    /// `alignment`; the extra nodes get role `"background"` / `"overlay"`.
    static func layer(alignment: Alignment, inFront: Bool, _ extra: @escaping () -> [ViewNode]) -> _NodeModifier {
        _NodeModifier { node in
            let role = inFront ? "overlay" : "background"
            let layer = extra().map { e -> ViewNode in var e = e; if e.role == nil { e.role = role }; return e }
            var inner = node
            inner.role = nil
            var z = ViewNode(kind: .zstack, children: inFront ? [inner] + layer : layer + [inner])
            z.alignment = alignment.name
            z.role = node.role
            return z
        }
    }
}
