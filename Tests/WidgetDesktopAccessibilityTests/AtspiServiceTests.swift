import Testing
@testable import WidgetDesktopAccessibility
import WidgetDesktopScene

/// AT-SPI's calls answered from a tree, as libatspi makes them.
@Suite struct AtspiServiceTests {
    static let accessible = "org.a11y.atspi.Accessible", properties = "org.freedesktop.DBus.Properties"

    func service(menu: Bool = false) -> AtspiService {
        AtspiService(tree: AtspiTree(applicationName: "WidgetHost desktop", screens: [screen(menu: menu)]), busName: ":1.5",
                     desktop: (":1.1", AtspiTree.rootPath), toolkitVersion: "0.1.0")
    }

    func call(_ s: inout AtspiService, _ path: String, _ interface: String, _ member: String, _ args: DBusArgument...) -> AtspiService.Answer {
        s.answer(DBusCall(path: path, interface: interface, member: member, arguments: args))
    }

    @Test func aClientWalksFromTheApplicationToTheButton() {
        var s = service()
        let root = AtspiTree.rootPath
        #expect(call(&s, root, Self.properties, "Get", .string(Self.accessible), .string("Name")).reply == [.variant(.string("WidgetHost desktop"))])
        #expect(call(&s, root, Self.properties, "Get", .string(Self.accessible), .string("Parent")).reply == [.variant(.reference(":1.1", root))])
        #expect(call(&s, root, Self.properties, "Get", .string(Self.accessible), .string("ChildCount")).reply == [.variant(.int32(1))])
        #expect(call(&s, root, Self.accessible, "GetRole").reply == [.uint32(75)])
        #expect(call(&s, root, Self.accessible, "GetChildAtIndex", .int(0)).reply == [.reference(":1.5", framePath)])
        #expect(call(&s, root, Self.accessible, "GetChildAtIndex", .int(1)).reply == [.reference("", "/org/a11y/atspi/null")])
        #expect(call(&s, framePath, Self.accessible, "GetChildren").reply == [.array(element: "(so)", [.reference(":1.5", habitPath), .reference(":1.5", lampPath)])])
        #expect(call(&s, habitPath, Self.accessible, "GetRoleName").reply == [.string("panel")])
        #expect(call(&s, habitPath, Self.accessible, "GetIndexInParent").reply == [.int32(0)])
        #expect(call(&s, lampPath, Self.accessible, "GetIndexInParent").reply == [.int32(1)])
        #expect(call(&s, habitPath, Self.accessible, "GetAttributes").reply == [.stringMap(["id": "InteractiveHabit-systemSmall"])])
        #expect(call(&s, habitPath, Self.accessible, "GetInterfaces").reply
                == [.array(element: "s", [.string(Self.accessible), .string("org.a11y.atspi.Component"), .string("org.a11y.atspi.Action")])])
        // enabled 8, focusable 11, sensitive 24, showing 25, visible 30: one word.
        let word: UInt32 = (1 << 8) | (1 << 11) | (1 << 24) | (1 << 25) | (1 << 30)
        #expect(call(&s, habitPath, Self.accessible, "GetState").reply == [.array(element: "u", [.uint32(word), .uint32(0)])])
        let button = habitPath + "_control0"
        #expect(call(&s, button, Self.properties, "Get", .string(Self.accessible), .string("Name")).reply == [.variant(.string("Log Habit"))])
        #expect(call(&s, button, Self.accessible, "GetRole").reply == [.uint32(43)])
        #expect(call(&s, button, "org.a11y.atspi.Component", "GetExtents", .int(0)).reply == [.structure([.int32(1312), .int32(32), .int32(40), .int32(40)])])
        #expect(call(&s, button, "org.a11y.atspi.Component", "GetExtents", .int(1)).reply == [.structure([.int32(0), .int32(0), .int32(40), .int32(40)])])
        #expect(call(&s, lampPath, "org.a11y.atspi.Component", "GetExtents", .int(2)).reply == [.structure([.int32(340), .int32(0), .int32(316), .int32(316)])])
        #expect(call(&s, framePath, "org.a11y.atspi.Component", "GetAccessibleAtPoint", .int(1315), .int(35), .int(0)).reply == [.reference(":1.5", button)])
        #expect(call(&s, button, "org.a11y.atspi.Component", "Contains", .int(1351), .int(71), .int(0)).reply == [.bool(true)])
        #expect(call(&s, button, "org.a11y.atspi.Component", "Contains", .int(1352), .int(71), .int(0)).reply == [.bool(false)])
    }

    @Test func actionsAreListedAndDoActionHandsBackWhatToPerform() {
        var s = service(menu: true)
        let button = habitPath + "_control0"
        #expect(call(&s, button, Self.properties, "Get", .string("org.a11y.atspi.Action"), .string("NActions")).reply == [.variant(.int32(1))])
        #expect(call(&s, button, "org.a11y.atspi.Action", "GetName", .int(0)).reply == [.string("click")])
        let done = call(&s, button, "org.a11y.atspi.Action", "DoAction", .int(0))
        #expect(done.reply == [.bool(true)] && done.activation == .press(button: 1, output: 7, x: 10, y: 10))
        let none = call(&s, button, "org.a11y.atspi.Action", "DoAction", .int(1))
        #expect(none.reply == [.bool(false)] && none.activation == nil)
        let edit = call(&s, menuPath + "_item0", "org.a11y.atspi.Action", "DoAction", .int(0))
        #expect(edit.activation == .press(button: 1, output: 7, x: 98, y: 40))
        let listed: [DBusValue] = [.structure([.string("activate"), .string("Opens the widget's app or link"), .string("")]),
                                   .structure([.string("menu"), .string("Opens the widget's menu"), .string("")])]
        let actions = call(&s, habitPath, "org.a11y.atspi.Action", "GetActions").reply?.first
        guard case .array("(sss)", let items)? = actions else { Issue.record("\(String(describing: actions))"); return }
        #expect(Array(items.prefix(2)) == listed && items.count == 6)
        #expect(items.last == .structure([.string("Add Widget…"), .string("The widget menu's \"Add Widget…\""), .string("")]))
        // A menu and a frame have no actions: no Action interface.
        #expect(call(&s, menuPath, "org.a11y.atspi.Action", "DoAction", .int(0)).error?.name == "org.freedesktop.DBus.Error.UnknownMethod")
    }

    @Test func theApplicationTheCacheAndWhatIsNotThere() {
        var s = service()
        let root = AtspiTree.rootPath
        #expect(call(&s, root, Self.properties, "Set", .string("org.a11y.atspi.Application"), .string("Id"), .int(12)).reply == [])
        #expect(s.applicationID == 12)
        #expect(call(&s, root, Self.properties, "Get", .string("org.a11y.atspi.Application"), .string("Id")).reply == [.variant(.int32(12))])
        #expect(call(&s, root, "org.a11y.atspi.Application", "GetApplicationBusAddress").reply == [.string("")])
        #expect(call(&s, AtspiService.cachePath, "org.a11y.atspi.Cache", "GetItems").reply == [.array(element: "((so)(so)(so)iiassusau)", [])])
        #expect(call(&s, "/org/a11y/atspi/accessible/widget_gone", Self.accessible, "GetRole").error?.name == "org.freedesktop.DBus.Error.UnknownObject")
        #expect(call(&s, habitPath, Self.accessible, "Frobnicate").error?.name == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(call(&s, habitPath, Self.properties, "Get", .string(Self.accessible)).error?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(call(&s, habitPath, Self.accessible, "GetChildAtIndex", .string("x")).error?.name == "org.freedesktop.DBus.Error.InvalidArgs")
        let all = call(&s, root, Self.properties, "GetAll", .string("org.a11y.atspi.Application")).reply
        #expect(all == [.array(element: "{sv}", [.dictEntry(.string("ToolkitName"), .variant(.string("WidgetHost"))), .dictEntry(.string("Version"), .variant(.string("0.1.0"))),
                                                  .dictEntry(.string("AtspiVersion"), .variant(.string("2.1"))), .dictEntry(.string("Id"), .variant(.int32(12)))])])
    }

    @Test func signaturesAreAtspis() {
        #expect(DBusValue.reference(":1.5", "/a").signature == "(so)")
        #expect(DBusValue.array(element: "((so)(so)(so)iiassusau)", []).signature == "a((so)(so)(so)iiassusau)")
        #expect(DBusValue.stringMap(["a": "b"]).signature == "a{ss}")
        #expect(DBusValue.variant(.int32(1)).signature == "v")
    }
}
