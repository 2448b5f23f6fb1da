import CDBus

/// A D-Bus value as the AT-SPI bridge sends it: the few types AT-SPI's interfaces use, nested as
/// their signatures say. `append(to:)` marshals it into a message with libdbus; `DBusArgument`
/// is the other way, for the arguments of the calls it answers. Value type; any thread.
public indirect enum DBusValue: Equatable, Sendable {
    case string(String)
    case objectPath(String)
    case int32(Int32)
    case uint32(UInt32)
    case int16(Int16)
    case bool(Bool)
    case double(Double)
    /// An array of values of `element` signature (given, so that an empty array has a type).
    case array(element: String, [DBusValue])
    case structure([DBusValue])
    case variant(DBusValue)
    case dictEntry(DBusValue, DBusValue)

    /// `(so)`: an accessible object named by its bus name and object path.
    public static func reference(_ bus: String, _ path: String) -> DBusValue { .structure([.string(bus), .objectPath(path)]) }

    /// `a{ss}` from a dictionary, keys sorted.
    public static func stringMap(_ map: [String: String]) -> DBusValue {
        .array(element: "{ss}", map.keys.sorted().map { .dictEntry(.string($0), .string(map[$0] ?? "")) })
    }

    /// The D-Bus signature of this value.
    public var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .int32: "i"
        case .uint32: "u"
        case .int16: "n"
        case .bool: "b"
        case .double: "d"
        case .array(let element, _): "a" + element
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        case .dictEntry(let key, let value): "{" + key.signature + value.signature + "}"
        }
    }

    static func code(_ c: Character) -> Int32 { Int32(c.asciiValue ?? 0) }

    /// Appends the value at `iter` (a message's or a container's); false when libdbus is out
    /// of memory or a string is not valid for its type.
    func append(to iter: inout DBusMessageIter) -> Bool {
        switch self {
        case .string(let s): return s.withCString { widgethost_dbus_append_string(&iter, Self.code("s"), $0) } != 0
        case .objectPath(let s): return s.withCString { widgethost_dbus_append_string(&iter, Self.code("o"), $0) } != 0
        case .int32(var v): return dbus_message_iter_append_basic(&iter, Self.code("i"), &v) != 0
        case .uint32(var v): return dbus_message_iter_append_basic(&iter, Self.code("u"), &v) != 0
        case .int16(var v): return dbus_message_iter_append_basic(&iter, Self.code("n"), &v) != 0
        case .bool(let b):
            var v: dbus_bool_t = b ? 1 : 0
            return dbus_message_iter_append_basic(&iter, Self.code("b"), &v) != 0
        case .double(var v): return dbus_message_iter_append_basic(&iter, Self.code("d"), &v) != 0
        case .array(let element, let items):
            return container(&iter, "a", contained: element) { sub in items.allSatisfy { $0.append(to: &sub) } }
        case .structure(let fields):
            return container(&iter, "r", contained: nil) { sub in fields.allSatisfy { $0.append(to: &sub) } }
        case .variant(let inner):
            return container(&iter, "v", contained: inner.signature) { sub in inner.append(to: &sub) }
        case .dictEntry(let key, let value):
            return container(&iter, "e", contained: nil) { sub in key.append(to: &sub) && value.append(to: &sub) }
        }
    }

    private func container(_ iter: inout DBusMessageIter, _ type: Character, contained: String?,
                           _ body: (inout DBusMessageIter) -> Bool) -> Bool {
        var sub = DBusMessageIter()
        let opened = contained.map { s in s.withCString { dbus_message_iter_open_container(&iter, Self.code(type), $0, &sub) } }
            ?? dbus_message_iter_open_container(&iter, Self.code(type), nil, &sub)
        guard opened != 0 else { return false }
        guard body(&sub) else {
            dbus_message_iter_abandon_container(&iter, &sub)
            return false
        }
        return dbus_message_iter_close_container(&iter, &sub) != 0
    }
}

/// An argument of a call the bridge answers or a reply it reads: strings and integers (a
/// variant's content read in its place, a structure's fields and an array's elements one after
/// the other), anything else as `other`. Value type; any thread.
public enum DBusArgument: Equatable, Sendable {
    case string(String)
    case int(Int64)
    case other

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var intValue: Int64? { if case .int(let i) = self { i } else { nil } }

    /// The top-level arguments of `message` (a `DBusMessage *`).
    static func arguments(of message: OpaquePointer) -> [DBusArgument] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        var out: [DBusArgument] = []
        repeat { read(&iter, into: &out) } while dbus_message_iter_next(&iter) != 0
        return out
    }

    private static func read(_ iter: inout DBusMessageIter, into out: inout [DBusArgument]) {
        let type = dbus_message_iter_get_arg_type(&iter)
        if type == DBusValue.code("r") || type == DBusValue.code("a") {
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            guard dbus_message_iter_get_arg_type(&sub) != 0 else { return }
            repeat { read(&sub, into: &out) } while dbus_message_iter_next(&sub) != 0
        } else {
            out.append(read(&iter))
        }
    }

    private static func read(_ iter: inout DBusMessageIter) -> DBusArgument {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case DBusValue.code("s"), DBusValue.code("o"):
            return widgethost_dbus_get_string(&iter).map { .string(String(cString: $0)) } ?? .other
        case DBusValue.code("i"):
            var v: Int32 = 0; dbus_message_iter_get_basic(&iter, &v); return .int(Int64(v))
        case DBusValue.code("u"):
            var v: UInt32 = 0; dbus_message_iter_get_basic(&iter, &v); return .int(Int64(v))
        case DBusValue.code("n"):
            var v: Int16 = 0; dbus_message_iter_get_basic(&iter, &v); return .int(Int64(v))
        case DBusValue.code("b"):
            var v: dbus_bool_t = 0; dbus_message_iter_get_basic(&iter, &v); return .int(Int64(v))
        case DBusValue.code("v"):
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return read(&sub)
        default:
            return .other
        }
    }
}
