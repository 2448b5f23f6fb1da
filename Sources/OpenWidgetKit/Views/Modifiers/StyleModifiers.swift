/// Style modifiers. They set a field of the node's `Modifiers`, which renderers inherit down
/// the subtree. Applied twice, the innermost (first applied) value is kept, as in SwiftUI.
extension View {
    /// The font of this subtree. A `monospacedDigit()` font also sets `modifiers.monospacedDigit`.
    public func font(_ font: Font?) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in
            guard let font, m.font == nil else { return }
            m.font = font.spec
            if font.monospacedDigits && m.monospacedDigit == nil { m.monospacedDigit = true }
        }.apply(to: self)
    }

    public func fontWeight(_ weight: Font.Weight?) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.weight == nil { m.weight = weight?.name } }.apply(to: self)
    }

    public func bold(_ isActive: Bool = true) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if isActive && m.weight == nil { m.weight = Font.Weight.bold.name } }.apply(to: self)
    }

    public func italic(_ isActive: Bool = true) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.italic == nil { m.italic = isActive } }.apply(to: self)
    }

    public func monospacedDigit() -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.monospacedDigit == nil { m.monospacedDigit = true } }.apply(to: self)
    }

    /// `.foregroundStyle(.orange)`, `.foregroundStyle(.secondary)`, `.foregroundStyle(Color(red:…))`.
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> ModifiedContent<Self, _NodeModifier> {
        let spec = style._styleSpec
        return _NodeModifier.modifiers { m in if m.foreground == nil { m.foreground = spec } }.apply(to: self)
    }

    /// Two-level foreground styles: the primary one is serialized.
    public func foregroundStyle<S1: ShapeStyle, S2: ShapeStyle>(_ primary: S1, _ secondary: S2) -> ModifiedContent<Self, _NodeModifier> {
        foregroundStyle(primary)
    }

    public func foregroundColor(_ color: Color?) -> ModifiedContent<Self, _NodeModifier> {
        let spec = color?._styleSpec
        return _NodeModifier.modifiers { m in if m.foreground == nil { m.foreground = spec } }.apply(to: self)
    }

    /// The tint of controls (progress, gauge, button, toggle) in this subtree.
    public func tint(_ color: Color?) -> ModifiedContent<Self, _NodeModifier> {
        let spec = color?._styleSpec
        return _NodeModifier.modifiers { m in if m.tint == nil { m.tint = spec } }.apply(to: self)
    }

    public func tint<S: ShapeStyle>(_ style: S) -> ModifiedContent<Self, _NodeModifier> {
        let spec = style._styleSpec
        return _NodeModifier.modifiers { m in if m.tint == nil { m.tint = spec } }.apply(to: self)
    }

    public func lineLimit(_ limit: Int?) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.lineLimit == nil { m.lineLimit = limit } }.apply(to: self)
    }

    public func minimumScaleFactor(_ factor: Double) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.minimumScaleFactor == nil { m.minimumScaleFactor = factor } }.apply(to: self)
    }

    public func multilineTextAlignment(_ alignment: TextAlignment) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.textAlignment == nil { m.textAlignment = alignment.rawValue } }.apply(to: self)
    }

    /// Opacity; applied twice, the opacities multiply.
    public func opacity(_ opacity: Double) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in m.opacity = (m.opacity ?? 1) * opacity }.apply(to: self)
    }

    /// Rotation in degrees clockwise; applied twice, the angles add. `anchor` is not serialized.
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in m.rotation = (m.rotation ?? 0) + angle.degrees }.apply(to: self)
    }

    public func hidden() -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in m.hidden = true }.apply(to: self)
    }

    public func layoutPriority(_ value: Double) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.layoutPriority == nil { m.layoutPriority = value } }.apply(to: self)
    }

    public func accessibilityLabel(_ label: LocalizedStringKey) -> ModifiedContent<Self, _NodeModifier> {
        accessibilityLabelString(label.key)
    }

    @_disfavoredOverload public func accessibilityLabel<S: StringProtocol>(_ label: S) -> ModifiedContent<Self, _NodeModifier> {
        accessibilityLabelString(String(label))
    }

    public func accessibilityLabel(_ label: Text) -> ModifiedContent<Self, _NodeModifier> {
        accessibilityLabelString(label.plainText)
    }

    private func accessibilityLabelString(_ s: String) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.accessibilityLabel == nil { m.accessibilityLabel = s } }.apply(to: self)
    }
}
