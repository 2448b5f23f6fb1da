import CDBus
import WidgetDesktopScene
import WidgetDesktopSurface
#if canImport(Glibc)
import Glibc
#endif

/// The lean surface on the AT-SPI accessibility bus, without a toolkit: it asks the session
/// bus's `org.a11y.Bus` for the bus's address (without starting it: no bus, no bridge — one log
/// line), connects with libdbus, embeds its application root in the registry
/// (`org.a11y.atspi.Socket.Embed`) and from then on answers AT-SPI's calls (`AtspiService`)
/// about the scene's accessible elements (`DesktopScene.accessibleElements`, `AtspiTree`),
/// sends `children-changed`, `property-change:accessible-name` and `state-changed` when they
/// change — only while some client listens for events (the registry's `GetRegisteredEvents`,
/// `EventListenerRegistered` / `Deregistered`: a session bus where nobody listens gets no
/// message per widget update) — and performs a client's `DoAction` as pointer input to the scene after its reply is
/// sent: a button's click, the widget's menu, a menu row. Served from the surface's loop as a
/// `SurfaceLoopSource`; a bus that goes away is one log line, and the surface goes on.
///
/// Threading: the surface's one thread. Not `Sendable`.
public final class SurfaceAccessibility: SurfaceLoopSource {
    private var link: DBusLink?
    private var service: AtspiService
    private let applicationName: String
    private let log: (String) -> Void
    private weak var scene: DesktopScene?
    /// Event listeners the registry reports, per listener's bus name.
    private var listeners: [String: Int] = [:]
    static let registry = (name: "org.a11y.atspi.Registry", path: "/org/a11y/atspi/registry", interface: "org.a11y.atspi.Registry")
    /// Gives the scene pointer input (`DesktopSurfaceLoop.inject`).
    public var inject: (PointerEvent) -> Void = { _ in }
    /// Gives the scene a key (`DesktopSurfaceLoop.displayKey`).
    public var injectKey: (KeyEvent) -> Void = { _ in }
    /// An output's top-left corner on the screen in pixels, where the display has one (X11).
    public var screenOrigin: (DisplayOutput.ID) -> (x: Double, y: Double)? = { _ in nil }

    /// Connects when the session has an accessibility bus; nil (after one log line saying why)
    /// when it has none or the registry does not answer.
    public static func connect(environment: [String: String], applicationName: String, version: String,
                               log: @escaping (String) -> Void) -> SurfaceAccessibility? {
        do {
            let address = try busAddress(environment)
            let link = try DBusLink(address: address)
            let desktop = try link.call("org.a11y.atspi.Registry", AtspiTree.rootPath, "org.a11y.atspi.Socket", "Embed",
                                        [.reference(link.uniqueName, AtspiTree.rootPath)], timeout: 5000)
            // The reply is `(so)`: its two fields, one after the other.
            let bus = desktop.first?.stringValue ?? "org.a11y.atspi.Registry"
            let path = desktop.dropFirst().first?.stringValue ?? AtspiTree.rootPath
            let a = SurfaceAccessibility(link: link, applicationName: applicationName, version: version, desktop: (bus, path), log: log)
            // Who listens for events now, and from now on; a registry that cannot say: anyone may.
            do {
                try link.addMatch("type='signal',interface='\(registry.interface)',path='\(registry.path)'")
                let registered = try link.call(registry.name, registry.path, registry.interface, "GetRegisteredEvents", timeout: 5000)
                for pair in stride(from: 0, to: registered.count - 1, by: 2) {
                    if let bus = registered[pair].stringValue { a.listeners[bus, default: 0] += 1 }
                }
            } catch {
                a.listeners["(unknown)"] = 1
                log("accessibility: the registry does not say who listens (\(error)); every change is signalled")
            }
            log("accessibility: the surface is on the AT-SPI bus as \(link.uniqueName)")
            return a
        } catch {
            log("accessibility: not exposed to screen readers (\(error))")
            return nil
        }
    }

    private init(link: DBusLink, applicationName: String, version: String, desktop: (String, String), log: @escaping (String) -> Void) {
        self.link = link
        self.applicationName = applicationName
        self.log = log
        service = AtspiService(tree: AtspiTree(applicationName: applicationName, screens: []), busName: link.uniqueName,
                               desktop: desktop, toolkitVersion: version)
    }

    /// Why there is no bus to join. Value type.
    struct NoBus: Error, CustomStringConvertible {
        var description: String
    }

    /// `AT_SPI_BUS_ADDRESS`, else what the session bus's `org.a11y.Bus` says (never started for it).
    static func busAddress(_ environment: [String: String]) throws -> String {
        if let a = environment["AT_SPI_BUS_ADDRESS"], !a.isEmpty { return a }
        guard let session = sessionBusAddress(environment) else { throw NoBus(description: "no session bus: DBUS_SESSION_BUS_ADDRESS is not set") }
        let link = try DBusLink(address: session)
        let reply: [DBusArgument]
        do {
            reply = try link.call("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", timeout: 2000, startService: false)
        } catch let failure as DBusLink.Failure where failure.name.hasSuffix(".ServiceUnknown") || failure.name.hasSuffix(".NameHasNoOwner") {
            throw NoBus(description: "no accessibility bus: org.a11y.Bus is not running on the session bus")
        }
        guard let address = reply.first?.stringValue, !address.isEmpty else { throw NoBus(description: "org.a11y.Bus gave no address") }
        return address
    }

    // MARK: - SurfaceLoopSource

    public var pollDescriptor: Int32 { link?.descriptor ?? -1 }

    public func dispatch() {
        guard let link else { return }
        var activations: [AtspiTree.Activation] = []
        let alive = link.receive { activations += answer($0) }
        link.flush()
        for a in activations { perform(a) }
        if !alive {
            log("accessibility: the AT-SPI bus went away; the surface is no longer exposed to screen readers")
            self.link = nil
        }
    }

    public func sceneRefreshed(_ scene: DesktopScene, outputs: [DisplayOutput]) {
        guard let link else { return }
        self.scene = scene
        let screens: [AtspiTree.Screen] = outputs.compactMap { o in
            guard let area = scene.area(on: o.id) else { return nil }
            let origin = screenOrigin(o.id)
            return AtspiTree.Screen(output: o.id, connector: o.connector, area: area, scale: o.scale,
                                    originX: origin?.x ?? 0, originY: origin?.y ?? 0, elements: scene.accessibleElements(on: o.id))
        }
        let tree = AtspiTree(applicationName: applicationName, screens: screens)
        // Calls read while waiting for a reply at start-up wait in libdbus's queue.
        var activations: [AtspiTree.Activation] = []
        link.drainQueued { activations += answer($0) }
        if tree != service.tree {
            let events = listeners.isEmpty ? [] : tree.events(since: service.tree)
            service.tree = tree
            for e in events { send(e, on: link) }
        }
        link.flush()
        for a in activations { perform(a) }
    }

    // MARK: - Calls and signals

    /// Answers one message (a registry's signal: counts the listeners); the activation a
    /// `DoAction` asked for.
    private func answer(_ message: OpaquePointer) -> [AtspiTree.Activation] {
        if let (member, arguments) = signal(in: message, of: Self.registry.interface), let bus = arguments.first?.stringValue {
            if member == "EventListenerRegistered" { listeners[bus, default: 0] += 1 }
            if member == "EventListenerDeregistered" { listeners[bus] = (listeners[bus] ?? 1) > 1 ? listeners[bus]! - 1 : nil }
            return []
        }
        guard let link, let call = DBusCall(message) else { return [] }
        let a = service.answer(call)
        if let error = a.error {
            link.replyError(to: message, error.name, error.message)
        } else {
            link.reply(to: message, a.reply ?? [])
        }
        return a.activation.map { [$0] } ?? []
    }

    private func send(_ event: AtspiTree.Event, on link: DBusLink) {
        let (member, detail, detail1, value): (String, String, Int32, DBusValue) = switch event.kind {
        case .childAdded(let i, let child): ("ChildrenChanged", "add", Int32(i), service.ref(child))
        case .childRemoved(let i, let child): ("ChildrenChanged", "remove", Int32(i), service.ref(child))
        case .nameChanged(let name): ("PropertyChange", "accessible-name", 0, .string(name))
        case .stateChanged(let state, let on): ("StateChanged", state.name, on ? 1 : 0, .int32(0))
        }
        link.signal(event.path, "org.a11y.atspi.Event.Object", member,
                    [.string(detail), .int32(detail1), .int32(0), .variant(value), .array(element: "{sv}", [])])
    }

    /// An action performed as a person's pointer would: a click, or the menu opened on the
    /// widget and its row clicked.
    private func perform(_ activation: AtspiTree.Activation) {
        switch activation {
        case .press(let button, let output, let x, let y):
            click(button, output, x, y)
        case .menuCommand(let command, let output, let x, let y):
            // A menu open elsewhere closes first (Escape), as a press on it would choose a row.
            if scene?.interaction.menu != nil { injectKey(KeyEvent(output: output, key: .escape)) }
            click(3, output, x, y)
            guard let menu = scene?.interaction.menu, let row = menu.commands.firstIndex(of: command) else {
                log("accessibility: the widget menu did not open for \"\(command.rawValue)\"")
                return
            }
            let f = menu.rowFrame(row)
            click(1, output, f.x + f.width / 2, f.y + f.height / 2)
        }
    }

    private func click(_ button: Int, _ output: DisplayOutput.ID, _ x: Double, _ y: Double) {
        inject(PointerEvent(output: output, kind: .press(button: button), x: x, y: y, time: 0))
        inject(PointerEvent(output: output, kind: .release(button: button), x: x, y: y, time: 0))
    }
}
