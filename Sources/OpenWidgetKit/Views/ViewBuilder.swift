/// Builds view content from the statements of a closure, as SwiftUI's `@ViewBuilder`.
///
/// - several views → `TupleView` (its children flatten into the enclosing node);
/// - `if` without `else` → an optional view (renders nothing when false);
/// - `if`/`else` and `switch` → `_ConditionalContent`;
/// - `if #available` → `AnyView`;
/// - `for … in` → `_ViewArray` (flattens like `ForEach`);
/// - an empty closure → `EmptyView`.
@resultBuilder
public enum ViewBuilder {
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }

    public static func buildBlock() -> EmptyView { EmptyView() }

    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }

    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }

    public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }

    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }

    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent)
        -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .trueContent(first))
    }

    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent)
        -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .falseContent(second))
    }

    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }

    public static func buildArray<Content: View>(_ components: [Content]) -> _ViewArray<Content> {
        _ViewArray(elements: components)
    }
}
