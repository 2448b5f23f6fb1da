import WidgetDesktopScene
import WidgetDesktopSurface

/// The desktop's light/dark preference as the XDG desktop portal says it: `org.freedesktop.appearance`
/// `color-scheme` (`org.freedesktop.portal.Settings`), read once at start without waiting
/// (the portal is started by the bus when it is not running) and followed live through its
/// `SettingChanged` signal (a match rule for that key only). Each value that differs from the last
/// goes to `onChange` (true: dark). No session bus, or a bus with no portal: one log line, and the
/// desktop stays light — never a failure. Served from the surface's loop as a `SurfaceLoopSource`
/// (it lives in this module for `DBusLink`, which the AT-SPI bridge shares).
///
/// Threading: the surface's one thread. Not `Sendable`.
public final class PortalColorScheme: SurfaceLoopSource {
    static let portal = (name: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
                         interface: "org.freedesktop.portal.Settings")
    static let setting = (namespace: "org.freedesktop.appearance", key: "color-scheme")

    private var link: DBusLink?
    private var pendingRead: UInt32?
    private let log: (String) -> Void
    /// The desktop's scheme now (true: dark); light until the portal says otherwise.
    public private(set) var dark = false
    /// Called with each new scheme (true: dark), on the surface's thread.
    public var onChange: (Bool) -> Void = { _ in }

    /// Subscribes and asks on the session bus; nil (after one log line) when the session has none.
    public static func connect(environment: [String: String], log: @escaping (String) -> Void) -> PortalColorScheme? {
        guard let address = sessionBusAddress(environment) else {
            log("colour scheme: light (no session bus: DBUS_SESSION_BUS_ADDRESS is not set, so no desktop portal to follow)")
            return nil
        }
        do {
            let link = try DBusLink(address: address)
            // The rule first, so that a change between the read and its reply is not missed.
            try link.addMatch("type='signal',interface='\(portal.interface)',member='SettingChanged',path='\(portal.path)',"
                              + "arg0='\(setting.namespace)',arg1='\(setting.key)'")
            let source = PortalColorScheme(link: link, log: log)
            source.pendingRead = link.send(portal.name, portal.path, portal.interface, "Read",
                                           [.string(setting.namespace), .string(setting.key)])
            link.flush()
            return source
        } catch {
            log("colour scheme: light (the session bus does not answer: \(error))")
            return nil
        }
    }

    private init(link: DBusLink, log: @escaping (String) -> Void) {
        self.link = link
        self.log = log
    }

    /// The scheme a `color-scheme` value means: the arguments of `Read`'s reply (`v` holding `v`
    /// holding `u`), of `ReadOne`'s (`v` holding `u`) or the value of a `SettingChanged` — variants
    /// are read in place, so each is one integer. 1 = prefer dark; 2 = prefer light and 0 = no
    /// preference are light; anything else is nil (not a colour scheme this portal version defines).
    public static func dark(fromPortalValue arguments: [DBusArgument]) -> Bool? {
        guard arguments.count == 1, let value = arguments[0].intValue else { return nil }
        switch value {
        case 1: return true
        case 0, 2: return false
        default: return nil
        }
    }

    /// The value part of a `SettingChanged(s namespace, s key, v value)` when it is the colour
    /// scheme's, else nil.
    public static func colorSchemeValue(inSettingChanged arguments: [DBusArgument]) -> [DBusArgument]? {
        guard arguments.count >= 3, arguments[0].stringValue == setting.namespace, arguments[1].stringValue == setting.key else { return nil }
        return Array(arguments.dropFirst(2))
    }

    // MARK: - SurfaceLoopSource

    public var pollDescriptor: Int32 { link?.descriptor ?? -1 }

    public func dispatch() {
        guard let link else { return }
        var values: [(arguments: [DBusArgument], from: String)] = []
        let alive = link.receive { message in
            if let serial = pendingRead, let answer = reply(in: message, to: serial) {
                pendingRead = nil
                switch answer {
                case .success(let arguments): values.append((arguments, "read"))
                case .failure(let failure): log("colour scheme: light (the desktop portal does not say: \(failure))")
                }
            } else if let s = signal(in: message, of: Self.portal.interface), s.member == "SettingChanged",
                      let value = Self.colorSchemeValue(inSettingChanged: s.arguments) {
                values.append((value, "changed"))
            }
        }
        for (arguments, from) in values { take(arguments, from: from) }
        if !alive {
            log("colour scheme: the session bus went away; the desktop's scheme is no longer followed")
            self.link = nil
        }
    }

    public func sceneRefreshed(_ scene: DesktopScene, outputs: [DisplayOutput]) {}

    private func take(_ arguments: [DBusArgument], from: String) {
        guard let dark = Self.dark(fromPortalValue: arguments) else {
            log("colour scheme: the desktop portal's color-scheme is not one of 0, 1, 2 (\(arguments)); kept \(self.dark ? "dark" : "light")")
            return
        }
        // The first answer is always said (the start-up line), later ones only when they change.
        guard dark != self.dark || from == "read" else { return }
        self.dark = dark
        log("colour scheme: \(dark ? "dark" : "light") (the desktop portal, \(from))")
        onChange(dark)
    }
}
