/// A gauge: `gauge` node with `value` and `bounds` `[lower, upper]`; children of roles
/// `"label"`, `"currentValueLabel"`, `"minimumValueLabel"`, `"maximumValueLabel"`.
/// `.gaugeStyle(...)` → `style`.
public struct Gauge<Label: View, CurrentValueLabel: View, BoundsLabel: View>: View, PrimitiveView {
    public typealias Body = Never
    var value: Double
    var bounds: ClosedRange<Double>
    var label: Label
    var currentValueLabel: CurrentValueLabel?
    var minimumValueLabel: BoundsLabel?
    var maximumValueLabel: BoundsLabel?

    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label,
                                        @ViewBuilder currentValueLabel: () -> CurrentValueLabel,
                                        @ViewBuilder minimumValueLabel: () -> BoundsLabel,
                                        @ViewBuilder maximumValueLabel: () -> BoundsLabel) {
        self.value = Double(value); self.bounds = Double(bounds.lowerBound)...Double(bounds.upperBound)
        self.label = label(); self.currentValueLabel = currentValueLabel()
        self.minimumValueLabel = minimumValueLabel(); self.maximumValueLabel = maximumValueLabel()
    }

    func makeNodes() -> [ViewNode] {
        var children = ViewEval.slot(label, role: "label")
        if let currentValueLabel { children += ViewEval.slot(currentValueLabel, role: "currentValueLabel") }
        if let minimumValueLabel { children += ViewEval.slot(minimumValueLabel, role: "minimumValueLabel") }
        if let maximumValueLabel { children += ViewEval.slot(maximumValueLabel, role: "maximumValueLabel") }
        var n = ViewNode(kind: .gauge, children: children)
        n.value = value
        n.bounds = [bounds.lowerBound, bounds.upperBound]
        return [n]
    }
}

extension Gauge where CurrentValueLabel == EmptyView, BoundsLabel == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label) {
        self.value = Double(value); self.bounds = Double(bounds.lowerBound)...Double(bounds.upperBound)
        self.label = label()
    }
}

extension Gauge where BoundsLabel == EmptyView {
    public init<V: BinaryFloatingPoint>(value: V, in bounds: ClosedRange<V> = 0...1, @ViewBuilder label: () -> Label,
                                        @ViewBuilder currentValueLabel: () -> CurrentValueLabel) {
        self.value = Double(value); self.bounds = Double(bounds.lowerBound)...Double(bounds.upperBound)
        self.label = label(); self.currentValueLabel = currentValueLabel()
    }
}

/// `.gaugeStyle(...)`, serialized by name.
public struct GaugeStyleKind: Hashable, Sendable {
    let name: String
    public static let automatic = GaugeStyleKind(name: "automatic")
    public static let accessoryCircular = GaugeStyleKind(name: "accessoryCircular")
    public static let accessoryCircularCapacity = GaugeStyleKind(name: "accessoryCircularCapacity")
    public static let accessoryLinear = GaugeStyleKind(name: "accessoryLinear")
    public static let accessoryLinearCapacity = GaugeStyleKind(name: "accessoryLinearCapacity")
    public static let linearCapacity = GaugeStyleKind(name: "linearCapacity")
}

extension View {
    /// Sets `style` on each `gauge` node in this view.
    public func gaugeStyle(_ style: GaugeStyleKind) -> some View {
        _NodeModifier.control(kind: .gauge, style: style.name).apply(to: self)
    }
}
