/// A shape view: a `shape` node with `ShapeInfo` (type, corner radius, fill, stroke, line
/// width, trim). A shape with neither fill nor stroke is filled with the foreground style
/// (renderers apply it). `fill`, `stroke` and `trim` return shapes, so they chain in any order.
public protocol Shape: View {
    /// The shape's description on the wire.
    var _shapeInfo: ShapeInfo { get }
}

extension Shape {
    public func fill<S: ShapeStyle>(_ style: S) -> _StyledShape { _StyledShape(info: _shapeInfo) { $0.fill = style._styleSpec } }
    public func fill() -> _StyledShape { _StyledShape(info: _shapeInfo) { $0.fill = StyleSpec(name: "foreground") } }

    public func stroke<S: ShapeStyle>(_ style: S, lineWidth: Double = 1) -> _StyledShape {
        _StyledShape(info: _shapeInfo) { $0.stroke = style._styleSpec; $0.lineWidth = lineWidth }
    }
    public func stroke<S: ShapeStyle>(_ style: S, style strokeStyle: StrokeStyle) -> _StyledShape {
        _StyledShape(info: _shapeInfo) { $0.stroke = style._styleSpec; $0.lineWidth = strokeStyle.lineWidth; $0.lineCap = strokeStyle.capName }
    }
    public func stroke(lineWidth: Double = 1) -> _StyledShape {
        _StyledShape(info: _shapeInfo) { $0.stroke = StyleSpec(name: "foreground"); $0.lineWidth = lineWidth }
    }
    public func stroke(style strokeStyle: StrokeStyle) -> _StyledShape {
        _StyledShape(info: _shapeInfo) { $0.stroke = StyleSpec(name: "foreground"); $0.lineWidth = strokeStyle.lineWidth; $0.lineCap = strokeStyle.capName }
    }
    public func strokeBorder<S: ShapeStyle>(_ style: S, lineWidth: Double = 1) -> _StyledShape { stroke(style, lineWidth: lineWidth) }

    /// Only the part from `from` to `to` (fractions of the outline) is drawn.
    public func trim(from: Double = 0, to: Double = 1) -> _StyledShape {
        _StyledShape(info: _shapeInfo) { $0.trimFrom = from; $0.trimTo = to }
    }
}

/// Evaluation of every shape.
extension Shape {
    func shapeNodes() -> [ViewNode] {
        var n = ViewNode(kind: .shape)
        n.shape = _shapeInfo
        return [n]
    }
}

/// A shape with fill/stroke/trim applied.
public struct _StyledShape: Shape, PrimitiveView {
    public typealias Body = Never
    public let _shapeInfo: ShapeInfo
    init(info: ShapeInfo, _ change: (inout ShapeInfo) -> Void) { var i = info; change(&i); _shapeInfo = i }
    func makeNodes() -> [ViewNode] { shapeNodes() }
}

public struct Circle: Shape, PrimitiveView {
    public typealias Body = Never
    public init() {}
    public var _shapeInfo: ShapeInfo { ShapeInfo(type: "circle") }
    func makeNodes() -> [ViewNode] { shapeNodes() }
}

public struct Rectangle: Shape, PrimitiveView {
    public typealias Body = Never
    public init() {}
    public var _shapeInfo: ShapeInfo { ShapeInfo(type: "rectangle") }
    func makeNodes() -> [ViewNode] { shapeNodes() }
}

/// Corner style of a rounded rectangle; accepted, not serialized.
public enum RoundedCornerStyle: Hashable, Sendable { case circular, continuous }

public struct RoundedRectangle: Shape, PrimitiveView {
    public typealias Body = Never
    public var cornerRadius: Double
    public init(cornerRadius: Double, style: RoundedCornerStyle = .continuous) { self.cornerRadius = cornerRadius }
    public var _shapeInfo: ShapeInfo { var i = ShapeInfo(type: "roundedRectangle"); i.cornerRadius = cornerRadius; return i }
    func makeNodes() -> [ViewNode] { shapeNodes() }
}

public struct Capsule: Shape, PrimitiveView {
    public typealias Body = Never
    public init(style: RoundedCornerStyle = .continuous) {}
    public var _shapeInfo: ShapeInfo { ShapeInfo(type: "capsule") }
    func makeNodes() -> [ViewNode] { shapeNodes() }
}

public struct Ellipse: Shape, PrimitiveView {
    public typealias Body = Never
    public init() {}
    public var _shapeInfo: ShapeInfo { ShapeInfo(type: "ellipse") }
    func makeNodes() -> [ViewNode] { shapeNodes() }
}

/// The widget's own corner shape: type `"containerRelative"` (renderers may treat it as a
/// rounded rectangle).
public struct ContainerRelativeShape: Shape, PrimitiveView {
    public typealias Body = Never
    public init() {}
    public var _shapeInfo: ShapeInfo { ShapeInfo(type: "containerRelative") }
    func makeNodes() -> [ViewNode] { shapeNodes() }
}
