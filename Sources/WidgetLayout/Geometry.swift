/// A size in points. A plain value: safe from any thread.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
    public var description: String { "\(width)×\(height)" }
}

/// A rectangle in points, origin top-left, y down. A plain value: safe from any thread.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    public init(origin: (x: Double, y: Double), size: Size) {
        self.init(x: origin.x, y: origin.y, width: size.width, height: size.height)
    }
    public var size: Size { Size(width: width, height: height) }
    public var maxX: Double { x + width }
    public var maxY: Double { y + height }
    public var midX: Double { x + width / 2 }
    public var midY: Double { y + height / 2 }
    public var description: String { "(\(x), \(y), \(width), \(height))" }

    /// This rectangle moved by `dx`, `dy`.
    public func offsetBy(_ dx: Double, _ dy: Double) -> Rect { Rect(x: x + dx, y: y + dy, width: width, height: height) }

    /// This rectangle shrunk by `insets` (never below zero size).
    public func inset(by e: Insets) -> Rect {
        Rect(x: x + e.leading, y: y + e.top, width: max(0, width - e.leading - e.trailing), height: max(0, height - e.top - e.bottom))
    }
}

/// Edge insets in points, every one finite and ≥ 0.
public struct Insets: Hashable, Sendable {
    public var top: Double, leading: Double, bottom: Double, trailing: Double
    public init(top: Double, leading: Double, bottom: Double, trailing: Double) {
        self.top = top; self.leading = leading; self.bottom = bottom; self.trailing = trailing
    }
    public init(all v: Double) { self.init(top: v, leading: v, bottom: v, trailing: v) }
    public static let zero = Insets(all: 0)
    var horizontal: Double { leading + trailing }
    var vertical: Double { top + bottom }
}

/// What a parent proposes to a child, per dimension: `nil` asks for the child's ideal size,
/// `0` for its minimum, `.infinity` for its maximum, any other value is the space on offer —
/// SwiftUI's `ProposedViewSize`.
public struct ProposedSize: Hashable, Sendable {
    public var width: Double?
    public var height: Double?
    public init(width: Double?, height: Double?) { self.width = width; self.height = height }
    public init(_ size: Size) { self.init(width: size.width, height: size.height) }
    public static let unspecified = ProposedSize(width: nil, height: nil)

    subscript(axis: Axis) -> Double? {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }
}

/// A stack's main axis.
public enum Axis: Sendable { case horizontal, vertical
    var other: Axis { self == .horizontal ? .vertical : .horizontal }
}

extension Size {
    subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }
    init(axis: Axis, main: Double, cross: Double) {
        self = axis == .horizontal ? Size(width: main, height: cross) : Size(width: cross, height: main)
    }
}

/// Where a child sits inside a larger box: fractions 0 (leading/top), 0.5 (center), 1
/// (trailing/bottom) per axis, parsed from SwiftUI's alignment names.
public struct AlignmentSpec: Hashable, Sendable {
    public var x: Double, y: Double
    public static let center = AlignmentSpec(x: 0.5, y: 0.5)

    /// `topLeading`, `top`, `leading`, `center`, `trailing`, `bottomTrailing`, … (and the
    /// one-axis stack names); anything else is `center`.
    public init(name: String?) {
        switch name ?? "center" {
        case "center": x = 0.5; y = 0.5
        case "leading": x = 0; y = 0.5
        case "trailing": x = 1; y = 0.5
        case "top": x = 0.5; y = 0
        case "bottom": x = 0.5; y = 1
        case "topLeading": x = 0; y = 0
        case "topTrailing": x = 1; y = 0
        case "bottomLeading": x = 0; y = 1
        case "bottomTrailing": x = 1; y = 1
        default:
            let n = (name ?? "center").lowercased()
            x = n.contains("leading") ? 0 : (n.contains("trailing") ? 1 : 0.5)
            y = n.hasPrefix("top") ? 0 : (n.hasPrefix("bottom") ? 1 : 0.5)
            if n.contains("baseline") { y = n.contains("last") ? 1 : 0 }
        }
    }
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// Origin of a `size` box aligned inside `rect`.
    func origin(of size: Size, in rect: Rect) -> (x: Double, y: Double) {
        (rect.x + (rect.width - size.width) * x, rect.y + (rect.height - size.height) * y)
    }
}
