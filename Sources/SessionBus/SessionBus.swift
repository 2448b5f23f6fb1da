import CDBus
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A call to the bus that failed: the D-Bus error name (`org.freedesktop.DBus.Error.AccessDenied`,
/// `org.freedesktop.DBus.Error.ServiceUnknown`, `org.freedesktop.DBus.Error.NoReply`…, or
/// `SessionBus.noBusError` when the worker has no bus) and its message.
public struct BusError: Error, Equatable, CustomStringConvertible {
    public let name: String
    public let message: String
    public init(name: String, message: String) { self.name = name; self.message = message }
    public var description: String { "\(name): \(message)" }
}

/// A small session-bus client for widget code on Linux (Apple has none: a widget there asks its
/// app). A bundle declares the names it talks to (`WidgetPluginExport.entry(…, busNames:)`);
/// its sandboxed worker reaches the bus only through a proxy filtered to those names, so a call
/// to any other name fails with the proxy's `AccessDenied` / `ServiceUnknown`, and a bundle
/// that declares none has no bus at all (`noBusError`) — docs/limits.md "D-Bus".
///
///     let bus = try SessionBus.session()
///     let status = try bus.property("PlaybackStatus", interface: "org.mpris.MediaPlayer2.Player",
///                                   destination: player, path: "/org/mpris/MediaPlayer2")
///
/// Synchronous, with a timeout per call (`timeoutMilliseconds`, default 2 s); replies larger
/// than `maximumReplyBytes` are refused by the connection. Safe from any thread, so from a
/// provider's `getTimeline` (libdbus's own locking; one private connection per `SessionBus`).
public final class SessionBus: @unchecked Sendable {
    /// The error name when the worker has no bus (no declaration, or no session bus on the host).
    public static let noBusError = "org.widgethost.Error.NoBus"
    public static let maximumReplyBytes = 4 << 20
    public var timeoutMilliseconds: Int32 = 2000
    private let connection: OpaquePointer

    private static let shared = Mutex<SessionBus?>(nil)
    private static let sharedSystem = Mutex<SessionBus?>(nil)

    /// The process's connection to the session bus (`DBUS_SESSION_BUS_ADDRESS`), made on first
    /// use and made again when it was lost. Throws `noBusError` without a bus.
    public static func session() throws(BusError) -> SessionBus {
        try connection(shared, variable: "DBUS_SESSION_BUS_ADDRESS", missing: "no session bus: the bundle declares no bus names, or the host has none")
    }

    /// The process's connection to the system bus (`DBUS_SYSTEM_BUS_ADDRESS`: in a worker, its
    /// proxy filtered to the bundle's `systemBusNames`), made on first use and made again when
    /// it was lost. Throws `noBusError` without one — a worker whose bundle declares no system
    /// names has none, whatever the host has.
    ///
    ///     let system = try SessionBus.system()
    ///     let devices = try system.call(destination: "org.freedesktop.UPower", path: "/org/freedesktop/UPower",
    ///                                   interface: "org.freedesktop.UPower", member: "EnumerateDevices")
    public static func system() throws(BusError) -> SessionBus {
        try connection(sharedSystem, variable: "DBUS_SYSTEM_BUS_ADDRESS",
                       missing: "no system bus: the bundle declares no system bus names, or the host has none")
    }

    private static func connection(_ shared: borrowing Mutex<SessionBus?>, variable: String, missing: String) throws(BusError) -> SessionBus {
        let made: Result<SessionBus, BusError> = shared.withLock { current in
            if let s = current, s.isConnected { return .success(s) }
            do throws(BusError) {
                guard let address = getenv(variable).map({ String(cString: $0) }), !address.isEmpty else {
                    throw BusError(name: noBusError, message: missing)
                }
                let s = try SessionBus(address: address)
                current = s
                return .success(s)
            } catch {
                return .failure(error)
            }
        }
        return try made.get()
    }

    /// A private connection to the bus at `address` (a D-Bus address: `unix:path=…`).
    public init(address: String?) throws(BusError) {
        guard let address, !address.isEmpty else {
            throw BusError(name: Self.noBusError, message: "no session bus: the bundle declares no bus names, or the host has none")
        }
        _ = dbus_threads_init_default()
        var error = DBusError()
        dbus_error_init(&error)
        guard let c = dbus_connection_open_private(address, &error) else { throw Self.take(&error, noBus: true) }
        dbus_connection_set_exit_on_disconnect(c, 0)
        dbus_connection_set_max_received_size(c, Int(Self.maximumReplyBytes))
        dbus_connection_set_max_message_size(c, Int(Self.maximumReplyBytes))
        guard dbus_bus_register(c, &error) != 0 else {
            dbus_connection_close(c); dbus_connection_unref(c)
            throw Self.take(&error, noBus: true)
        }
        connection = c
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    public var isConnected: Bool { dbus_connection_get_is_connected(connection) != 0 }

    /// Our unique name on the bus (`:1.42`).
    public var uniqueName: String { dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? "" }

    /// Calls `member` and returns the reply's values. Throws the D-Bus error of a failed call.
    public func call(destination: String, path: String, interface: String, member: String,
                     arguments: [BusArgument] = []) throws(BusError) -> [BusValue] {
        guard dbus_validate_bus_name(destination, nil) != 0, dbus_validate_path(path, nil) != 0,
              dbus_validate_interface(interface, nil) != 0, dbus_validate_member(member, nil) != 0 else {
            throw BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "invalid destination, path, interface or member")
        }
        guard let message = dbus_message_new_method_call(destination, path, interface, member) else { throw Self.noMemory }
        defer { dbus_message_unref(message) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for a in arguments where !a.append(to: &iter) {
            throw BusError(name: "org.freedesktop.DBus.Error.InvalidArgs", message: "cannot marshal \(a)")
        }
        var error = DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, timeoutMilliseconds, &error) else {
            throw Self.take(&error, noBus: false)
        }
        defer { dbus_message_unref(reply) }
        var r = DBusMessageIter()
        guard dbus_message_iter_init(reply, &r) != 0 else { return [] }
        return BusValue.read(&r)
    }

    /// One property (`org.freedesktop.DBus.Properties.Get`), its variant unwrapped.
    public func property(_ name: String, interface: String, destination: String, path: String) throws(BusError) -> BusValue {
        let reply = try call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "Get",
                             arguments: [.string(interface), .string(name)])
        guard let value = reply.first else { throw BusError(name: "org.freedesktop.DBus.Error.InvalidSignature", message: "empty reply") }
        return value
    }

    /// Every property of `interface` (`org.freedesktop.DBus.Properties.GetAll`).
    public func properties(interface: String, destination: String, path: String) throws(BusError) -> [String: BusValue] {
        let reply = try call(destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                             arguments: [.string(interface)])
        return reply.first?.dictionaryValue ?? [:]
    }

    /// The names on the bus (`ListNames`): through the proxy, only those the bundle may see.
    public func listNames() throws(BusError) -> [String] {
        try call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                 member: "ListNames").first?.stringsValue ?? []
    }

    private static let noMemory = BusError(name: "org.freedesktop.DBus.Error.NoMemory", message: "out of memory")

    private static func take(_ error: inout DBusError, noBus: Bool) -> BusError {
        defer { dbus_error_free(&error) }
        let name = error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
        let message = error.message.map { String(cString: $0) } ?? "failed"
        return BusError(name: noBus ? noBusError : name, message: noBus ? "cannot reach the session bus: \(name): \(message)" : message)
    }
}
