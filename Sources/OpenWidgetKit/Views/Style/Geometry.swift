import FoundationEssentials

/// `CGFloat` lives in the full Foundation overlay; the SDK keeps to FoundationEssentials, so it
/// is an alias of `Double` here (ported code that spells `CGFloat` compiles unchanged).
public typealias CGFloat = Double

/// Insets on the four edges, in points.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double, leading: Double, bottom: Double, trailing: Double
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top; self.leading = leading; self.bottom = bottom; self.trailing = trailing
    }
    var spec: EdgeInsetsSpec { EdgeInsetsSpec(top: top, leading: leading, bottom: bottom, trailing: trailing) }
    init(_ spec: EdgeInsetsSpec) { self.init(top: spec.top, leading: spec.leading, bottom: spec.bottom, trailing: spec.trailing) }
}

/// An edge of a rectangle; `Edge.Set` selects several (`.horizontal`, `.all`…).
public enum Edge: Int8, Hashable, Sendable, CaseIterable {
    case top, leading, bottom, trailing

    public struct Set: OptionSet, Hashable, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public init(_ edge: Edge) { rawValue = 1 << edge.rawValue }
        public static let top = Set(.top)
        public static let leading = Set(.leading)
        public static let bottom = Set(.bottom)
        public static let trailing = Set(.trailing)
        public static let horizontal: Set = [.leading, .trailing]
        public static let vertical: Set = [.top, .bottom]
        public static let all: Set = [.top, .leading, .bottom, .trailing]
    }
}

/// Horizontal alignment of a `VStack` or a frame; serialized by name.
public struct HorizontalAlignment: Hashable, Sendable {
    public let name: String
    public static let leading = HorizontalAlignment(name: "leading")
    public static let center = HorizontalAlignment(name: "center")
    public static let trailing = HorizontalAlignment(name: "trailing")
    public static let listRowSeparatorLeading = HorizontalAlignment(name: "leading")
    public static let listRowSeparatorTrailing = HorizontalAlignment(name: "trailing")
}

/// Vertical alignment of an `HStack` or a frame; serialized by name.
public struct VerticalAlignment: Hashable, Sendable {
    public let name: String
    public static let top = VerticalAlignment(name: "top")
    public static let center = VerticalAlignment(name: "center")
    public static let bottom = VerticalAlignment(name: "bottom")
    public static let firstTextBaseline = VerticalAlignment(name: "firstTextBaseline")
    public static let lastTextBaseline = VerticalAlignment(name: "lastTextBaseline")
}

/// A two-axis alignment (`ZStack`, `frame`). `name` is `center`, `leading`, `topLeading`… —
/// the vertical part first, as SwiftUI spells them.
public struct Alignment: Hashable, Sendable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal; self.vertical = vertical
    }

    public var name: String {
        switch (vertical.name, horizontal.name) {
        case ("center", let h): return h
        case (let v, "center"): return v
        case (let v, let h): return v + h.prefix(1).uppercased() + h.dropFirst()
        }
    }

    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)
}

/// A point in unit coordinates (anchors, gradient ends). Accepted for source compatibility.
public struct UnitPoint: Hashable, Sendable {
    public var x: Double, y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = UnitPoint(x: 0, y: 0)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let leading = UnitPoint(x: 0, y: 0.5)
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    public static let topLeading = UnitPoint(x: 0, y: 0)
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)
}

/// An angle; `rotationEffect` stores it in degrees.
public struct Angle: Hashable, Sendable, Comparable {
    public var radians: Double
    public var degrees: Double { radians * 180 / .pi }
    public init() { radians = 0 }
    public init(radians: Double) { self.radians = radians }
    public init(degrees: Double) { radians = degrees * .pi / 180 }
    public static func radians(_ r: Double) -> Angle { Angle(radians: r) }
    public static func degrees(_ d: Double) -> Angle { Angle(degrees: d) }
    public static let zero = Angle()
    public static func < (a: Angle, b: Angle) -> Bool { a.radians < b.radians }
}

/// Line end style of a stroke. Accepted for source compatibility; not serialized.
public enum LineCap: String, Hashable, Sendable { case butt, round, square }


extension StrokeStyle {
    /// The cap as serialized in `ShapeInfo.lineCap`: nil for the default `butt`.
    var capName: String? { lineCap == .butt ? nil : lineCap.rawValue }
}
/// Line join style of a stroke. Accepted for source compatibility; not serialized.
public enum LineJoin: String, Hashable, Sendable { case miter, round, bevel }

/// How a shape is stroked; `lineWidth` is serialized as `ShapeInfo.lineWidth`.
public struct StrokeStyle: Hashable, Sendable {
    public var lineWidth: Double
    public var lineCap: LineCap
    public var lineJoin: LineJoin
    public var miterLimit: Double
    public var dash: [Double]
    public var dashPhase: Double
    public init(lineWidth: Double = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter,
                miterLimit: Double = 10, dash: [Double] = [], dashPhase: Double = 0) {
        self.lineWidth = lineWidth; self.lineCap = lineCap; self.lineJoin = lineJoin
        self.miterLimit = miterLimit; self.dash = dash; self.dashPhase = dashPhase
    }
}

/// How changing content animates (`.contentTransition(.numericText())`): kept in
/// `modifiers.other["contentTransition"]` by name, without effect on text renderers.
public struct ContentTransition: Hashable, Sendable {
    public let name: String
    public static let identity = ContentTransition(name: "identity")
    public static let opacity = ContentTransition(name: "opacity")
    public static let interpolate = ContentTransition(name: "interpolate")
    public static func numericText(countsDown: Bool = false) -> ContentTransition { ContentTransition(name: "numericText") }
    public static func numericText(value: Double) -> ContentTransition { ContentTransition(name: "numericText") }
}

/// Alignment of the lines of a multi-line text.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable { case leading, center, trailing }

/// Where a `containerBackground` applies; widgets use `.widget`.
public struct ContainerBackgroundPlacement: Hashable, Sendable {
    public let name: String
    public static let widget = ContainerBackgroundPlacement(name: "widget")
}
