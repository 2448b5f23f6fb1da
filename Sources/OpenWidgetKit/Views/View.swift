/// A piece of widget UI, as in SwiftUI. Evaluated once per entry and family into a `ViewNode`
/// tree by `ViewEvaluator`; nothing is kept alive between evaluations.
public protocol View {
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("Never has no body") }
}
