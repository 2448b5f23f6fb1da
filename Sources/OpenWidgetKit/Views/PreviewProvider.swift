/// Xcode's pre-`#Preview` previews, as widget code still writes them:
///
///     struct MyWidget_Previews: PreviewProvider {
///         static var previews: some View {
///             MyWidgetEntryView(entry: SimpleEntry(date: .now))
///                 .previewContext(WidgetPreviewContext(family: .systemSmall))
///         }
///     }
///
/// They compile as written and are not listed by `widgethost preview` (no type of a plugin is
/// found by its conformance); `#Preview` is what it lists (docs/porting.md). Declarations only.
public protocol PreviewProvider {
    associatedtype Previews: View
    @ViewBuilder static var previews: Previews { get }
}

/// Where a preview is shown: a widget family.
public protocol PreviewContext {}

/// `WidgetPreviewContext(family: .systemSmall)`.
public struct WidgetPreviewContext: PreviewContext, Hashable, Sendable {
    public let family: WidgetFamily
    public init(family: WidgetFamily) { self.family = family }
}

extension View {
    /// The view evaluated in the context's family (`\.widgetFamily`).
    public func previewContext(_ context: WidgetPreviewContext) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier(environment: { $0.widgetFamily = context.family }, transform: { $0 }).apply(to: self)
    }

    /// Accepted; a preview's name is given to `#Preview("name")`.
    public func previewDisplayName(_ name: String?) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier { $0 }.apply(to: self)
    }
}
