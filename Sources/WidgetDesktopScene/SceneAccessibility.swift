import OpenWidgetKit
import WidgetHostCore
import WidgetLayout

/// What the surface tells a screen reader or an automated test (AT-SPI): each widget by name with
/// its controls ("Log Habit"), and the open menu with its rows ("Edit Widget"), each with its
/// rectangle in the area's points. Activating an element is a click at its centre through
/// `DesktopScene.handle`, so keyboard, pointer and assistive technology take one path.
/// Value type.
public struct SceneAccessible: Equatable, Sendable {
    public enum Role: String, Equatable, Sendable { case widget, button, toggle, menu, menuItem }

    public var role: Role
    /// A widget's id in the configuration (nil for the other elements): what names it for good,
    /// while its `name` follows what it shows.
    public var id: String?
    public var name: String
    public var frame: LogicalRect
    /// A toggle's state.
    public var isOn: Bool?
    /// Whether it has the keyboard focus (a widget) or is lit (a menu row).
    public var focused: Bool
    public var children: [SceneAccessible]

    public init(role: Role, id: String? = nil, name: String, frame: LogicalRect, isOn: Bool? = nil, focused: Bool = false, children: [SceneAccessible] = []) {
        self.role = role; self.id = id; self.name = name; self.frame = frame; self.isOn = isOn; self.focused = focused; self.children = children
    }

    /// A widget's name: its root's accessibility label, else the first text it shows, else its kind.
    static func name(of root: ViewNode?, kind: String) -> String {
        if let label = root?.modifiers?.accessibilityLabel, !label.isEmpty { return label }
        var first: String?
        root?.walk { n in if first == nil, let t = n.text, !t.isEmpty { first = t } }
        return first ?? kind
    }

    /// Edit mode's remove badge on a widget at `frame` (area points), as a button: activated, a
    /// click on it removes the widget.
    static func removeBadge(of frame: LogicalRect) -> SceneAccessible {
        SceneAccessible(role: .button, name: ContextMenu.Command.removeWidget.rawValue, frame: SceneInteraction.badgeFrame(of: frame))
    }

    /// The controls of a laid-out widget at `origin` (area points), named as the host names them
    /// (`InteractionTargets`: the intent's title, else the label's text).
    static func controls(of root: ViewNode, placed: PlacedNode, origin: LogicalRect) -> [SceneAccessible] {
        let titles = Dictionary(InteractionTargets.controls(in: root).map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a })
        var out: [SceneAccessible] = []
        placed.walk { p in
            guard p.node.kind == .button || p.node.kind == .toggle, let action = p.node.action else { return }
            let f = p.frame
            out.append(SceneAccessible(role: p.node.kind == .toggle ? .toggle : .button,
                                       name: (titles[action.id] ?? nil) ?? action.intent,
                                       frame: LogicalRect(x: origin.x + f.x, y: origin.y + f.y, width: f.width, height: f.height),
                                       isOn: p.node.kind == .toggle ? p.node.isOn == true : nil))
        }
        return out
    }
}

extension DesktopScene {
    /// The accessible elements of `output`'s surface: its widgets in grid order (in edit mode each
    /// with its remove badge first, a "Remove Widget" button), then the menu when one is open.
    public func accessibleElements(on output: DisplayOutput.ID) -> [SceneAccessible] {
        guard let p = placement(on: output) else { return [] }
        var out: [SceneAccessible] = p.widgets.map { w in
            let tree = placedTree(of: w.id)
            let root = tree?.placed.node
            return SceneAccessible(role: .widget, id: w.id, name: SceneAccessible.name(of: root, kind: widget(w.id)?.kind ?? w.id), frame: w.frame,
                                   focused: interaction.focus == w.id,
                                   children: (interaction.editing ? [SceneAccessible.removeBadge(of: w.frame)] : [])
                                    + (tree.map { SceneAccessible.controls(of: $0.placed.node, placed: $0.placed, origin: w.frame) } ?? []))
        }
        if let m = interaction.menu {
            let rows = m.commands.enumerated().map { i, c in
                SceneAccessible(role: .menuItem, name: c.rawValue, frame: m.rowFrame(i), focused: m.highlighted == i)
            }
            out.append(SceneAccessible(role: .menu, name: "Widget menu", frame: m.frame, children: rows))
        }
        return out
    }
}
