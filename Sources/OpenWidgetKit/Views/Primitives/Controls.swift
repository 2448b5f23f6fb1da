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
