import FoundationEssentials

/// A link: `link` node with `url` (absolute string) and the label as children.
public struct Link<Label: View>: View, PrimitiveView {
    public typealias Body = Never
    var destination: URL
    var label: Label
    public init(destination: URL, @ViewBuilder label: () -> Label) { self.destination = destination; self.label = label() }
    func makeNodes() -> [ViewNode] {
        var n = ViewNode(kind: .link, children: ViewEval.nodes(label))
        n.url = destination.absoluteString
        return [n]
    }
}

extension Link where Label == Text {
    public init(_ title: LocalizedStringKey, destination: URL) { self.init(destination: destination) { Text(title) } }
    @_disfavoredOverload public init<S: StringProtocol>(_ title: S, destination: URL) { self.init(destination: destination) { Text(title) } }
}

/// A button that runs an `AppIntent`: `button` node with `action` (intent name, `@Parameter`
/// values, title; `id` assigned in tree order by `ViewEvaluator`) and the label as children.
public struct Button<Label: View>: View, PrimitiveView {
    public typealias Body = Never
    var action: IntentAction
    var label: Label
    public init<I: AppIntent>(intent: I, @ViewBuilder label: () -> Label) {
        action = IntentRegistry.action(for: intent); self.label = label()
    }
    func makeNodes() -> [ViewNode] {
        var n = ViewNode(kind: .button, children: ViewEval.nodes(label))
        n.action = action
        return [n]
    }
}

extension Button where Label == Text {
    public init<I: AppIntent>(_ title: LocalizedStringKey, intent: I) { self.init(intent: intent) { Text(title) } }
    @_disfavoredOverload public init<I: AppIntent, S: StringProtocol>(_ title: S, intent: I) { self.init(intent: intent) { Text(title) } }
}

/// A toggle that runs an `AppIntent`: `toggle` node with `isOn`, `action` and the label as
/// children. The intent usually carries the new state (`ToggleIntent(isOn: !current)`).
public struct Toggle<Label: View>: View, PrimitiveView {
    public typealias Body = Never
    var isOn: Bool
    var action: IntentAction
    var label: Label
    public init<I: AppIntent>(isOn: Bool, intent: I, @ViewBuilder label: () -> Label) {
        self.isOn = isOn; action = IntentRegistry.action(for: intent); self.label = label()
    }
    func makeNodes() -> [ViewNode] {
        var n = ViewNode(kind: .toggle, children: ViewEval.nodes(label))
        n.isOn = isOn
        n.action = action
        return [n]
    }
}

extension Toggle where Label == Text {
    public init<I: AppIntent>(_ title: LocalizedStringKey, isOn: Bool, intent: I) {
        self.init(isOn: isOn, intent: intent) { Text(title) }
    }
}

/// `.buttonStyle(...)`: serialized in each `button` node's `style` (`plain` and `borderless`
/// show the label alone in text; `bordered`, `borderedProminent` and `automatic` in brackets).
public struct ButtonStyleKind: Hashable, Sendable {
    let name: String
    public static let automatic = ButtonStyleKind(name: "automatic")
    public static let plain = ButtonStyleKind(name: "plain")
    public static let borderless = ButtonStyleKind(name: "borderless")
    public static let bordered = ButtonStyleKind(name: "bordered")
    public static let borderedProminent = ButtonStyleKind(name: "borderedProminent")
}

/// `.toggleStyle(...)`: serialized in each `toggle` node's `style` (`button` shows the label in
/// brackets, marked when on; `switch` and `automatic` a check box).
public struct ToggleStyleKind: Hashable, Sendable {
    let name: String
    public static let automatic = ToggleStyleKind(name: "automatic")
    public static let `switch` = ToggleStyleKind(name: "switch")
    public static let button = ToggleStyleKind(name: "button")
}

extension View {
    public func buttonStyle(_ style: ButtonStyleKind) -> some View {
        _NodeModifier.control(kind: .button, style: style.name).apply(to: self)
    }
    public func toggleStyle(_ style: ToggleStyleKind) -> some View {
        _NodeModifier.control(kind: .toggle, style: style.name).apply(to: self)
    }
}
