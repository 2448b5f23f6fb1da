import CDBus

/// A value read from the session bus, variants unwrapped: what a reply, a property or a
/// property map holds, as Swift values. Dictionaries are keyed by their keys' text (D-Bus
/// dictionaries are almost always `a{sv}` or `a{ss}`). Value type; any thread.
public indirect enum BusValue: Equatable, Sendable, CustomStringConvertible {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case array([BusValue])
    case dictionary([String: BusValue])
    case structure([BusValue])
    /// A type this client does not decode (file descriptors).
    case unsupported(String)

    public var stringValue: String? {
        switch self { case .string(let s), .objectPath(let s): s; default: nil }
    }
    public var intValue: Int64? {
        switch self {
        case .int(let v): v
        case .uint(let v): v <= UInt64(Int64.max) ? Int64(v) : nil
        case .double(let d): d.isFinite && abs(d) < 9.2e18 ? Int64(d) : nil
        default: nil
        }
    }
    public var doubleValue: Double? {
        switch self { case .double(let d): d; case .int(let v): Double(v); case .uint(let v): Double(v); default: nil }
    }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [BusValue]? { if case .array(let a) = self { a } else { nil } }
    public var dictionaryValue: [String: BusValue]? { if case .dictionary(let d) = self { d } else { nil } }
    /// `strings` of an `as` array (`xesam:artist`).
    public var stringsValue: [String]? { arrayValue?.compactMap(\.stringValue) }

    public var description: String {
        switch self {
        case .string(let s): s.debugDescription
        case .objectPath(let s): s
        case .bool(let b): String(b)
        case .int(let v): String(v)
        case .uint(let v): String(v)
        case .double(let d): String(d)
        case .array(let a): "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(let d): "{" + d.keys.sorted().map { "\($0): \(d[$0]!)" }.joined(separator: ", ") + "}"
        case .structure(let f): "(" + f.map(\.description).joined(separator: ", ") + ")"
        case .unsupported(let t): "<\(t)>"
        }
    }

    /// The values at `iter` to its end, at most `limit` of them per container level and
    /// `depth` levels (D-Bus's own limit is 64).
    static func read(_ iter: inout DBusMessageIter, depth: Int = 0) -> [BusValue] {
        var out: [BusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != 0 /* DBUS_TYPE_INVALID */ {
            out.append(one(&iter, depth: depth))
            if out.count >= maximumElements || dbus_message_iter_next(&iter) == 0 { break }
        }
        return out
    }

    static let maximumElements = 65_536

    private static func code(_ c: Character) -> Int32 { Int32(c.asciiValue ?? 0) }

    private static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ zero: T) -> T {
        var v = zero
        dbus_message_iter_get_basic(&iter, &v)
        return v
    }

    private static func one(_ iter: inout DBusMessageIter, depth: Int) -> BusValue {
        let type = dbus_message_iter_get_arg_type(&iter)
        guard depth < 32 else { return .unsupported("too deep") }
        switch type {
        case code("s"), code("g"): return .string(widgethost_dbus_get_string(&iter).map { String(cString: $0) } ?? "")
        case code("o"): return .objectPath(widgethost_dbus_get_string(&iter).map { String(cString: $0) } ?? "")
        case code("b"): return .bool(basic(&iter, dbus_bool_t(0)) != 0)
        case code("y"): return .uint(UInt64(basic(&iter, UInt8(0))))
        case code("n"): return .int(Int64(basic(&iter, Int16(0))))
        case code("q"): return .uint(UInt64(basic(&iter, UInt16(0))))
        case code("i"): return .int(Int64(basic(&iter, Int32(0))))
        case code("u"): return .uint(UInt64(basic(&iter, UInt32(0))))
        case code("x"): return .int(basic(&iter, Int64(0)))
        case code("t"): return .uint(basic(&iter, UInt64(0)))
        case code("d"): return .double(basic(&iter, Double(0)))
        case code("v"):
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return read(&sub, depth: depth + 1).first ?? .unsupported("empty variant")
        case code("r"), code("e"):
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(read(&sub, depth: depth + 1))
        case code("a"):
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            let items = read(&sub, depth: depth + 1)
            if dbus_message_iter_get_element_type(&iter) == code("e") {
                var map: [String: BusValue] = [:]
                for case .structure(let kv) in items where kv.count == 2 { map[kv[0].stringValue ?? kv[0].description] = kv[1] }
                return .dictionary(map)
            }
            return .array(items)
        default: return .unsupported(String(UnicodeScalar(UInt8(truncatingIfNeeded: type))))
        }
    }
}

/// A basic-typed argument of a method call: D-Bus needs the exact type the method's signature
/// names. Value type; any thread.
public enum BusArgument: Sendable, Equatable {
    case string(String)
    case objectPath(String)
    case bool(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)

    /// Appends it to a message; false when libdbus refuses it (out of memory, an invalid path).
    func append(to iter: inout DBusMessageIter) -> Bool {
        func c(_ ch: Character) -> Int32 { Int32(ch.asciiValue ?? 0) }
        switch self {
        case .string(let s): return s.withCString { widgethost_dbus_append_string(&iter, c("s"), $0) } != 0
        case .objectPath(let s):
            guard dbus_validate_path(s, nil) != 0 else { return false }
            return s.withCString { widgethost_dbus_append_string(&iter, c("o"), $0) } != 0
        case .bool(let b): var v: dbus_bool_t = b ? 1 : 0; return dbus_message_iter_append_basic(&iter, c("b"), &v) != 0
        case .int32(var v): return dbus_message_iter_append_basic(&iter, c("i"), &v) != 0
        case .uint32(var v): return dbus_message_iter_append_basic(&iter, c("u"), &v) != 0
        case .int64(var v): return dbus_message_iter_append_basic(&iter, c("x"), &v) != 0
        case .uint64(var v): return dbus_message_iter_append_basic(&iter, c("t"), &v) != 0
        case .double(var v): return dbus_message_iter_append_basic(&iter, c("d"), &v) != 0
        }
    }
}
