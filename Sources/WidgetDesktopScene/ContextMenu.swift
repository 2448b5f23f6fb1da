/// The surface's own context menu on a widget (a Wayland popup would have to belong to the
/// surface's client, so the scene draws it): "Edit Widget", "Remove Widget", "Edit Home Screen",
/// "Add Widget…", one item per row, opened at a point and kept inside the surface's area.
/// Geometry only (the scene draws it, `SceneInteraction` drives it). Value type; any thread.
public struct ContextMenu: Equatable, Sendable {
    public enum Command: String, CaseIterable, Sendable {
        case editWidget = "Edit Widget"
        case removeWidget = "Remove Widget"
        case editHomeScreen = "Edit Home Screen"
        case addWidget = "Add Widget…"
    }

    /// Size of the menu and its rows, in points.
    public static let width = 156.0
    public static let rowHeight = 28.0
    public static let padding = 6.0
    public static let height = padding * 2 + rowHeight * Double(Command.allCases.count)
    public static let cornerRadius = 10.0

    /// The widget the menu is about.
    public var widgetID: String
    /// The menu's rectangle in the area's points.
    public var frame: LogicalRect
    /// The row under the pointer or chosen with the arrow keys.
    public var highlighted: Int?

    public var commands: [Command] { Command.allCases }

    /// A menu for `widgetID` with its top-left at (`x`, `y`), moved left and up as needed to
    /// lie inside an area of `areaWidth` × `areaHeight` (at its top-left when the area is smaller).
    public init(widgetID: String, x: Double, y: Double, areaWidth: Double, areaHeight: Double, highlighted: Int? = nil) {
        func place(_ v: Double, _ size: Double, _ room: Double) -> Double { max(0, min(v.isFinite ? v : 0, room - size)) }
        self.widgetID = widgetID
        frame = LogicalRect(x: place(x, Self.width, areaWidth), y: place(y, Self.height, areaHeight), width: Self.width, height: Self.height)
        self.highlighted = highlighted
    }

    /// Row `i`'s rectangle in the area's points.
    public func rowFrame(_ i: Int) -> LogicalRect {
        LogicalRect(x: frame.x, y: frame.y + Self.padding + Double(i) * Self.rowHeight, width: Self.width, height: Self.rowHeight)
    }

    /// The row at area point (`x`, `y`), nil outside the rows.
    public func row(atX x: Double, y: Double) -> Int? {
        commands.indices.first { rowFrame($0).contains(x: x, y: y) }
    }

    public func contains(x: Double, y: Double) -> Bool { frame.contains(x: x, y: y) }
}

extension LogicalRect {
    /// Whether (`x`, `y`) lies inside (top and left edges included).
    public func contains(x px: Double, y py: Double) -> Bool { px >= x && py >= y && px < x + width && py < y + height }
}
