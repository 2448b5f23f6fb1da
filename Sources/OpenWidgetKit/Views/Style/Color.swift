import FoundationEssentials

/// A colour: a system colour by name (`.orange` → `"orange"`, `.accentColor` → `"accent"`,
/// `.primary`/`.secondary`), an asset colour (`Color("Brand")` → that name) or explicit
/// components (`rgba`, 0…1, sRGB), with an optional opacity.
///
/// As a view it is a `color` node whose `shape` is a `rectangle` filled with the colour.
public struct Color: ShapeStyle, View, PrimitiveView, Hashable, Sendable {
    public typealias Body = Never
    var spec: StyleSpec

    init(spec: StyleSpec) { self.spec = spec }
    init(named name: String) { spec = StyleSpec(name: name) }

    /// A colour set of the bundle's asset catalogue, by name, in the appearance the view is
    /// evaluated in (`AssetLookup`).
    public init(_ name: String) { spec = StyleSpec(name: AssetLookup.colorPrefix + name) }

    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        spec = StyleSpec(rgba: [red, green, blue, opacity])
    }

    public init(white: Double, opacity: Double = 1) {
        spec = StyleSpec(rgba: [white, white, white, opacity])
    }

    /// From hue, saturation, brightness (HSB), all 0…1.
    public init(hue: Double, saturation: Double, brightness: Double, opacity: Double = 1) {
        let h = (hue - hue.rounded(.down)) * 6, i = Int(h) % 6, f = h - Double(Int(h))
        let v = brightness, p = v * (1 - saturation), q = v * (1 - saturation * f), t = v * (1 - saturation * (1 - f))
        let (r, g, b): (Double, Double, Double) = switch i {
        case 0: (v, t, p)
        case 1: (q, v, p)
        case 2: (p, v, t)
        case 3: (p, q, v)
        case 4: (t, p, v)
        default: (v, p, q)
        }
        spec = StyleSpec(rgba: [r, g, b, opacity])
    }

    /// This colour with its opacity multiplied by `opacity`.
    public func opacity(_ opacity: Double) -> Color {
        var s = spec
        s.opacity = (s.opacity ?? 1) * opacity
        return Color(spec: s)
    }

    public var _styleSpec: StyleSpec { spec }

    func makeNodes() -> [ViewNode] { [Color.node(for: spec)] }

    static func node(for spec: StyleSpec) -> ViewNode {
        var n = ViewNode(kind: .color)
        var shape = ShapeInfo(type: "rectangle")
        shape.fill = spec
        n.shape = shape
        return n
    }

    public static let red = Color(named: "red")
    public static let orange = Color(named: "orange")
    public static let yellow = Color(named: "yellow")
    public static let green = Color(named: "green")
    public static let mint = Color(named: "mint")
    public static let teal = Color(named: "teal")
    public static let cyan = Color(named: "cyan")
    public static let blue = Color(named: "blue")
    public static let indigo = Color(named: "indigo")
    public static let purple = Color(named: "purple")
    public static let pink = Color(named: "pink")
    public static let brown = Color(named: "brown")
    public static let gray = Color(named: "gray")
    public static let black = Color(named: "black")
    public static let white = Color(named: "white")
    public static let clear = Color(named: "clear")
    public static let primary = Color(named: "primary")
    public static let secondary = Color(named: "secondary")
    public static let accentColor = Color(named: "accent")
}

extension ShapeStyle where Self == Color {
    public static var red: Color { .red }
    public static var orange: Color { .orange }
    public static var yellow: Color { .yellow }
    public static var green: Color { .green }
    public static var mint: Color { .mint }
    public static var teal: Color { .teal }
    public static var cyan: Color { .cyan }
    public static var blue: Color { .blue }
    public static var indigo: Color { .indigo }
    public static var purple: Color { .purple }
    public static var pink: Color { .pink }
    public static var brown: Color { .brown }
    public static var gray: Color { .gray }
    public static var black: Color { .black }
    public static var white: Color { .white }
    public static var clear: Color { .clear }
}
