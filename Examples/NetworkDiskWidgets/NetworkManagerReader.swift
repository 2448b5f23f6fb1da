import FoundationEssentials
import SessionBus

/// What the system says of a Wi-Fi interface's link: the network's name and, when the access
/// point is known, its signal strength in percent (NetworkManager's 0–100).
struct WirelessLink: Equatable, Sendable {
    var ssid: String
    var strength: Int?
}

/// Where the Network widget learns which Wi-Fi network an interface is on, by interface name.
/// Empty when it cannot tell (no NetworkManager, no bus): the widget then shows what it showed
/// before, the interface's kind and name. Any thread.
protocol WirelessLinkSource: Sendable {
    func wirelessLinks() -> [String: WirelessLink]
}

/// Reads NetworkManager's active Wi-Fi connections over D-Bus (the SDK's `SessionBus` client,
/// on the system bus): the manager's `ActiveConnections`; of each, `Type`, `Id`, `State`,
/// `Devices` and `SpecificObject` (`org.freedesktop.NetworkManager.Connection.Active`); of its
/// device, `Interface` (`org.freedesktop.NetworkManager.Device`); of the access point it names,
/// `Ssid` and `Strength` (`org.freedesktop.NetworkManager.AccessPoint`). Only activated
/// `802-11-wireless` connections count. A connection whose access point is not given ("/") or
/// cannot be read keeps the connection's `Id` as its name, with no strength. Synchronous: a few
/// calls, each with the bus's timeout; any thread.
struct NetworkManagerReader: WirelessLinkSource {
    static let service = "org.freedesktop.NetworkManager"
    static let managerPath = "/org/freedesktop/NetworkManager"
    static let activeInterface = "org.freedesktop.NetworkManager.Connection.Active"
    static let deviceInterface = "org.freedesktop.NetworkManager.Device"
    static let accessPointInterface = "org.freedesktop.NetworkManager.AccessPoint"
    /// `NM_ACTIVE_CONNECTION_STATE_ACTIVATED`.
    static let activated: Int64 = 2

    /// Connects to the bus NetworkManager is on (the system bus; a test's private bus); it
    /// throws when there is none, and each read then finds nothing.
    let connect: @Sendable () throws(BusError) -> SessionBus

    init(connect: @escaping @Sendable () throws(BusError) -> SessionBus) { self.connect = connect }

    /// NetworkManager on the system bus (`SessionBus.system()`: in the sandboxed worker, its
    /// proxy filtered to the bundle's `systemBusNames`; run unsandboxed, the bus
    /// `DBUS_SYSTEM_BUS_ADDRESS` names, none without it).
    static let system = NetworkManagerReader { () throws(BusError) in try SessionBus.system() }

    /// Interface name → its Wi-Fi link; empty when NetworkManager cannot be asked.
    func wirelessLinks() -> [String: WirelessLink] {
        (try? read()) ?? [:]
    }

    /// As `wirelessLinks`, with the bus's error when the manager itself cannot be read (no bus,
    /// no NetworkManager, access denied). A connection that vanishes while it is read is skipped.
    /// NetworkManager not running is `ServiceUnknown`, asked first (`NameHasOwner`): a call to
    /// its name would have the bus start it, and a widget starts no system service.
    func read() throws(BusError) -> [String: WirelessLink] {
        let bus = try connect()
        let running = try bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                                   member: "NameHasOwner", arguments: [.string(Self.service)])
        guard running.first?.boolValue == true else {
            throw BusError(name: "org.freedesktop.DBus.Error.ServiceUnknown", message: "\(Self.service) is not running")
        }
        let active = try bus.property("ActiveConnections", interface: Self.service, destination: Self.service, path: Self.managerPath)
        var out: [String: WirelessLink] = [:]
        for path in active.arrayValue?.compactMap(\.stringValue) ?? [] {
            guard let c = try? bus.properties(interface: Self.activeInterface, destination: Self.service, path: path),
                  c["Type"]?.stringValue == "802-11-wireless", c["State"]?.intValue.map({ $0 == Self.activated }) ?? true else { continue }
            let devices = c["Devices"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let names = devices.compactMap { try? bus.property("Interface", interface: Self.deviceInterface, destination: Self.service, path: $0).stringValue }
            guard !names.isEmpty else { continue }
            var link = WirelessLink(ssid: c["Id"]?.stringValue ?? "", strength: nil)
            if let ap = c["SpecificObject"]?.stringValue, ap != "/",
               let p = try? bus.properties(interface: Self.accessPointInterface, destination: Self.service, path: ap) {
                if let bytes = p["Ssid"]?.arrayValue?.compactMap({ $0.intValue.flatMap(UInt8.init(exactly:)) }), !bytes.isEmpty {
                    link.ssid = Self.text(ssid: bytes)
                }
                link.strength = p["Strength"]?.intValue.map { Int(min(max($0, 0), 100)) }
            }
            guard !link.ssid.isEmpty else { continue }
            for name in names where !name.isEmpty { out[name] = link }
        }
        return out
    }

    /// An SSID's bytes as text. An SSID is up to 32 bytes in no stated encoding: UTF-8 when they
    /// are valid UTF-8; otherwise each byte as its ISO-8859-1 character (NetworkManager's own
    /// last fallback), so no byte is lost or merged with another. Control characters (C0, DEL,
    /// C1) are written `\xNN` in both cases, so the name stays one visible line.
    static func text(ssid bytes: [UInt8]) -> String {
        let scalars: [Unicode.Scalar]
        if let s = String(validating: bytes, as: UTF8.self) {
            scalars = Array(s.unicodeScalars)
        } else {
            scalars = bytes.map { Unicode.Scalar($0) }
        }
        var out = ""
        for s in scalars {
            if s.value < 0x20 || (0x7F...0x9F).contains(s.value) {
                let hex = String(s.value, radix: 16, uppercase: true)
                out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                out.unicodeScalars.append(s)
            }
        }
        return out
    }
}
