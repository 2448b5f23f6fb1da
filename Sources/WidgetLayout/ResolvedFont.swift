import OpenWidgetKit

/// A font as the layout and the drawing see it: a point size, a CSS weight (100…900), a design
/// and traits, resolved from `FontSpec` and the inherited style modifiers. A plain value.
public struct ResolvedFont: Hashable, Sendable, CustomStringConvertible {
    public enum Design: String, Hashable, Sendable { case `default`, rounded, monospaced, serif }

    public var size: Double
    public var weight: Int
    public var design: Design
    public var italic: Bool
    /// `monospacedDigit()`: digits drawn with tabular figures.
    public var monospacedDigit: Bool
    /// `tracking(_:)` / `kerning(_:)`: points added after each character, on top of the
    /// face's own tracking for the size.
    public var tracking: Double
    /// `strikethrough()` / `underline()` of the text or of a view around it: lines drawn in the
    /// text's colour (they change no size).
    public var strikethrough: Bool
    public var underline: Bool

    public init(size: Double, weight: Int = 400, design: Design = .default, italic: Bool = false, monospacedDigit: Bool = false,
                tracking: Double = 0, strikethrough: Bool = false, underline: Bool = false) {
        self.size = size; self.weight = weight; self.design = design; self.italic = italic; self.monospacedDigit = monospacedDigit
        self.tracking = tracking; self.strikethrough = strikethrough; self.underline = underline
    }

    /// SwiftUI's `body`: 17 pt regular.
    public static let body = ResolvedFont(size: 17)

    public var description: String {
        "\(design.rawValue) \(size)pt w\(weight)\(italic ? " italic" : "")\(monospacedDigit ? " tnum" : "")\(tracking != 0 ? " tracking \(tracking)" : "")\(strikethrough ? " strikethrough" : "")\(underline ? " underline" : "")"
    }

    /// This font at `factor` times its size (`minimumScaleFactor`).
    public func scaled(_ factor: Double) -> ResolvedFont {
        var f = self
        f.size = size * factor
        f.tracking = tracking * factor
        return f
    }

    /// Point sizes of Apple's text styles at the default (Large) Dynamic Type size on iPhone.
    public static let textStyleSizes: [String: Double] = [
        "largeTitle": 34, "title": 28, "title2": 22, "title3": 20, "headline": 17, "body": 17,
        "callout": 16, "subheadline": 15, "footnote": 13, "caption": 12, "caption2": 11,
    ]

    /// CSS weight of a SwiftUI `Font.Weight` name; nil for an unknown name.
    public static func weight(named name: String) -> Int? {
        switch name {
        case "ultraLight": 100
        case "thin": 200
        case "light": 300
        case "regular": 400
        case "medium": 500
        case "semibold": 600
        case "bold": 700
        case "heavy": 800
        case "black": 900
        default: nil
        }
    }

    /// The font of `spec` (nil: body), with `weight` (a `fontWeight`/`bold()` name) overriding.
    public static func resolve(_ spec: FontSpec?, weight override: String?, italic: Bool?, monospacedDigit: Bool?,
                               tracking: Double? = nil) -> ResolvedFont {
        var f = ResolvedFont.body
        if let spec {
            if spec.style == "system" || spec.style == "custom" {
                if let s = spec.size, s.isFinite, s > 0 { f.size = min(s, LayoutLimits.maxFontSize) }
            } else {
                f.size = textStyleSizes[spec.style] ?? 17
                if spec.style == "headline" { f.weight = 600 }
            }
            if let w = spec.weight.flatMap(weight(named:)) { f.weight = w }
            if let d = spec.design.flatMap(Design.init(rawValue:)) { f.design = d }
            if spec.italic == true { f.italic = true }
        }
        if let w = override.flatMap(weight(named:)) { f.weight = w }
        if let i = italic { f.italic = i }
        if let m = monospacedDigit { f.monospacedDigit = m }
        if let t = tracking, t.isFinite { f.tracking = min(max(t, -f.size), f.size) }
        return f
    }
}
