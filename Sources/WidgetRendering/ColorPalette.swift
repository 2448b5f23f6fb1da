import OpenWidgetKit

/// Maps a `StyleSpec` (a named colour, a hierarchical style, or explicit `rgba`) to a
/// `#rrggbb` colour and an alpha, for renderers that can show colour (Pango markup).
///
/// `.system` holds Apple's system colours (light appearance) and renders the hierarchical
/// styles `secondary`, `tertiary`, `quaternary` (and `fill.*`) as greys; `primary` (and
/// `accent` only when no tint says otherwise) have no fixed colour: `hex` returns `nil` for
/// `primary`, meaning "the bar's own foreground". A value type: safe from any thread.
public struct ColorPalette: Hashable, Sendable {
    /// Lower-cased colour name → `#RRGGBB`.
    public var colors: [String: String]

    public init(colors: [String: String]) { self.colors = colors }

    public static let system = ColorPalette(colors: [
        "red": "#FF3B30", "orange": "#FF9500", "yellow": "#FFCC00", "green": "#34C759",
        "mint": "#00C7BE", "teal": "#30B0C7", "cyan": "#32ADE6", "blue": "#007AFF",
        "indigo": "#5856D6", "purple": "#AF52DE", "pink": "#FF2D55", "brown": "#A2845E",
        "gray": "#8E8E93", "grey": "#8E8E93", "black": "#000000", "white": "#FFFFFF",
        "accent": "#007AFF", "accentcolor": "#007AFF",
        "secondary": "#8E8E93", "tertiary": "#636366", "quaternary": "#48484A",
        "fill": "#787880", "fill.secondary": "#787880", "fill.tertiary": "#767680", "fill.quaternary": "#747480",
    ])

    /// `#RRGGBB` for `spec`, or `nil` for the default foreground (`primary`, unknown names,
    /// `clear`).
    public func hex(_ spec: StyleSpec) -> String? {
        if let c = spec.rgba, c.count >= 3 {
            func byte(_ v: Double) -> String {
                let b = v.isFinite ? Int(saturating: (min(max(v, 0), 1) * 255).rounded()) : 0
                let digits = Array("0123456789ABCDEF")
                return String([digits[b / 16], digits[b % 16]])
            }
            return "#" + byte(c[0]) + byte(c[1]) + byte(c[2])
        }
        guard let name = spec.name?.lowercased() else { return nil }
        if let hex = colors[name] { return hex }
        if name.hasPrefix("fill") || name.hasPrefix("material") { return colors["fill"] }
        return nil
    }

    /// Opacity of `spec` (its `opacity` times an `rgba` alpha; `clear` is 0), in 0…1.
    public func alpha(_ spec: StyleSpec) -> Double {
        var a = spec.opacity ?? 1
        if let c = spec.rgba, c.count >= 4 { a *= c[3] }
        if spec.name?.lowercased() == "clear" { a = 0 }
        return a.isFinite ? min(max(a, 0), 1) : 1
    }

    /// How strongly `spec` shows on a one-colour character grid (0…1): its alpha, dimmed for
    /// hierarchical styles and fills. Drives the █▓▒░ shading of shapes.
    func density(_ spec: StyleSpec?) -> Double {
        guard let spec else { return 1 }
        var d = alpha(spec)
        switch spec.name?.lowercased() ?? "" {
        case "secondary": d *= 0.6
        case "tertiary": d *= 0.4
        case "quaternary": d *= 0.25
        case let n where n.hasPrefix("fill") || n.hasPrefix("material"): d *= 0.3
        default: break
        }
        return d
    }
}
