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

extension View {
    /// `other["strikethrough"]`: every text of this subtree struck through in pictures (a
    /// text's own `strikethrough` wins). `pattern` and `color` are not kept: a solid line in the
    /// text's colour.
    public func strikethrough(_ isActive: Bool = true, pattern: Text.LineStyle.Pattern = .solid, color: Color? = nil) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("strikethrough", .bool(isActive)).apply(to: self)
    }

    /// `other["underline"]`: every text of this subtree underlined in pictures (a text's own
    /// `underline` wins). `pattern` and `color` are not kept.
    public func underline(_ isActive: Bool = true, pattern: Text.LineStyle.Pattern = .solid, color: Color? = nil) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("underline", .bool(isActive)).apply(to: self)
    }

    /// `other["fontWidth"]` (`compressed`, `condensed`, `standard`, `expanded`): kept in the tree;
    /// pictures draw the standard width (the open faces used have no narrow or wide cut).
    public func fontWidth(_ width: Font.Width?) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("fontWidth", width.map { .string($0.name) } ?? .null).apply(to: self)
    }

    /// `other["textScale"]` (`secondary` when enabled): kept in the tree, drawn at the text's size.
    public func textScale(_ scale: Text.Scale, isEnabled: Bool = true) -> ModifiedContent<Self, _NodeModifier> {
        _NodeModifier.other("textScale", .string(isEnabled ? scale.name : Text.Scale.default.name)).apply(to: self)
    }
}

extension Text {
    /// A line drawn through or under text.
    public struct LineStyle: Hashable, Sendable {
        /// The dash pattern of the line (pictures draw every pattern solid).
        public struct Pattern: Hashable, Sendable {
            let name: String
            public static let solid = Pattern(name: "solid")
            public static let dot = Pattern(name: "dot")
            public static let dash = Pattern(name: "dash")
            public static let dashDot = Pattern(name: "dashDot")
            public static let dashDotDot = Pattern(name: "dashDotDot")
        }
        public let pattern: Pattern
        public let color: Color?
        public init(pattern: Pattern = .solid, color: Color? = nil) { self.pattern = pattern; self.color = color }
        public static let single = LineStyle()
    }

    /// The scales of `textScale(_:isEnabled:)`.
    public struct Scale: Hashable, Sendable {
        let name: String
        public static let `default` = Scale(name: "default")
        public static let secondary = Scale(name: "secondary")
    }

    /// `textCase`'s cases.
    public enum Case: String, Hashable, Sendable { case uppercase, lowercase }
    /// `truncationMode`'s modes.
    public enum TruncationMode: String, Hashable, Sendable { case head, middle, tail }
}
