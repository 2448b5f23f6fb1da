/// A colour or pattern used to fill, stroke or tint (SwiftUI's `ShapeStyle`). Every style
/// serializes to a `StyleSpec`: a name (`"orange"`, `"secondary"`, `"fill.tertiary"`, `"tint"`),
/// or `rgba` for an explicit colour, each with an optional opacity.
public protocol ShapeStyle {
    /// The wire form of this style. Custom styles serialize as `name: "custom"` by default.
    var _styleSpec: StyleSpec { get }
}

extension ShapeStyle {
    public var _styleSpec: StyleSpec { StyleSpec(name: "custom") }

    /// This style with its opacity multiplied by `opacity`.
    public func opacity(_ opacity: Double) -> some ShapeStyle { _OpacityShapeStyle(base: _styleSpec, opacity: opacity) }

    /// The secondary/tertiary/quaternary level of this style (opacity steps of the primary).
    public var secondary: some ShapeStyle { _LeveledShapeStyle(base: _styleSpec, level: "secondary") }
    public var tertiary: some ShapeStyle { _LeveledShapeStyle(base: _styleSpec, level: "tertiary") }
    public var quaternary: some ShapeStyle { _LeveledShapeStyle(base: _styleSpec, level: "quaternary") }
}

/// A style with a multiplied opacity.
public struct _OpacityShapeStyle: ShapeStyle {
    let base: StyleSpec
    let opacity: Double
    public var _styleSpec: StyleSpec {
        var s = base
        s.opacity = (s.opacity ?? 1) * opacity
        return s
    }
}

/// A level (`secondary`…) of another style: name `"<base>.<level>"`.
public struct _LeveledShapeStyle: ShapeStyle {
    let base: StyleSpec
    let level: String
    public var _styleSpec: StyleSpec {
        var s = base
        s.name = (s.name ?? "custom") + "." + level
        return s
    }
}

/// The foreground levels: `.primary`, `.secondary`, `.tertiary`, `.quaternary`.
public struct HierarchicalShapeStyle: ShapeStyle, Hashable, Sendable {
    let name: String
    public static let primary = HierarchicalShapeStyle(name: "primary")
    public static let secondary = HierarchicalShapeStyle(name: "secondary")
    public static let tertiary = HierarchicalShapeStyle(name: "tertiary")
    public static let quaternary = HierarchicalShapeStyle(name: "quaternary")
    public static let quinary = HierarchicalShapeStyle(name: "quinary")
    public var _styleSpec: StyleSpec { StyleSpec(name: name) }
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    public static var primary: HierarchicalShapeStyle { .primary }
    public static var secondary: HierarchicalShapeStyle { .secondary }
    public static var tertiary: HierarchicalShapeStyle { .tertiary }
    public static var quaternary: HierarchicalShapeStyle { .quaternary }
    public static var quinary: HierarchicalShapeStyle { .quinary }
}

/// The system fill levels: `.fill`, `.fill.secondary`, `.fill.tertiary`… (names `"fill"`,
/// `"fill.secondary"`, `"fill.tertiary"`, `"fill.quaternary"`).
public struct FillShapeStyle: ShapeStyle, Hashable, Sendable {
    let level: String?
    public init() { level = nil }
    init(level: String?) { self.level = level }
    public var secondary: FillShapeStyle { FillShapeStyle(level: "secondary") }
    public var tertiary: FillShapeStyle { FillShapeStyle(level: "tertiary") }
    public var quaternary: FillShapeStyle { FillShapeStyle(level: "quaternary") }
    public var _styleSpec: StyleSpec { StyleSpec(name: level.map { "fill." + $0 } ?? "fill") }
}

extension ShapeStyle where Self == FillShapeStyle {
    public static var fill: FillShapeStyle { FillShapeStyle() }
}

/// The tint colour in force (`.tint`): name `"tint"`.
public struct TintShapeStyle: ShapeStyle, Hashable, Sendable {
    public init() {}
    public var _styleSpec: StyleSpec { StyleSpec(name: "tint") }
}

extension ShapeStyle where Self == TintShapeStyle {
    public static var tint: TintShapeStyle { TintShapeStyle() }
}

/// The foreground style in force (`.foreground`): name `"foreground"`.
public struct ForegroundStyle: ShapeStyle, Hashable, Sendable {
    public init() {}
    public var _styleSpec: StyleSpec { StyleSpec(name: "foreground") }
}

extension ShapeStyle where Self == ForegroundStyle {
    public static var foreground: ForegroundStyle { ForegroundStyle() }
}

/// The widget's background (`.background`, as in `.foregroundStyle(.background)`): name
/// `"background"`, the container background of the appearance.
public struct BackgroundStyle: ShapeStyle, Hashable, Sendable {
    public init() {}
    public var _styleSpec: StyleSpec { StyleSpec(name: "background") }
}

extension ShapeStyle where Self == BackgroundStyle {
    public static var background: BackgroundStyle { BackgroundStyle() }
}

/// A list of colours for gradients. As a shape style itself (`.tint(Gradient(colors: …))`) it
/// is a linear gradient from top to bottom.
public struct Gradient: ShapeStyle, Hashable, Sendable {
    public var colors: [Color]
    public init(colors: [Color]) { self.colors = colors }

    /// A colour at a location (0…1) of a gradient.
    public struct Stop: Hashable, Sendable {
        public var color: Color
        public var location: Double
        public init(color: Color, location: Double) { self.color = color; self.location = location }
    }

    /// `Gradient(stops: [.init(color: .green, location: 0), .init(color: .red, location: 1)])`:
    /// the stops' colours in the order of their locations, drawn evenly spaced (the wire form
    /// keeps no locations).
    public init(stops: [Stop]) { colors = stops.sorted { $0.location < $1.location }.map(\.color) }

    public var _styleSpec: StyleSpec { LinearGradient(gradient: self, startPoint: .top, endPoint: .bottom)._styleSpec }
}

/// A linear gradient: serialized as its first colour (what text renderers show; `"custom"` if
/// it has none) with every stop in `gradient` and the end points in `gradientPoints`.
public struct LinearGradient: ShapeStyle, View, PrimitiveView {
    public typealias Body = Never
    public var gradient: Gradient
    public var startPoint = UnitPoint.top, endPoint = UnitPoint.bottom
    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        self.gradient = gradient; self.startPoint = startPoint; self.endPoint = endPoint
    }
    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }
    public var _styleSpec: StyleSpec {
        var s = gradient.colors.first?._styleSpec ?? StyleSpec(name: "custom")
        if gradient.colors.count > 1 {
            s.gradient = gradient.colors.map(\._styleSpec)
            s.gradientPoints = [startPoint.x, startPoint.y, endPoint.x, endPoint.y]
        }
        return s
    }
    func makeNodes() -> [ViewNode] { [Color.node(for: _styleSpec)] }
}

/// A radial gradient from `startRadius` to `endRadius` points around `center`: serialized like
/// a linear one with `gradientKind` `"radial"` and `gradientPoints` `[cx, cy, r0, r1]`.
public struct RadialGradient: ShapeStyle, View, PrimitiveView {
    public typealias Body = Never
    public var gradient: Gradient
    public var center: UnitPoint
    public var startRadius: Double, endRadius: Double
    public init(gradient: Gradient, center: UnitPoint, startRadius: Double, endRadius: Double) {
        self.gradient = gradient; self.center = center; self.startRadius = startRadius; self.endRadius = endRadius
    }
    public init(colors: [Color], center: UnitPoint, startRadius: Double, endRadius: Double) {
        self.init(gradient: Gradient(colors: colors), center: center, startRadius: startRadius, endRadius: endRadius)
    }
    public var _styleSpec: StyleSpec {
        Gradient.spec(gradient, kind: "radial", [center.x, center.y, startRadius, endRadius])
    }
    func makeNodes() -> [ViewNode] { [Color.node(for: _styleSpec)] }
}

/// A radial gradient stretched to the filled box (`EllipticalGradient`): its radii are
/// fractions of the box's width and height, so it is an ellipse in a box that is not square.
/// Serialized with `gradientKind` `"elliptical"` and `gradientPoints`
/// `[cx, cy, startRadiusFraction, endRadiusFraction]`.
public struct EllipticalGradient: ShapeStyle, View, PrimitiveView {
    public typealias Body = Never
    public var gradient: Gradient
    public var center: UnitPoint
    public var startRadiusFraction: Double, endRadiusFraction: Double
    public init(gradient: Gradient, center: UnitPoint = .center, startRadiusFraction: Double = 0, endRadiusFraction: Double = 0.5) {
        self.gradient = gradient; self.center = center
        self.startRadiusFraction = startRadiusFraction; self.endRadiusFraction = endRadiusFraction
    }
    public init(colors: [Color], center: UnitPoint = .center, startRadiusFraction: Double = 0, endRadiusFraction: Double = 0.5) {
        self.init(gradient: Gradient(colors: colors), center: center, startRadiusFraction: startRadiusFraction, endRadiusFraction: endRadiusFraction)
    }
    public var _styleSpec: StyleSpec {
        Gradient.spec(gradient, kind: "elliptical", [center.x, center.y, startRadiusFraction, endRadiusFraction])
    }
    func makeNodes() -> [ViewNode] { [Color.node(for: _styleSpec)] }
}

/// An angular (conic) gradient around `center` from `startAngle` to `endAngle` (clockwise from
/// the trailing side): `gradientKind` `"angular"`, `gradientPoints` `[cx, cy, start°, end°]`.
public struct AngularGradient: ShapeStyle, View, PrimitiveView {
    public typealias Body = Never
    public var gradient: Gradient
    public var center: UnitPoint
    public var startAngle: Angle, endAngle: Angle
    public init(gradient: Gradient, center: UnitPoint, startAngle: Angle = .zero, endAngle: Angle = .degrees(360)) {
        self.gradient = gradient; self.center = center; self.startAngle = startAngle; self.endAngle = endAngle
    }
    public init(colors: [Color], center: UnitPoint, startAngle: Angle = .zero, endAngle: Angle = .degrees(360)) {
        self.init(gradient: Gradient(colors: colors), center: center, startAngle: startAngle, endAngle: endAngle)
    }
    /// A full turn starting at `angle`.
    public init(gradient: Gradient, center: UnitPoint, angle: Angle) {
        self.init(gradient: gradient, center: center, startAngle: angle, endAngle: .degrees(angle.degrees + 360))
    }
    public init(colors: [Color], center: UnitPoint, angle: Angle) {
        self.init(gradient: Gradient(colors: colors), center: center, angle: angle)
    }
    public var _styleSpec: StyleSpec {
        Gradient.spec(gradient, kind: "angular", [center.x, center.y, startAngle.degrees, endAngle.degrees])
    }
    func makeNodes() -> [ViewNode] { [Color.node(for: _styleSpec)] }
}

extension Gradient {
    /// The wire form of a radial or angular gradient: its first colour, its stops, its kind
    /// and geometry.
    static func spec(_ g: Gradient, kind: String, _ points: [Double]) -> StyleSpec {
        var s = g.colors.first?._styleSpec ?? StyleSpec(name: "custom")
        if g.colors.count > 1 {
            s.gradient = g.colors.map(\._styleSpec)
            s.gradientKind = kind
            s.gradientPoints = points
        }
        return s
    }
}

extension ShapeStyle where Self == RadialGradient {
    public static func radialGradient(colors: [Color], center: UnitPoint, startRadius: Double, endRadius: Double) -> RadialGradient {
        RadialGradient(colors: colors, center: center, startRadius: startRadius, endRadius: endRadius)
    }
    public static func radialGradient(_ gradient: Gradient, center: UnitPoint, startRadius: Double, endRadius: Double) -> RadialGradient {
        RadialGradient(gradient: gradient, center: center, startRadius: startRadius, endRadius: endRadius)
    }
}

extension ShapeStyle where Self == EllipticalGradient {
    public static func ellipticalGradient(colors: [Color], center: UnitPoint = .center, startRadiusFraction: Double = 0,
                                          endRadiusFraction: Double = 0.5) -> EllipticalGradient {
        EllipticalGradient(colors: colors, center: center, startRadiusFraction: startRadiusFraction, endRadiusFraction: endRadiusFraction)
    }
    public static func ellipticalGradient(_ gradient: Gradient, center: UnitPoint = .center, startRadiusFraction: Double = 0,
                                          endRadiusFraction: Double = 0.5) -> EllipticalGradient {
        EllipticalGradient(gradient: gradient, center: center, startRadiusFraction: startRadiusFraction, endRadiusFraction: endRadiusFraction)
    }
}

extension ShapeStyle where Self == AngularGradient {
    public static func angularGradient(colors: [Color], center: UnitPoint, startAngle: Angle, endAngle: Angle) -> AngularGradient {
        AngularGradient(colors: colors, center: center, startAngle: startAngle, endAngle: endAngle)
    }
    public static func angularGradient(_ gradient: Gradient, center: UnitPoint, startAngle: Angle, endAngle: Angle) -> AngularGradient {
        AngularGradient(gradient: gradient, center: center, startAngle: startAngle, endAngle: endAngle)
    }
}

extension ShapeStyle where Self == LinearGradient {
    public static func linearGradient(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(colors: colors, startPoint: startPoint, endPoint: endPoint)
    }
    public static func linearGradient(_ gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(gradient: gradient, startPoint: startPoint, endPoint: endPoint)
    }
}

/// A blurred, translucent backdrop (`.ultraThinMaterial`…): `StyleSpec(name: "material.<thickness>")`.
/// Text renderers shade it like a fill.
public struct Material: ShapeStyle, Hashable, Sendable {
    let thickness: String
    public var _styleSpec: StyleSpec { StyleSpec(name: "material." + thickness) }
    public static let ultraThin = Material(thickness: "ultraThin")
    public static let thin = Material(thickness: "thin")
    public static let regular = Material(thickness: "regular")
    public static let thick = Material(thickness: "thick")
    public static let ultraThick = Material(thickness: "ultraThick")
    public static let bar = Material(thickness: "bar")
}

extension ShapeStyle where Self == Material {
    public static var ultraThinMaterial: Material { .ultraThin }
    public static var thinMaterial: Material { .thin }
    public static var regularMaterial: Material { .regular }
    public static var thickMaterial: Material { .thick }
    public static var ultraThickMaterial: Material { .ultraThick }
    public static var bar: Material { .bar }
}
