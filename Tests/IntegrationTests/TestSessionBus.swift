import CDBus
import Dispatch
import Synchronization
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A private session bus for one test: a real `dbus-daemon --session` on its own socket in
/// `dir`, and a service the test runs on it (libdbus, on a thread of its own) that owns each of
/// `names` and answers `org.freedesktop.DBus.Properties.Get` of `org.example.Probe.Greeting`
/// on `/org/example/Probe` with "hi-<last element of the name>" ("hi-A"). Ends the daemon and the service at `stop()`
/// (and at deinit).
final class TestSessionBus: @unchecked Sendable {
    let address: String
    private let daemon: pid_t
    private var services: [OpaquePointer] = []
    private var ownedNames: [String] = []
    private nonisolated(unsafe) var running = true
    /// The greetings the service answers with, by name (default "hi-<last element>").
    private let greetings = Mutex<[String: String]>([:])
    private let done = DispatchSemaphore(value: 0)
    private var threads = 0

    static var available: Bool { access("/usr/bin/dbus-daemon", X_OK) == 0 && access("/usr/bin/xdg-dbus-proxy", X_OK) == 0 }

    init(dir: String, names: [String]) throws {
        let socket = dir + "/test-bus"
        address = "unix:path=" + socket
        daemon = spawnBackground("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=" + address])
        _ = dbus_threads_init_default()
        // The socket file is there from its bind(), before the daemon's listen(): until then a
        // connection is refused.
        guard eventually(timeout: 10, { Self.accepts(address) }) else { throw Failure("dbus-daemon did not listen at \(socket)") }
        for name in names {
            var error = DBusError()
            dbus_error_init(&error)
            guard let c = dbus_connection_open_private(address, &error), dbus_bus_register(c, &error) != 0 else {
                defer { dbus_error_free(&error) }
                throw Failure("service cannot connect: \(error.message.map { String(cString: $0) } ?? "?")")
            }
            dbus_connection_set_exit_on_disconnect(c, 0)
            guard dbus_bus_request_name(c, name, 4 /* DO_NOT_QUEUE */, &error) == 1 /* PRIMARY_OWNER */ else {
                throw Failure("service cannot own \(name)")
            }
            services.append(c)
            ownedNames.append(name)
            threads += 1
            let conn = UInt(bitPattern: c)
            DispatchQueue.global().async { [self] in
                serve(OpaquePointer(bitPattern: conn)!, name: name)
                done.signal()
            }
        }
    }

    /// Whether the bus at `address` takes a connection now.
    private static func accepts(_ address: String) -> Bool {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let c = dbus_connection_open_private(address, &error) else { return false }
        dbus_connection_close(c)
        dbus_connection_unref(c)
        return true
    }

    private func serve(_ c: OpaquePointer, name: String) {
        while running {
            _ = dbus_connection_read_write(c, 50)
            while let m = dbus_connection_pop_message(c) {
                answer(c, m, name: name)
                dbus_message_unref(m)
            }
        }
    }

    private func answer(_ c: OpaquePointer, _ m: OpaquePointer, name: String) {
        guard dbus_message_get_type(m) == 1 /* METHOD_CALL */ else { return }
        let reply: OpaquePointer?
        if dbus_message_is_method_call(m, "org.freedesktop.DBus.Properties", "Get") != 0 {
            reply = dbus_message_new_method_return(m)
            var iter = DBusMessageIter(), variant = DBusMessageIter()
            dbus_message_iter_init_append(reply, &iter)
            _ = dbus_message_iter_open_container(&iter, Int32(UInt8(ascii: "v")), "s", &variant)
            let greeting = greetings.withLock { $0[name] } ?? "hi-\(name.split(separator: ".").last ?? "")"
            _ = greeting.withCString { widgethost_dbus_append_string(&variant, Int32(UInt8(ascii: "s")), $0) }
            _ = dbus_message_iter_close_container(&iter, &variant)
        } else {
            reply = dbus_message_new_error(m, "org.freedesktop.DBus.Error.UnknownMethod", "no such method")
        }
        if let reply {
            _ = dbus_connection_send(c, reply, nil)
            dbus_connection_flush(c)
            dbus_message_unref(reply)
        }
    }

    /// The unique names of the other connections on the bus (`ListNames`): who is connected.
    func clients() -> [String] {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let c = dbus_connection_open_private(address, &error) else { return ["cannot connect"] }
        defer { dbus_connection_close(c); dbus_connection_unref(c) }
        guard dbus_bus_register(c, &error) != 0,
              let call = dbus_message_new_method_call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames") else {
            return ["cannot register"]
        }
        defer { dbus_message_unref(call) }
        guard let reply = dbus_connection_send_with_reply_and_block(c, call, 2000, &error) else { return ["no reply"] }
        defer { dbus_message_unref(reply) }
        var iter = DBusMessageIter(), names = DBusMessageIter()
        guard dbus_message_iter_init(reply, &iter) != 0 else { return [] }
        dbus_message_iter_recurse(&iter, &names)
        var out: [String] = []
        while dbus_message_iter_get_arg_type(&names) == Int32(UInt8(ascii: "s")) {
            if let n = widgethost_dbus_get_string(&names).map({ String(cString: $0) }), n.hasPrefix(":") { out.append(n) }
            dbus_message_iter_next(&names)
        }
        let own = dbus_bus_get_unique_name(c).map { String(cString: $0) }
        return out.filter { $0 != own }
    }

    /// Makes `name` answer `greeting` from now on and emits its `org.example.Probe.Changed`
    /// signal on `/org/example/Probe`.
    func change(_ name: String, greeting: String) {
        greetings.withLock { $0[name] = greeting }
        guard let i = ownedNames.firstIndex(of: name), let signal = dbus_message_new_signal("/org/example/Probe", "org.example.Probe", "Changed") else { return }
        _ = dbus_connection_send(services[i], signal, nil)
        dbus_connection_flush(services[i])
        dbus_message_unref(signal)
    }

    func stop() {
        guard running else { return }
        running = false
        for _ in 0..<threads { done.wait() }
        for c in services { dbus_connection_close(c); dbus_connection_unref(c) }
        services = []
        kill(daemon, SIGKILL)  // not SIGTERM: the test process may block it, and spawned children inherit the mask
        var st: Int32 = 0
        waitpid(daemon, &st, 0)
    }

    deinit { stop() }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }
}
