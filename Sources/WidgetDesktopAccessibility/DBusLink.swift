import CDBus
#if canImport(Glibc)
import Glibc
#endif

/// One private libdbus connection, used without a main loop: the surface's loop polls
/// `descriptor`, then `receive()` reads what is there and hands over the complete messages;
/// `send` queues and `flush()` writes. Only start-up waits for a reply (`call`). Closed on deinit.
///
/// Threading: the thread that opened it (the surface's one thread). Not `Sendable`.
final class DBusLink {
    /// A `DBusConnection *`.
    private let connection: OpaquePointer
    /// The name the bus gave this connection (":1.42").
    let uniqueName: String

    /// A failure to connect or to call, in libdbus's words. Value type.
    struct Failure: Error, CustomStringConvertible {
        var name: String
        var message: String
        var description: String { "\(message) (\(name))" }
    }

    /// Connects to the bus at `address` and says Hello.
    init(address: String) throws {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let c = dbus_connection_open_private(address, &error) else { throw Self.failure(&error) }
        dbus_connection_set_exit_on_disconnect(c, 0)
        guard dbus_bus_register(c, &error) != 0, let name = dbus_bus_get_unique_name(c) else {
            let failure = Self.failure(&error)
            dbus_connection_close(c)
            dbus_connection_unref(c)
            throw failure
        }
        connection = c
        uniqueName = String(cString: name)
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    /// The socket to poll for reading, -1 when libdbus has none.
    var descriptor: Int32 {
        var fd: Int32 = -1
        return dbus_connection_get_unix_fd(connection, &fd) != 0 ? fd : -1
    }

    /// Calls `member` and waits up to `timeout` ms for its reply's arguments. With
    /// `startService` false the bus does not start a service for `destination` (an error instead).
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
              timeout: Int32, startService: Bool = true) throws -> [DBusArgument] {
        guard let message = dbus_message_new_method_call(destination, path, interface, member) else { throw Failure(name: "NoMemory", message: "out of memory") }
        defer { dbus_message_unref(message) }
        dbus_message_set_auto_start(message, startService ? 1 : 0)
        guard Self.append(arguments, to: message) else { throw Failure(name: "InvalidArgs", message: "cannot marshal \(member)'s arguments") }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let reply = dbus_connection_send_with_reply_and_block(connection, message, timeout, &error) else { throw Self.failure(&error) }
        defer { dbus_message_unref(reply) }
        return DBusArgument.arguments(of: reply)
    }

    /// Queues a call without waiting: its reply comes later through `receive`, recognised by
    /// `reply(in:to:)` with the serial returned (nil: not queued).
    func send(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = []) -> UInt32? {
        guard let message = dbus_message_new_method_call(destination, path, interface, member) else { return nil }
        defer { dbus_message_unref(message) }
        guard Self.append(arguments, to: message) else { return nil }
        var serial: dbus_uint32_t = 0
        return dbus_connection_send(connection, message, &serial) != 0 ? serial : nil
    }

    /// Reads what the socket holds; the complete messages, each released after `body`. False
    /// when the connection is gone.
    func receive(_ body: (OpaquePointer) -> Void) -> Bool {
        guard dbus_connection_read_write(connection, 0) != 0 else { return false }
        while let message = dbus_connection_pop_message(connection) {
            body(message)
            dbus_message_unref(message)
        }
        return dbus_connection_get_is_connected(connection) != 0
    }

    /// Asks the bus for the signals `rule` matches (waits for the bus's answer).
    func addMatch(_ rule: String) throws {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        dbus_bus_add_match(connection, rule, &error)
        if dbus_error_is_set(&error) != 0 { throw Self.failure(&error) }
    }

    /// Hands over the complete messages libdbus already read (while `call` waited), without
    /// reading the socket.
    func drainQueued(_ body: (OpaquePointer) -> Void) {
        while dbus_connection_get_dispatch_status(connection) == DBUS_DISPATCH_DATA_REMAINS, let message = dbus_connection_pop_message(connection) {
            body(message)
            dbus_message_unref(message)
        }
    }

    /// Queues the reply to `call` (nothing when the caller asked for none).
    func reply(to call: OpaquePointer, _ values: [DBusValue]) {
        guard dbus_message_get_no_reply(call) == 0, let reply = dbus_message_new_method_return(call) else { return }
        defer { dbus_message_unref(reply) }
        if Self.append(values, to: reply) {
            dbus_connection_send(connection, reply, nil)
        } else {
            replyError(to: call, "org.freedesktop.DBus.Error.Failed", "cannot marshal the reply")
        }
    }

    /// Queues an error reply to `call`.
    func replyError(to call: OpaquePointer, _ name: String, _ text: String) {
        guard dbus_message_get_no_reply(call) == 0, let reply = dbus_message_new_error(call, name, text) else { return }
        dbus_connection_send(connection, reply, nil)
        dbus_message_unref(reply)
    }

    /// Queues a signal.
    func signal(_ path: String, _ interface: String, _ member: String, _ values: [DBusValue]) {
        guard let message = dbus_message_new_signal(path, interface, member) else { return }
        defer { dbus_message_unref(message) }
        if Self.append(values, to: message) { dbus_connection_send(connection, message, nil) }
    }

    /// Writes everything queued (the peers are the bus daemon: a short wait at most).
    func flush() { dbus_connection_flush(connection) }

    private static func append(_ values: [DBusValue], to message: OpaquePointer) -> Bool {
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        return values.allSatisfy { $0.append(to: &iter) }
    }

    private static func failure(_ error: inout DBusError) -> Failure {
        dbus_error_is_set(&error) != 0
            ? Failure(name: error.name.map { String(cString: $0) } ?? "Failed", message: error.message.map { String(cString: $0) } ?? "failed")
            : Failure(name: "Failed", message: "failed")
    }
}

/// A signal's member and arguments when `message` is a signal of `interface`.
func signal(in message: OpaquePointer, of interface: String) -> (member: String, arguments: [DBusArgument])? {
    guard dbus_message_get_type(message) == 4 /* DBUS_MESSAGE_TYPE_SIGNAL */,
          dbus_message_get_interface(message).map({ String(cString: $0) }) == interface,
          let member = dbus_message_get_member(message) else { return nil }
    return (String(cString: member), DBusArgument.arguments(of: message))
}

/// What `message` says in answer to the call of `serial`: its arguments, or the error's name
/// and text; nil when it is not that call's answer.
func reply(in message: OpaquePointer, to serial: UInt32) -> Result<[DBusArgument], DBusLink.Failure>? {
    let type = dbus_message_get_type(message)
    guard type == 2 /* METHOD_RETURN */ || type == 3 /* ERROR */, dbus_message_get_reply_serial(message) == serial else { return nil }
    if type == 2 { return .success(DBusArgument.arguments(of: message)) }
    let text = DBusArgument.arguments(of: message).first?.stringValue ?? "failed"
    return .failure(DBusLink.Failure(name: dbus_message_get_error_name(message).map { String(cString: $0) } ?? "Failed", message: text))
}

/// The fields of a method call the bridge answers. Value type; any thread.
public struct DBusCall: Equatable, Sendable {
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusArgument]

    public init(path: String, interface: String, member: String, arguments: [DBusArgument] = []) {
        self.path = path; self.interface = interface; self.member = member; self.arguments = arguments
    }

    /// The call in `message`, nil when it is not a method call.
    init?(_ message: OpaquePointer) {
        guard dbus_message_get_type(message) == 1 /* DBUS_MESSAGE_TYPE_METHOD_CALL */ else { return nil }
        path = dbus_message_get_path(message).map { String(cString: $0) } ?? ""
        interface = dbus_message_get_interface(message).map { String(cString: $0) } ?? ""
        member = dbus_message_get_member(message).map { String(cString: $0) } ?? ""
        arguments = DBusArgument.arguments(of: message)
    }
}

/// The session bus's address: `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` when it
/// exists; nil when the session has none.
func sessionBusAddress(_ environment: [String: String]) -> String? {
    if let a = environment["DBUS_SESSION_BUS_ADDRESS"], !a.isEmpty { return a }
    if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty, access(runtime + "/bus", F_OK) == 0 { return "unix:path=" + runtime + "/bus" }
    return nil
}
