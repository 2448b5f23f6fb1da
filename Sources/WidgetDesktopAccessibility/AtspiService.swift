/// The AT-SPI interfaces the surface implements, answered from an `AtspiTree`:
/// `org.a11y.atspi.Accessible` (Name, Description, Parent, ChildCount, Locale, AccessibleId,
/// GetChildAtIndex, GetChildren, GetIndexInParent, GetRole, GetRoleName, GetLocalizedRoleName,
/// GetState, GetAttributes, GetApplication, GetInterfaces, GetRelationSet),
/// `org.a11y.atspi.Component` (GetExtents, Contains, GetAccessibleAtPoint, GetPosition, GetSize,
/// GetLayer, GetMDIZOrder, GrabFocus, GetAlpha), `org.a11y.atspi.Action` (NActions, GetActions,
/// GetName, GetLocalizedName, GetDescription, GetKeyBinding, DoAction), the root's
/// `org.a11y.atspi.Application` (ToolkitName, Version, AtspiVersion, Id,
/// GetApplicationBusAddress) and an empty `org.a11y.atspi.Cache` (clients then ask per object),
/// through `org.freedesktop.DBus.Properties` for the properties. `DoAction` answers at once and
/// hands back the `Activation` for the surface to perform after the reply is sent.
///
/// Value type; the surface's thread.
public struct AtspiService: Sendable {
    /// What a call gets: a reply's values or an error, and maybe an action to perform.
    public struct Answer: Equatable, Sendable {
        public var reply: [DBusValue]?
        public var error: (name: String, message: String)?
        public var activation: AtspiTree.Activation?

        static func values(_ v: DBusValue...) -> Answer { Answer(reply: v) }
        static func failure(_ name: String, _ message: String) -> Answer { Answer(error: (name, message)) }

        public static func == (a: Answer, b: Answer) -> Bool {
            a.reply == b.reply && a.error?.name == b.error?.name && a.error?.message == b.error?.message && a.activation == b.activation
        }
    }

    public static let cachePath = "/org/a11y/atspi/cache"
    static let accessible = "org.a11y.atspi.Accessible", component = "org.a11y.atspi.Component", action = "org.a11y.atspi.Action",
               application = "org.a11y.atspi.Application", cache = "org.a11y.atspi.Cache", properties = "org.freedesktop.DBus.Properties"
    static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod", unknownObject = "org.freedesktop.DBus.Error.UnknownObject",
               invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"

    public var tree: AtspiTree
    /// This connection's unique name on the accessibility bus.
    public var busName: String
    /// The root's parent: the registry's desktop, as `Embed` returned it.
    public var desktop: (bus: String, path: String)
    /// The id the registry gave the application (`Properties.Set Application Id`).
    public private(set) var applicationID: Int32 = 0
    public var toolkitVersion: String

    public init(tree: AtspiTree, busName: String, desktop: (bus: String, path: String), toolkitVersion: String) {
        self.tree = tree; self.busName = busName; self.desktop = desktop; self.toolkitVersion = toolkitVersion
    }

    func ref(_ path: String) -> DBusValue { .reference(busName, path) }
    /// AT-SPI's null reference: an empty path on the bus of no one.
    var null: DBusValue { .reference("", "/org/a11y/atspi/null") }

    public mutating func answer(_ call: DBusCall) -> Answer {
        if call.path == Self.cachePath {
            guard call.interface == Self.cache || call.interface.isEmpty, call.member == "GetItems" else { return unknown(call) }
            return .values(.array(element: "((so)(so)(so)iiassusau)", []))
        }
        guard let node = tree.nodes[call.path] else { return .failure(Self.unknownObject, "no object at \(call.path)") }
        switch call.interface {
        case Self.properties: return properties(call, node)
        case Self.accessible: return accessible(call, node)
        // Only the interfaces `GetInterfaces` lists.
        case Self.component where node.path != AtspiTree.rootPath: return component(call, node)
        case Self.action where !node.actions.isEmpty: return action(call, node)
        case Self.application:
            guard node.path == AtspiTree.rootPath else { return unknown(call) }
            switch call.member {
            case "GetApplicationBusAddress": return .values(.string(""))
            case "GetLocale": return .values(.string("C"))
            default: return unknown(call)
            }
        default: return unknown(call)
        }
    }

    private func unknown(_ call: DBusCall) -> Answer {
        .failure(Self.unknownMethod, "\(call.interface).\(call.member) is not implemented at \(call.path)")
    }

    /// The interfaces `node` implements.
    func interfaces(_ node: AtspiTree.Node) -> [String] {
        var out = [Self.accessible]
        if node.path == AtspiTree.rootPath { out.append(Self.application) } else { out.append(Self.component) }
        if !node.actions.isEmpty { out.append(Self.action) }
        return out
    }

    // MARK: Properties

    private mutating func properties(_ call: DBusCall, _ node: AtspiTree.Node) -> Answer {
        let interface = call.arguments.first?.stringValue ?? ""
        switch call.member {
        case "Get":
            guard call.arguments.count >= 2, let name = call.arguments[1].stringValue else { return .failure(Self.invalidArgs, "Get takes (ss)") }
            guard let value = property(interface, name, node) else { return .failure(Self.invalidArgs, "no property \(interface).\(name)") }
            return .values(.variant(value))
        case "GetAll":
            let names: [String] = switch interface {
            case Self.accessible: ["Name", "Description", "Parent", "ChildCount", "Locale", "AccessibleId"]
            case Self.application where node.path == AtspiTree.rootPath: ["ToolkitName", "Version", "AtspiVersion", "Id"]
            case Self.action where !node.actions.isEmpty: ["NActions"]
            default: []
            }
            return .values(.array(element: "{sv}", names.compactMap { n in property(interface, n, node).map { .dictEntry(.string(n), .variant($0)) } }))
        case "Set":
            if interface == Self.application, call.arguments.count >= 3, call.arguments[1].stringValue == "Id", let id = call.arguments[2].intValue {
                applicationID = Int32(truncatingIfNeeded: id)
                return .values()
            }
            return .failure("org.freedesktop.DBus.Error.PropertyReadOnly", "read-only")
        default: return unknown(call)
        }
    }

    private func property(_ interface: String, _ name: String, _ node: AtspiTree.Node) -> DBusValue? {
        switch (interface, name) {
        case (Self.accessible, "Name"): return .string(node.name)
        case (Self.accessible, "Description"): return .string(node.description)
        case (Self.accessible, "Parent"): return node.parent.map(ref) ?? .reference(desktop.bus, desktop.path)
        case (Self.accessible, "ChildCount"): return .int32(Int32(node.children.count))
        case (Self.accessible, "Locale"): return .string("C")
        case (Self.accessible, "AccessibleId"): return .string(node.attributes["id"] ?? "")
        case (Self.application, "ToolkitName") where node.path == AtspiTree.rootPath: return .string("WidgetHost")
        case (Self.application, "Version") where node.path == AtspiTree.rootPath: return .string(toolkitVersion)
        case (Self.application, "AtspiVersion") where node.path == AtspiTree.rootPath: return .string("2.1")
        case (Self.application, "Id") where node.path == AtspiTree.rootPath: return .int32(applicationID)
        case (Self.action, "NActions") where !node.actions.isEmpty: return .int32(Int32(node.actions.count))
        default: return nil
        }
    }

    // MARK: Accessible

    private func accessible(_ call: DBusCall, _ node: AtspiTree.Node) -> Answer {
        switch call.member {
        case "GetChildAtIndex":
            guard let i = call.arguments.first?.intValue else { return .failure(Self.invalidArgs, "GetChildAtIndex takes (i)") }
            return .values(i >= 0 && i < node.children.count ? ref(node.children[Int(i)]) : null)
        case "GetChildren": return .values(.array(element: "(so)", node.children.map(ref)))
        case "GetIndexInParent":
            let siblings = node.parent.flatMap { tree.nodes[$0]?.children } ?? []
            return .values(.int32(Int32(siblings.firstIndex(of: node.path) ?? -1)))
        case "GetRole": return .values(.uint32(node.role.rawValue))
        case "GetRoleName", "GetLocalizedRoleName": return .values(.string(node.role.name))
        case "GetState":
            var words: [UInt32] = [0, 0]
            for s in node.states { words[s.rawValue / 32] |= 1 << UInt32(s.rawValue % 32) }
            return .values(.array(element: "u", words.map { .uint32($0) }))
        case "GetAttributes": return .values(.stringMap(node.attributes))
        case "GetApplication": return .values(ref(AtspiTree.rootPath))
        case "GetInterfaces": return .values(.array(element: "s", interfaces(node).map { .string($0) }))
        case "GetRelationSet": return .values(.array(element: "(ua(so))", []))
        default: return unknown(call)
        }
    }

    // MARK: Component

    private func component(_ call: DBusCall, _ node: AtspiTree.Node) -> Answer {
        let args = call.arguments.compactMap(\.intValue)
        func boxIn(_ coordType: Int64) -> AtspiTree.Box {
            switch coordType {
            case 1: return node.window
            case 2:  // relative to the parent
                let p = node.parent.flatMap { tree.nodes[$0]?.screen } ?? AtspiTree.Box(x: 0, y: 0, width: 0, height: 0)
                return AtspiTree.Box(x: node.screen.x &- p.x, y: node.screen.y &- p.y, width: node.screen.width, height: node.screen.height)
            default: return node.screen
            }
        }
        switch call.member {
        case "GetExtents":
            let b = boxIn(args.first ?? 0)
            return .values(.structure([.int32(b.x), .int32(b.y), .int32(b.width), .int32(b.height)]))
        case "GetPosition":
            let b = boxIn(args.first ?? 0)
            return .values(.int32(b.x), .int32(b.y))
        case "GetSize": return .values(.int32(node.screen.width), .int32(node.screen.height))
        case "Contains", "GetAccessibleAtPoint":
            guard args.count >= 3 else { return .failure(Self.invalidArgs, "\(call.member) takes (iiu)") }
            let type = args[2]
            let x = Int32(truncatingIfNeeded: args[0]), y = Int32(truncatingIfNeeded: args[1])
            if call.member == "Contains" { return .values(.bool(boxIn(type).contains(x: x, y: y))) }
            // Window coordinates are the object's own output window's.
            return .values(tree.object(at: x, y, under: node.path, window: type == 1).map(ref) ?? null)
        case "GetLayer": return .values(.uint32(node.role == .frame ? 7 : node.role == .menu ? 5 : 3))  // window, popup, widget
        case "GetMDIZOrder": return .values(.int16(0))
        case "GrabFocus": return .values(.bool(false))
        case "GetAlpha": return .values(.double(1))
        default: return unknown(call)
        }
    }

    // MARK: Action

    private func action(_ call: DBusCall, _ node: AtspiTree.Node) -> Answer {
        let index = call.arguments.first?.intValue
        func at(_ i: Int64?) -> AtspiTree.Action? { i.flatMap { $0 >= 0 && $0 < node.actions.count ? node.actions[Int($0)] : nil } }
        switch call.member {
        case "GetActions":
            return .values(.array(element: "(sss)", node.actions.map { .structure([.string($0.name), .string($0.description), .string("")]) }))
        case "GetName", "GetLocalizedName", "GetDescription", "GetKeyBinding":
            guard let a = at(index) else { return .failure(Self.invalidArgs, "no action \(index.map(String.init) ?? "?") at \(node.path)") }
            return .values(.string(call.member == "GetDescription" ? a.description : call.member == "GetKeyBinding" ? "" : a.name))
        case "DoAction":
            guard let a = at(index) else { return .values(.bool(false)) }
            return Answer(reply: [.bool(true)], activation: a.activation)
        default: return unknown(call)
        }
    }
}
