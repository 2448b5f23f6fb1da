import WidgetDesktopScene
import WidgetDesktopSurface

/// Whether a well-known name on the session bus has an owner, followed live: asked once at start
/// without waiting (`NameHasOwner`) and then through the bus's `NameOwnerChanged` signal for that
/// name only (a match rule with `arg0`). The lean surface watches the "Add Widget" gallery's name
/// (`WidgetGallery.busName`, owned by `widgethost-edit` while its gallery window is open) to be in
/// edit mode while a gallery is open, however it was started. Each change goes to `onChange`
/// (true: owned). No session bus, or a bus that does not answer: one log line, nil — nothing else
/// changes. Served from the surface's loop as a `SurfaceLoopSource` (in this module for
/// `DBusLink`).
///
/// Threading: the surface's one thread. Not `Sendable`.
public final class BusNameWatch: SurfaceLoopSource {
    static let bus = (name: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus")

    private var link: DBusLink?
    private var pendingAsk: UInt32?
    private let name: String
    private let what: String
    private let log: (String) -> Void
    /// Whether the name has an owner now (false until the bus says).
    public private(set) var owned = false
    /// Called with each change of `owned`, on the surface's thread.
    public var onChange: (Bool) -> Void = { _ in }

    /// Subscribes and asks on the session bus; nil (after one log line naming `what` the name
    /// stands for) when the session has no bus or it does not answer.
    public static func connect(name: String, what: String, environment: [String: String], log: @escaping (String) -> Void) -> BusNameWatch? {
        guard let address = sessionBusAddress(environment) else {
            log("\(what): not followed (no session bus: DBUS_SESSION_BUS_ADDRESS is not set)")
            return nil
        }
        do {
            let link = try DBusLink(address: address)
            // The rule first, so that an owner coming between the question and its answer is not missed.
            try link.addMatch(matchRule(for: name))
            let watch = BusNameWatch(link: link, name: name, what: what, log: log)
            watch.pendingAsk = link.send(bus.name, bus.path, bus.interface, "NameHasOwner", [.string(name)])
            link.flush()
            return watch
        } catch {
            log("\(what): not followed (the session bus does not answer: \(error))")
            return nil
        }
    }

    private init(link: DBusLink, name: String, what: String, log: @escaping (String) -> Void) {
        self.link = link; self.name = name; self.what = what; self.log = log
    }

    /// The bus's `NameOwnerChanged` signals about `name` only.
    static func matchRule(for name: String) -> String {
        "type='signal',sender='\(bus.name)',interface='\(bus.interface)',member='NameOwnerChanged',path='\(bus.path)',arg0='\(name)'"
    }

    /// Whether `name` has an owner after a `NameOwnerChanged(s name, s old_owner, s new_owner)`
    /// with these arguments; nil when the signal is about another name or is not that shape.
    public static func owned(afterNameOwnerChanged arguments: [DBusArgument], name: String) -> Bool? {
        guard arguments.count == 3, arguments[0].stringValue == name, arguments[1].stringValue != nil,
              let newOwner = arguments[2].stringValue else { return nil }
        return !newOwner.isEmpty
    }

    /// The answer of `NameHasOwner` (one boolean); nil when it is not that shape.
    public static func owned(inNameHasOwnerReply arguments: [DBusArgument]) -> Bool? {
        guard arguments.count == 1, let v = arguments[0].intValue, v == 0 || v == 1 else { return nil }
        return v == 1
    }

    // MARK: - SurfaceLoopSource

    public var pollDescriptor: Int32 { link?.descriptor ?? -1 }

    public func dispatch() {
        guard let link else { return }
        var changes: [Bool] = []
        let alive = link.receive { message in
            if let serial = pendingAsk, let answer = reply(in: message, to: serial) {
                pendingAsk = nil
                switch answer {
                case .success(let arguments): if let o = Self.owned(inNameHasOwnerReply: arguments) { changes.append(o) }
                case .failure(let failure): log("\(what): the bus does not say whether \(name) has an owner (\(failure))")
                }
            } else if let s = signal(in: message, of: Self.bus.interface), s.member == "NameOwnerChanged",
                      let o = Self.owned(afterNameOwnerChanged: s.arguments, name: name) {
                changes.append(o)
            }
        }
        for o in changes where o != owned {
            owned = o
            log("\(what): \(o ? "yes" : "no") (\(name) \(o ? "has an owner" : "has no owner"))")
            onChange(o)
        }
        if !alive {
            log("\(what): the session bus went away; no longer followed")
            self.link = nil
        }
    }

    public func sceneRefreshed(_ scene: DesktopScene, outputs: [DisplayOutput]) {}
}
