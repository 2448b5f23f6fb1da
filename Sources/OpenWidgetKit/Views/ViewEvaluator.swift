import FoundationEssentials

/// Turns a view into its `ViewNode` tree.
public enum ViewEvaluator {
    /// Evaluates `view` under `environment`. Runs on the calling thread; reentrant per thread
    /// (the environment is a task-local, so nested or concurrent evaluations do not mix).
    ///
    /// Contract of the result:
    /// - a view producing several nodes at the root is wrapped in a `group`, none gives `empty`;
    /// - every `Button`/`Toggle` action gets `id` `"0"`, `"1"`… in depth-first (tree) order;
    /// - every asset colour (`Color("Name")`) is replaced by its components in
    ///   `environment.colorScheme` (`AssetLookup`);
    /// - when `environment.redactionReasons` contains `.placeholder`, the root carries
    ///   `modifiers.redacted = true` (a root marked `unredacted()` is wrapped in a `group` that
    ///   carries it).
    public static func evaluate<V: View>(_ view: V, environment: EnvironmentValues) -> ViewNode {
        var root = EnvironmentValues.$current.withValue(environment) { ViewEval.single(view) }
        var next = 0
        numberActions(&root, next: &next)
        AssetLookup.resolveColors(&root, scheme: environment.colorScheme)
        if environment.redactionReasons.contains(.placeholder) {
            if root.modifiers?.redacted == false {
                // An explicitly unredacted root stays so, inside a redacted wrapper.
                root = ViewNode(kind: .group, children: [root])
            }
            var m = root.mods
            m.redacted = true
            root.modifiers = m
        }
        return root
    }

    /// Assigns action ids in pre-order.
    static func numberActions(_ node: inout ViewNode, next: inout Int) {
        if node.action != nil {
            node.action?.id = String(next)
            next += 1
        }
        guard var children = node.children else { return }
        for i in children.indices { numberActions(&children[i], next: &next) }
        node.children = children
    }
}
