/// A title with an icon: a `label` node with children of roles `"title"` and `"icon"`.
/// `.labelStyle(.iconOnly / .titleOnly / .titleAndIcon)` is stored in `style`.
public struct Label<Title: View, Icon: View>: View, PrimitiveView {
    public typealias Body = Never
    var title: Title
    var icon: Icon

    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = title(); self.icon = icon()
    }

    func makeNodes() -> [ViewNode] {
        [ViewNode(kind: .label, children: ViewEval.slot(title, role: "title") + ViewEval.slot(icon, role: "icon"))]
    }
}

extension Label where Title == Text, Icon == Image {
    public init(_ title: LocalizedStringKey, systemImage: String) { self.init(title: { Text(title) }, icon: { Image(systemName: systemImage) }) }
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, systemImage: String) { self.init(title: { Text(title) }, icon: { Image(systemName: systemImage) }) }
    public init(_ title: LocalizedStringKey, image: String) { self.init(title: { Text(title) }, icon: { Image(image) }) }
}

/// How a `Label` shows: serialized in the label node's `style`.
public struct LabelStyleKind: Hashable, Sendable {
    let name: String
    public static let automatic = LabelStyleKind(name: "automatic")
    public static let iconOnly = LabelStyleKind(name: "iconOnly")
    public static let titleOnly = LabelStyleKind(name: "titleOnly")
    public static let titleAndIcon = LabelStyleKind(name: "titleAndIcon")
}

extension View {
    /// Sets `style` on each `label` node of this view (and not inside nested labels' subtrees).
    public func labelStyle(_ style: LabelStyleKind) -> some View {
        _NodeModifier.control(kind: .label, style: style.name).apply(to: self)
    }
}
