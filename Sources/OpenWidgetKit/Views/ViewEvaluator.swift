import FoundationEssentials

/// SKELETON — turns a view into its `ViewNode` tree. The full evaluator replaces this body.
public enum ViewEvaluator {
    /// Evaluates `view` under `environment`. Runs on the calling thread; reentrant per thread.
    public static func evaluate<V: View>(_ view: V, environment: EnvironmentValues) -> ViewNode {
        ViewNode(kind: .empty)
    }
}
