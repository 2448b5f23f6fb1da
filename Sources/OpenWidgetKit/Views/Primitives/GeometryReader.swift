import FoundationEssentials

/// A width and height (`geo.size.width`), as CoreGraphics names it. `import WidgetKit` code sees
/// this one (Sources/AppleFrameworks shadows Foundation's); lean code has only this one.
public struct CGSize: Hashable, Sendable {
    public var width: CGFloat, height: CGFloat
    public init(width: CGFloat, height: CGFloat) { self.width = width; self.height = height }
    public static let zero = CGSize(width: 0, height: 0)
}

/// A point, as CoreGraphics names it.
public struct CGPoint: Hashable, Sendable {
    public var x: CGFloat, y: CGFloat
    public init(x: CGFloat, y: CGFloat) { self.x = x; self.y = y }
    public static let zero = CGPoint(x: 0, y: 0)
}

/// A rectangle, as CoreGraphics names it, with the edges and middles views read.
public struct CGRect: Hashable, Sendable {
    public var origin: CGPoint, size: CGSize
    public init(origin: CGPoint, size: CGSize) { self.origin = origin; self.size = size }
    public init(x: CGFloat, y: CGFloat, width: CGFloat, height: CGFloat) {
        self.init(origin: CGPoint(x: x, y: y), size: CGSize(width: width, height: height))
    }
    public static let zero = CGRect(origin: .zero, size: .zero)
    public var width: CGFloat { size.width }
    public var height: CGFloat { size.height }
    public var minX: CGFloat { origin.x }
    public var midX: CGFloat { origin.x + size.width / 2 }
    public var maxX: CGFloat { origin.x + size.width }
    public var minY: CGFloat { origin.y }
    public var midY: CGFloat { origin.y + size.height / 2 }
    public var maxY: CGFloat { origin.y + size.height }
}

/// Where a `GeometryProxy.frame(in:)` is measured from: the reader itself (`.local`), the
/// widget (`.global`), or a named space (`.named("x")`, measured as `.local` here).
public enum CoordinateSpace: Hashable, Sendable {
    case global, local
    case named(String)
    public static func named<H: Hashable>(_ name: H) -> CoordinateSpace { .named(String(describing: name)) }
}

/// What a `GeometryReader`'s content is told about the space it has.
///
/// The content is evaluated in the bundle's worker, before the host lays the tree out, so the
/// size is the one the reader gets when it fills what it is inside of — the widget's display
/// size less its content margins (the whole display after `.contentMarginsDisabled()`), less
/// the `padding` around the reader, within a fixed `frame(width:height:)` around it — which is
/// what a `GeometryReader` as the widget's content, the common case, gets on iOS. A reader
/// that shares a stack with other views is told the stack's whole area (docs/porting.md).
/// Value; any thread.
public struct GeometryProxy: Sendable {
    public let size: CGSize
    /// Widgets have no safe area: zero.
    public let safeAreaInsets: EdgeInsets
    /// The reader's origin in the widget (its content margins).
    let origin: CGPoint

    public func frame(in space: CoordinateSpace) -> CGRect {
        switch space {
        case .global: CGRect(origin: origin, size: size)
        case .local, .named: CGRect(origin: .zero, size: size)
        }
    }
}

/// The space a `GeometryReader` evaluated now would fill: the widget's content area, set per
/// request by the runner, less the `padding` and within the fixed `frame(width:height:)` the
/// reader is inside of (a stack's share is not known before layout).
struct GeometryArea: Sendable {
    var size: CGSize
    var origin: CGPoint

    func inset(by e: EdgeInsets) -> GeometryArea {
        GeometryArea(size: CGSize(width: max(0, size.width - e.leading - e.trailing), height: max(0, size.height - e.top - e.bottom)),
                     origin: CGPoint(x: origin.x + e.leading, y: origin.y + e.top))
    }

    /// Within a fixed frame of `width` × `height` (nil: as now), centred in this area as a
    /// parent centres a child smaller than its offer.
    func framed(width: Double?, height: Double?) -> GeometryArea {
        let w = max(0, width ?? size.width), h = max(0, height ?? size.height)
        return GeometryArea(size: CGSize(width: w, height: h),
                            origin: CGPoint(x: origin.x + (size.width - w) / 2, y: origin.y + (size.height - h) / 2))
    }
}

extension EnvironmentValues {
    /// The area a `GeometryReader` evaluated in this environment fills (`GeometryArea`).
    var readerArea: GeometryArea {
        geometryArea ?? GeometryArea(
            size: CGSize(width: displaySize.width, height: displaySize.height), origin: .zero).inset(by: widgetContentMargins)
    }
}

/// A view whose content is a function of its size (`GeometryReader { geo in … }`). It takes all
/// the space it is offered and places its content at its top leading corner, as in SwiftUI: a
/// `zstack` node (role `geometryReader`) with a flexible frame to infinity, aligned top leading.
public struct GeometryReader<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let content: (GeometryProxy) -> Content

    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) { self.content = content }

    /// The proxy of the evaluation running now (`EnvironmentValues.current`).
    static var proxy: GeometryProxy {
        let area = EnvironmentValues.current.readerArea
        return GeometryProxy(size: CGSize(width: max(0, area.size.width), height: max(0, area.size.height)),
                             safeAreaInsets: EdgeInsets(), origin: area.origin)
    }

    func makeNodes() -> [ViewNode] {
        var n = stackNode(.zstack, "topLeading", nil, ViewEval.nodes(content(Self.proxy)))
        n.role = "geometryReader"
        var m = Modifiers()
        m.frame = FrameSpec(minWidth: 0, maxWidth: .infinity, minHeight: 0, maxHeight: .infinity, alignment: "topLeading")
        n.modifiers = m
        return [n]
    }
}
