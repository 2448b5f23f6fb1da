/// The result of `if`/`else` or `switch` in a `@ViewBuilder`: one of two views.
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View, PrimitiveView {
    public typealias Body = Never
    public enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }
    public let storage: Storage
    public init(storage: Storage) { self.storage = storage }

    func makeNodes() -> [ViewNode] {
        switch storage {
        case .trueContent(let v): ViewEval.nodes(v)
        case .falseContent(let v): ViewEval.nodes(v)
        }
    }
}

/// An optional view renders its wrapped view, or nothing when nil (`if` without `else`).
extension Optional: View where Wrapped: View {
    public typealias Body = Never
}

extension Optional: PrimitiveView where Wrapped: View {
    func makeNodes() -> [ViewNode] {
        switch self {
        case .some(let v): ViewEval.nodes(v)
        case .none: []
        }
    }
}
