import Testing
@testable import WidgetDesktopAccessibility
import WidgetDesktopScene

/// The surface's elements as AT-SPI objects, on exact numbers: one output at screen pixel
/// (1280, 0), scale 2, its area 16 points in from the output's left, a Habit widget with its
/// "Log Habit" button, a widget with a toggle, and (when asked) the open menu.
func screen(menu: Bool = false, focus: Bool = false, toggleOn: Bool = false, habitName: String = "Water") -> AtspiTree.Screen {
    let habit = SceneAccessible(role: .widget, id: "InteractiveHabit-systemSmall", name: habitName,
                                frame: LogicalRect(x: 0, y: 0, width: 158, height: 158), focused: focus,
                                children: [SceneAccessible(role: .button, name: "Log Habit", frame: LogicalRect(x: 0, y: 0, width: 20, height: 20))])
    let lamp = SceneAccessible(role: .widget, id: "lamp.x-systemSmall", name: "Lamp",
                               frame: LogicalRect(x: 170, y: 0, width: 158, height: 158),
                               children: [SceneAccessible(role: .toggle, name: "Light", frame: LogicalRect(x: 200, y: 50, width: 40, height: 20), isOn: toggleOn)])
    var elements = [habit, lamp]
    if menu {
        let rows = ContextMenu.Command.allCases.enumerated().map { i, c in
            SceneAccessible(role: .menuItem, name: c.rawValue, frame: LogicalRect(x: 20, y: 26 + 28 * Double(i), width: 156, height: 28), focused: i == 1)
        }
        elements.append(SceneAccessible(role: .menu, name: "Widget menu", frame: LogicalRect(x: 20, y: 20, width: 156, height: 124), children: rows))
    }
    return AtspiTree.Screen(output: 7, connector: "HDMI-1", area: LogicalRect(x: 16, y: 16, width: 328, height: 158), scale: 2,
                            originX: 1280, originY: 0, elements: elements)
}

let habitPath = "/org/a11y/atspi/accessible/widget_InteractiveHabit_2dsystemSmall"
let lampPath = "/org/a11y/atspi/accessible/widget_lamp_2ex_2dsystemSmall"
let framePath = "/org/a11y/atspi/accessible/output_7"
let menuPath = "/org/a11y/atspi/accessible/menu"

@Suite struct AtspiTreeTests {
    @Test func theApplicationHasAFramePerOutputWithItsWidgetsTheirControlsAndTheMenu() throws {
        let tree = AtspiTree(applicationName: "WidgetHost desktop", screens: [screen(menu: true, focus: true, toggleOn: true)])
        #expect(tree.root.role == .application && tree.root.name == "WidgetHost desktop" && tree.root.parent == nil)
        #expect(tree.root.children == [framePath])
        let frame = try #require(tree.nodes[framePath])
        #expect(frame.role == .frame && frame.name == "Desktop widgets" && frame.description == "Widgets on HDMI-1")
        #expect(frame.children == [habitPath, lampPath, menuPath])
        // Screen pixels: the output's origin + (area + frame) × scale; window pixels: frame × scale.
        #expect(frame.screen == AtspiTree.Box(x: 1312, y: 32, width: 656, height: 316))
        let habit = try #require(tree.nodes[habitPath])
        #expect(habit.role == .panel && habit.name == "Water" && habit.parent == framePath && habit.attributes["id"] == "InteractiveHabit-systemSmall")
        #expect(habit.states == [.enabled, .sensitive, .showing, .visible, .focusable, .focused])
        #expect(habit.screen == AtspiTree.Box(x: 1312, y: 32, width: 316, height: 316))
        #expect(habit.window == AtspiTree.Box(x: 0, y: 0, width: 316, height: 316))
        #expect(habit.actions.map(\.name) == ["activate", "menu", "Edit Widget", "Remove Widget", "Edit Home Screen", "Add Widget…"])
        // "activate" clicks off the button (its top-left corner is under it: the top-right one).
        #expect(habit.actions[0].activation == .press(button: 1, output: 7, x: 156, y: 2))
        #expect(habit.actions[1].activation == .press(button: 3, output: 7, x: 79, y: 79))
        #expect(habit.actions[2].activation == .menuCommand(.editWidget, output: 7, x: 79, y: 79))
        let log = try #require(tree.nodes[habit.children.first ?? ""])
        #expect(log.role == .pushButton && log.name == "Log Habit" && log.parent == habitPath)
        #expect(log.actions == [AtspiTree.Action(name: "click", description: "Runs \"Log Habit\"", activation: .press(button: 1, output: 7, x: 10, y: 10))])
        let light = try #require(tree.nodes[tree.nodes[lampPath]?.children.first ?? ""])
        #expect(light.role == .toggleButton && light.states.isSuperset(of: [.checkable, .checked]))
        let menu = try #require(tree.nodes[menuPath])
        #expect(menu.role == .menu && menu.actions.isEmpty)
        let rows = menu.children.compactMap { tree.nodes[$0] }
        #expect(rows.map(\.name) == ["Edit Widget", "Remove Widget", "Edit Home Screen", "Add Widget…"])
        #expect(rows.map { $0.states.contains(.selected) } == [false, true, false, false])
        #expect(rows[0].actions.first?.activation == .press(button: 1, output: 7, x: 98, y: 40))
    }

    @Test func pathsAreValidAndOneToOne() {
        #expect(AtspiTree.escape("a.b-c_d é") == "a_2eb_2dc_5fd_20_c3_a9")
        #expect(AtspiTree.escape("a_2e") != AtspiTree.escape("a.")) // the escape character is escaped too
    }

    @Test func changesBecomeChildrenNameAndStateEvents() {
        let before = AtspiTree(applicationName: "w", screens: [screen()])
        let after = AtspiTree(applicationName: "w", screens: [screen(menu: true, focus: true, toggleOn: true, habitName: "Water 1/8")])
        let events = after.events(since: before)
        #expect(events.contains(AtspiTree.Event(path: framePath, kind: .childAdded(index: 2, child: menuPath))))
        #expect(events.contains(AtspiTree.Event(path: habitPath, kind: .nameChanged("Water 1/8"))))
        #expect(events.contains(AtspiTree.Event(path: habitPath, kind: .stateChanged(.focused, true))))
        #expect(events.contains(AtspiTree.Event(path: lampPath + "_control0", kind: .stateChanged(.checked, true))))
        #expect(events.count == 4, "\(events)")
        #expect(before.events(since: after).contains(AtspiTree.Event(path: framePath, kind: .childRemoved(index: 2, child: menuPath))))
        // The output gone: the frame is removed from the application.
        let none = AtspiTree(applicationName: "w", screens: [])
        #expect(none.events(since: before) == [AtspiTree.Event(path: AtspiTree.rootPath, kind: .childRemoved(index: 0, child: framePath))])
        #expect(before.events(since: before).isEmpty)
    }

    @Test func theObjectAtAPointIsTheDeepestThere() {
        let tree = AtspiTree(applicationName: "w", screens: [screen()])
        #expect(tree.object(at: 1312 + 5, 32 + 5, under: AtspiTree.rootPath, window: false) == habitPath + "_control0")
        #expect(tree.object(at: 1312 + 100, 32 + 100, under: AtspiTree.rootPath, window: false) == habitPath)
        #expect(tree.object(at: 5, 5, under: framePath, window: true) == habitPath + "_control0")
        #expect(tree.object(at: 0, 0, under: AtspiTree.rootPath, window: false) == nil)
    }
}
