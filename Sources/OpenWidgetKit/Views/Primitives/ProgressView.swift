import FoundationEssentials

/// Progress: a `progress` node with `value` = fraction 0…1 (`value / total`, clamped; nil for an
/// indeterminate one), or with `date` = `DateText(style: "progress", start:, end:, countsDown:)`
/// for `ProgressView(timerInterval:)` (the host animates it). The label child has role `"label"`,
/// the current value label `"currentValueLabel"`. `.progressViewStyle(.linear/.circular)` → `style`.
public struct ProgressView<Label: View, CurrentValueLabel: View>: View, PrimitiveView {
    public typealias Body = Never
    var fraction: Double?
    var date: DateText?
    var label: Label?
    var currentValueLabel: CurrentValueLabel?

    func makeNodes() -> [ViewNode] {
        var children: [ViewNode] = []
        if let label { children += ViewEval.slot(label, role: "label") }
        if let currentValueLabel { children += ViewEval.slot(currentValueLabel, role: "currentValueLabel") }
        var n = ViewNode(kind: .progress, children: children)
        n.value = fraction
        n.date = date
        return [n]
    }

    static func fraction<V: BinaryFloatingPoint>(_ value: V?, _ total: V) -> Double? {
        guard let value else { return nil }
        let v = Double(value), t = Double(total)
        guard t > 0, v.isFinite else { return nil }
        return min(1, max(0, v / t))
    }
}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    /// An indeterminate progress indicator.
    public init() {}
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) {
        fraction = Self.fraction(value, total)
    }
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true) {
        date = DateText(style: "progress", start: timerInterval.lowerBound, end: timerInterval.upperBound, countsDown: countsDown)
    }
}

extension ProgressView where CurrentValueLabel == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label) {
        fraction = Self.fraction(value, total); self.label = label()
    }
    public init(timerInterval: ClosedRange<Date>, countsDown: Bool = true, @ViewBuilder label: () -> Label) {
        date = DateText(style: "progress", start: timerInterval.lowerBound, end: timerInterval.upperBound, countsDown: countsDown)
        self.label = label()
    }
}

extension ProgressView where Label == Text, CurrentValueLabel == EmptyView {
    public init<V: BinaryFloatingPoint>(_ title: LocalizedStringKey, value: V?, total: V = 1.0) {
        fraction = Self.fraction(value, total); label = Text(title)
    }
}

extension ProgressView {
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0, @ViewBuilder label: () -> Label,
                                        @ViewBuilder currentValueLabel: () -> CurrentValueLabel) {
        fraction = Self.fraction(value, total)
        self.label = label(); self.currentValueLabel = currentValueLabel()
    }
}

/// `.progressViewStyle(...)`: `linear`, `circular`, `automatic`.
public struct ProgressViewStyleKind: Hashable, Sendable {
    let name: String
    public static let automatic = ProgressViewStyleKind(name: "automatic")
    public static let linear = ProgressViewStyleKind(name: "linear")
    public static let circular = ProgressViewStyleKind(name: "circular")
}

extension View {
    /// Sets `style` on each `progress` node in this view.
    public func progressViewStyle(_ style: ProgressViewStyleKind) -> some View {
        _NodeModifier.control(kind: .progress, style: style.name).apply(to: self)
    }
}
