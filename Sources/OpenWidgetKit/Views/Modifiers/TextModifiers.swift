/// Typography modifiers. Like the style modifiers they set a field of `Modifiers` that renderers
/// inherit down the subtree; applied twice, the innermost (first applied) value is kept.
extension View {
    /// `modifiers.fontDesign`: `default`, `rounded`, `monospaced`, `serif`.
    public func fontDesign(_ design: Font.Design?) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.fontDesign == nil { m.fontDesign = design?.rawValue } }.apply(to: self)
    }

    /// `modifiers.monospaced`: every glyph one width.
    public func monospaced(_ isActive: Bool = true) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.monospaced == nil { m.monospaced = isActive } }.apply(to: self)
    }

    /// `modifiers.kerning` in points (pixel renderers only).
    public func kerning(_ kerning: Double) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.kerning == nil { m.kerning = kerning } }.apply(to: self)
    }

    /// `modifiers.tracking` in points (pixel renderers only).
    public func tracking(_ tracking: Double) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.tracking == nil { m.tracking = tracking } }.apply(to: self)
    }

    /// `modifiers.textCase`: `uppercase` / `lowercase`; nil keeps the text as written.
    public func textCase(_ textCase: Text.Case?) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.textCase == nil { m.textCase = textCase?.rawValue ?? "none" } }.apply(to: self)
    }

    /// `modifiers.truncationMode`: where "…" goes when text is cut (`head`, `middle`, `tail`).
    public func truncationMode(_ mode: Text.TruncationMode) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.modifiers { m in if m.truncationMode == nil { m.truncationMode = mode.rawValue } }.apply(to: self)
    }
}

extension Text {
    /// `textCase`'s cases.
    public enum Case: String, Hashable, Sendable { case uppercase, lowercase }
    /// `truncationMode`'s modes.
    public enum TruncationMode: String, Hashable, Sendable { case head, middle, tail }
}
