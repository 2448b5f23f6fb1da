/// A font request, serialized as `FontSpec`: a text style (`"title"`, `"caption2"`…) or
/// `"system"` with a size, plus weight, design and italic. `monospacedDigit()` is carried into
/// `modifiers.monospacedDigit` of the node the font is applied to.
public struct Font: Hashable, Sendable {
    var spec: FontSpec
    var monospacedDigits = false

    init(style: String) { spec = FontSpec(style: style) }

    /// The text styles of Dynamic Type.
    public enum TextStyle: String, Hashable, Sendable, CaseIterable {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2
    }

    /// Weights, serialized by name (`"ultraLight"` … `"black"`).
    public struct Weight: Hashable, Sendable {
        public let name: String
        public static let ultraLight = Weight(name: "ultraLight")
        public static let thin = Weight(name: "thin")
        public static let light = Weight(name: "light")
        public static let regular = Weight(name: "regular")
        public static let medium = Weight(name: "medium")
        public static let semibold = Weight(name: "semibold")
        public static let bold = Weight(name: "bold")
        public static let heavy = Weight(name: "heavy")
        public static let black = Weight(name: "black")
    }

    /// Widths of the system font (`fontWidth(_:)`, `Font.width(_:)`), kept by name.
    public struct Width: Hashable, Sendable {
        let name: String
        public let value: Double
        public static let compressed = Width(name: "compressed", value: -0.3)
        public static let condensed = Width(name: "condensed", value: -0.2)
        public static let standard = Width(name: "standard", value: 0)
        public static let expanded = Width(name: "expanded", value: 0.2)
        init(name: String, value: Double) { self.name = name; self.value = value }
        public init(_ value: Double) { self.init(name: value < -0.25 ? "compressed" : value < -0.1 ? "condensed" : value > 0.1 ? "expanded" : "standard", value: value) }
    }

    /// Designs, serialized by name.
    public enum Design: String, Hashable, Sendable { case `default`, rounded, monospaced, serif }

    public static let largeTitle = Font(style: "largeTitle")
    public static let title = Font(style: "title")
    public static let title2 = Font(style: "title2")
    public static let title3 = Font(style: "title3")
    public static let headline = Font(style: "headline")
    public static let subheadline = Font(style: "subheadline")
    public static let body = Font(style: "body")
    public static let callout = Font(style: "callout")
    public static let footnote = Font(style: "footnote")
    public static let caption = Font(style: "caption")
    public static let caption2 = Font(style: "caption2")

    /// The system font at `size` points.
    public static func system(size: Double, weight: Weight? = nil, design: Design? = nil) -> Font {
        var f = Font(style: "system")
        f.spec.size = size
        f.spec.weight = weight?.name
        f.spec.design = design?.rawValue
        return f
    }

    /// The system font for a text style.
    public static func system(_ style: TextStyle, design: Design? = nil, weight: Weight? = nil) -> Font {
        var f = Font(style: style.rawValue)
        f.spec.weight = weight?.name
        f.spec.design = design?.rawValue
        return f
    }

    /// A custom font by name; renderers map it to the system font at `size`.
    public static func custom(_ name: String, size: Double) -> Font { system(size: size) }

    public func weight(_ weight: Weight) -> Font { var f = self; f.spec.weight = weight.name; return f }
    public func bold() -> Font { weight(.bold) }
    public func italic() -> Font { var f = self; f.spec.italic = true; return f }
    public func monospacedDigit() -> Font { var f = self; f.monospacedDigits = true; return f }
    /// Accepted; the font's width is drawn standard (see `View.fontWidth(_:)`).
    public func width(_ width: Width) -> Font { self }
    public func monospaced() -> Font { var f = self; f.spec.design = Design.monospaced.rawValue; return f }
}
