import WidgetDesktopScene

/// The surface's accessible tree as AT-SPI objects: the application (the root), one frame per
/// output that shows widgets ("Desktop widgets"), its widgets (panels named as
/// `SceneAccessible` names them) with their buttons and toggles, and the context menu with its
/// items while it is open. Each object has a stable D-Bus path (a widget's from its id), an
/// AT-SPI role and states, extents in screen and window pixels, and actions that say which
/// input reaches the scene when a client performs them. `events(since:)` is what changed, as
/// AT-SPI's `children-changed`, `property-change:accessible-name` and `state-changed` signals.
///
/// Pure value; any thread.
public struct AtspiTree: Equatable, Sendable {
    public static let rootPath = "/org/a11y/atspi/accessible/root"

    /// AT-SPI's role numbers (`AtspiRole`) for the roles used here, with their names.
    public enum Role: UInt32, Sendable {
        case frame = 23, menu = 33, menuItem = 35, panel = 39, pushButton = 43, toggleButton = 62, application = 75

        public var name: String {
            switch self {
            case .frame: "frame"
            case .menu: "menu"
            case .menuItem: "menu item"
            case .panel: "panel"
            case .pushButton: "push button"
            case .toggleButton: "toggle button"
            case .application: "application"
            }
        }
    }

    /// AT-SPI's state numbers (`AtspiStateType`) used here.
    public enum State: Int, Sendable, CaseIterable {
        case active = 1, checked = 4, enabled = 8, focusable = 11, focused = 12, selectable = 22, selected = 23,
             sensitive = 24, showing = 25, visible = 30, checkable = 41

        /// The name in a `state-changed` signal's detail.
        public var name: String {
            switch self {
            case .active: "active"
            case .checked: "checked"
            case .enabled: "enabled"
            case .focusable: "focusable"
            case .focused: "focused"
            case .selectable: "selectable"
            case .selected: "selected"
            case .sensitive: "sensitive"
            case .showing: "showing"
            case .visible: "visible"
            case .checkable: "checkable"
            }
        }
    }

    /// A rectangle in pixels. Value type.
    public struct Box: Equatable, Sendable {
        public var x: Int32, y: Int32, width: Int32, height: Int32
        public init(x: Int32, y: Int32, width: Int32, height: Int32) { self.x = x; self.y = y; self.width = width; self.height = height }
        public func contains(x px: Int32, y py: Int32) -> Bool { px >= x && py >= y && px < x &+ width && py < y &+ height }
    }

    /// What performing an action does to the scene: input at a point of an output's area.
    public enum Activation: Equatable, Sendable {
        /// A press and release of `button` at (`x`, `y`) (area points).
        case press(button: Int, output: DisplayOutput.ID, x: Double, y: Double)
        /// The context menu opened at (`x`, `y`) (a button-3 press) and its row `command` clicked.
        case menuCommand(ContextMenu.Command, output: DisplayOutput.ID, x: Double, y: Double)
    }

    public struct Action: Equatable, Sendable {
        public var name: String
        public var description: String
        public var activation: Activation
    }

    public struct Node: Equatable, Sendable {
        public var path: String
        public var role: Role
        public var name: String
        public var description = ""
        /// Nil for the root, whose parent is the registry's desktop.
        public var parent: String?
        public var children: [String] = []
        public var states: Set<State> = []
        /// Extents on the screen, and in the surface window of its output.
        public var screen: Box
        public var window: Box
        public var actions: [Action] = []
        /// `GetAttributes`.
        public var attributes: [String: String] = [:]
    }

    /// One output's surface: where its area is and what it shows.
    public struct Screen: Equatable, Sendable {
        public var output: DisplayOutput.ID
        public var connector: String
        /// The area in the output's logical points, and the output's pixels per point.
        public var area: LogicalRect
        public var scale: Double
        /// The output's top-left corner on the screen, in pixels ((0, 0) where the display has
        /// no global coordinates: Wayland).
        public var originX: Double, originY: Double
        public var elements: [SceneAccessible]

        public init(output: DisplayOutput.ID, connector: String, area: LogicalRect, scale: Double, originX: Double = 0, originY: Double = 0,
                    elements: [SceneAccessible]) {
            self.output = output; self.connector = connector; self.area = area; self.scale = scale
            self.originX = originX; self.originY = originY; self.elements = elements
        }
    }

    public private(set) var nodes: [String: Node]
    public var root: Node { nodes[Self.rootPath]! }

    public init(applicationName: String, screens: [Screen]) {
        var nodes: [String: Node] = [:]
        let zero = Box(x: 0, y: 0, width: 0, height: 0)
        var root = Node(path: Self.rootPath, role: .application, name: applicationName, screen: zero, window: zero)
        root.attributes = ["toolkit": "WidgetHost"]
        for s in screens {
            let framePath = "/org/a11y/atspi/accessible/output_\(s.output)"
            let whole = LogicalRect(x: 0, y: 0, width: s.area.width, height: s.area.height)
            var frame = Node(path: framePath, role: .frame, name: "Desktop widgets", parent: Self.rootPath,
                             states: [.enabled, .sensitive, .showing, .visible],
                             screen: Self.box(whole, s), window: Self.box(whole, s, onScreen: false))
            frame.description = "Widgets on \(s.connector)"
            frame.attributes = ["output": s.connector]
            for e in s.elements {
                let path = Self.path(of: e, in: framePath)
                frame.children.append(path)
                Self.add(e, path: path, parent: framePath, widget: e, screen: s, into: &nodes)
            }
            root.children.append(framePath)
            nodes[framePath] = frame
        }
        nodes[Self.rootPath] = root
        self.nodes = nodes
    }

    /// A widget's path from its id; the menu's is fixed (one menu at a time).
    static func path(of e: SceneAccessible, in frame: String) -> String {
        switch e.role {
        case .widget: "/org/a11y/atspi/accessible/widget_" + escape(e.id ?? e.name)
        case .menu: "/org/a11y/atspi/accessible/menu"
        default: frame + "_" + escape(e.name)
        }
    }

    /// Letters and digits as they are, any other byte as `_` and two hex digits: a valid,
    /// one-to-one object path element.
    static func escape(_ s: String) -> String {
        var out = ""
        for b in s.utf8 {
            if (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) {
                out.unicodeScalars.append(Unicode.Scalar(b))
            } else {
                let hex = Array("0123456789abcdef")
                out += "_" + String(hex[Int(b >> 4)]) + String(hex[Int(b & 15)])
            }
        }
        return out
    }

    private static func add(_ e: SceneAccessible, path: String, parent: String, widget: SceneAccessible, screen s: Screen, into nodes: inout [String: Node]) {
        var node = Node(path: path, role: .panel, name: e.name, parent: parent, states: [.enabled, .sensitive, .showing, .visible],
                        screen: box(e.frame, s), window: box(e.frame, s, onScreen: false))
        let centre = (x: e.frame.x + e.frame.width / 2, y: e.frame.y + e.frame.height / 2)
        let click = Activation.press(button: 1, output: s.output, x: centre.x, y: centre.y)
        switch e.role {
        case .widget:
            node.states.formUnion([.focusable])
            if e.focused { node.states.insert(.focused) }
            if let id = e.id { node.attributes["id"] = id }
            // Off every control: a click there opens the widget's URL.
            let spot = bareSpot(of: e)
            node.actions = [Action(name: "activate", description: "Opens the widget's app or link",
                                   activation: .press(button: 1, output: s.output, x: spot.x, y: spot.y)),
                            Action(name: "menu", description: "Opens the widget's menu",
                                   activation: .press(button: 3, output: s.output, x: centre.x, y: centre.y))]
                + ContextMenu.Command.allCases.map {
                    Action(name: $0.rawValue, description: "The widget menu's \"\($0.rawValue)\"",
                           activation: .menuCommand($0, output: s.output, x: centre.x, y: centre.y))
                }
        case .button:
            node.role = .pushButton
            node.actions = [Action(name: "click", description: "Runs \"\(e.name)\"", activation: click)]
        case .toggle:
            node.role = .toggleButton
            node.states.formUnion([.checkable])
            if e.isOn == true { node.states.insert(.checked) }
            node.actions = [Action(name: "click", description: "Switches \"\(e.name)\"", activation: click)]
        case .menu:
            node.role = .menu
        case .menuItem:
            node.role = .menuItem
            node.states.formUnion([.selectable])
            if e.focused { node.states.insert(.selected) }
            node.actions = [Action(name: "click", description: "Chooses \"\(e.name)\"", activation: click)]
        }
        for (i, c) in e.children.enumerated() {
            let childPath = path + (e.role == .menu ? "_item\(i)" : "_control\(i)")
            node.children.append(childPath)
            add(c, path: childPath, parent: path, widget: widget, screen: s, into: &nodes)
        }
        nodes[path] = node
    }

    /// A point of the widget 2 points in from a corner that no control covers (its centre when
    /// each corner is under one).
    static func bareSpot(of e: SceneAccessible) -> (x: Double, y: Double) {
        let f = e.frame, inset = 2.0
        let candidates = [(f.x + inset, f.y + inset), (f.x + f.width - inset, f.y + inset),
                          (f.x + inset, f.y + f.height - inset), (f.x + f.width - inset, f.y + f.height - inset)]
        return candidates.first { p in !e.children.contains { $0.frame.contains(x: p.0, y: p.1) } }
            .map { (x: $0.0, y: $0.1) } ?? (x: f.x + f.width / 2, y: f.y + f.height / 2)
    }

    /// `r` (area points) in pixels: on the screen, or in the output's surface window.
    static func box(_ r: LogicalRect, _ s: Screen, onScreen: Bool = true) -> Box {
        func px(_ v: Double) -> Int32 { v.isFinite ? Int32(max(-1e9, min(1e9, v.rounded()))) : 0 }
        let x0 = onScreen ? s.originX + (s.area.x + r.x) * s.scale : r.x * s.scale
        let y0 = onScreen ? s.originY + (s.area.y + r.y) * s.scale : r.y * s.scale
        return Box(x: px(x0), y: px(y0), width: px(r.width * s.scale), height: px(r.height * s.scale))
    }

    // MARK: - Changes

    /// A signal to send: `member` of `org.a11y.atspi.Event.Object` on `path`.
    public struct Event: Equatable, Sendable {
        public enum Kind: Equatable, Sendable {
            /// A child added at or removed from `index`.
            case childAdded(index: Int, child: String)
            case childRemoved(index: Int, child: String)
            case nameChanged(String)
            case stateChanged(State, Bool)
        }
        public var path: String
        public var kind: Kind
    }

    /// What changed from `old` to this tree: children added and removed (for objects that were
    /// there before), names, and the focused, checked and selected states.
    public func events(since old: AtspiTree) -> [Event] {
        var out: [Event] = []
        for path in nodes.keys.sorted() {
            guard let new = nodes[path], let before = old.nodes[path] else { continue }
            if new.children != before.children {
                for (i, c) in before.children.enumerated().reversed() where !new.children.contains(c) {
                    out.append(Event(path: path, kind: .childRemoved(index: i, child: c)))
                }
                for (i, c) in new.children.enumerated() where !before.children.contains(c) {
                    out.append(Event(path: path, kind: .childAdded(index: i, child: c)))
                }
            }
            if new.name != before.name { out.append(Event(path: path, kind: .nameChanged(new.name))) }
            for state in [State.focused, .checked, .selected] where new.states.contains(state) != before.states.contains(state) {
                out.append(Event(path: path, kind: .stateChanged(state, new.states.contains(state))))
            }
        }
        return out
    }

    /// The deepest object under screen or window pixel (`x`, `y`) among `path`'s descendants.
    public func object(at x: Int32, _ y: Int32, under path: String, window: Bool) -> String? {
        guard let node = nodes[path] else { return nil }
        for c in node.children.reversed() {
            guard let child = nodes[c], (window ? child.window : child.screen).contains(x: x, y: y) else { continue }
            return object(at: x, y, under: c, window: window) ?? c
        }
        return nil
    }
}
