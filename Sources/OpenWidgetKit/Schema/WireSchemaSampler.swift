import FoundationEssentials

/// The wire schema as its `Codable` conformances declare it: every numeric field of a wire type,
/// and a value of that type with every field present (one element in each array, one member in
/// each dictionary, a recursive type — a node's `children`, a gradient's stops — entered once),
/// optionally with one numeric field set to a given number.
///
/// For tests that must cover the schema whatever is added to it later (`WireSchemaTests`: every
/// numeric field of an answer, fed NaN, ±inf, 0, negative and huge values, must be refused or
/// drawn without a trap). The values are built by decoding from a synthetic `Decoder`, so a field
/// is seen exactly when the type's own `init(from:)` reads it. Every keyed type of the schema
/// must declare `enum CodingKeys: String, CodingKey, CaseIterable` (a type whose keys cannot be
/// listed is an error, never silently skipped). Not for production paths: slow, allocates.
/// Pure; safe from any thread.
public enum WireSchemaSampler {
    /// A numeric field: its coding path (keys; `"0"` for an array's element, `"k"` for a
    /// dictionary's member) and what it holds.
    public struct Field: Hashable, Sendable, CustomStringConvertible {
        public enum Kind: Hashable, Sendable { case double, integer, date }
        public var path: [String]
        public var kind: Kind
        /// The last key that is a name (not an index or a dictionary member): `minimum` for
        /// `entries.0.view.gridItems.0.minimum`.
        public var name: String { path.last { Int($0) == nil && $0 != "k" } ?? "" }
        public var description: String { path.joined(separator: ".") }
    }

    /// A number to put into a field: a double (also for dates, in seconds since 1970) or an integer.
    public enum Number: Sendable, CustomStringConvertible {
        case double(Double), integer(Int)
        public var description: String {
            switch self {
            case .double(let d): "\(d)"
            case .integer(let i): "\(i)"
            }
        }
    }

    /// Why a type cannot be sampled: its keys cannot be listed, or a leaf type is not one the
    /// sampler knows.
    public struct Unsupported: Error, CustomStringConvertible {
        public var description: String
    }

    /// Every numeric field of `type`, in decoding order.
    public static func numericFields<T: Decodable>(of type: T.Type) throws -> [Field] {
        let state = State(target: nil)
        _ = try T(from: SampleDecoder(state: state, path: []))
        return state.fields
    }

    /// A `type` with every field present — numbers 1, dates 1 800 000 000 s after 1970, strings
    /// `"x"` (an enum's first case), booleans false — except `field`, set to `number`.
    public static func sample<T: Decodable>(_ type: T.Type, setting field: Field? = nil, to number: Number = .double(1)) throws -> T {
        let state = State(target: field.map { ($0.path, number) })
        return try T(from: SampleDecoder(state: state, path: []))
    }

    /// What one sampling run has seen and is asked for. Reference type, one run, one thread.
    fileprivate final class State {
        let target: (path: [String], number: Number)?
        var fields: [Field] = []
        /// Types being decoded, outermost first: one already here is not entered again.
        var decoding: [ObjectIdentifier] = []
        init(target: (path: [String], number: Number)?) { self.target = target }

        func double(at path: [String]) -> Double {
            fields.append(Field(path: path, kind: .double))
            guard let target, target.path == path else { return 1 }
            switch target.number {
            case .double(let d): return d
            case .integer(let i): return Double(i)
            }
        }

        func integer(at path: [String]) -> Int {
            fields.append(Field(path: path, kind: .integer))
            guard let target, target.path == path else { return 1 }
            switch target.number {
            case .double(let d): return d.isFinite && abs(d) < 9e18 ? Int(d) : 0
            case .integer(let i): return i
            }
        }

        func date(at path: [String]) -> Date {
            fields.append(Field(path: path, kind: .date))
            guard let target, target.path == path else { return Date(timeIntervalSince1970: 1_800_000_000) }
            switch target.number {
            case .double(let d): return Date(timeIntervalSince1970: d)
            case .integer(let i): return Date(timeIntervalSince1970: Double(i))
            }
        }

        /// The value at `path` of a leaf type, or nil for a composite type (decoded from its parts).
        func leaf<T>(_ type: T.Type, at path: [String]) throws -> T? {
            if T.self == Date.self { return date(at: path) as? T }
            if T.self == Double.self { return double(at: path) as? T }
            if T.self == Int.self { return integer(at: path) as? T }
            if T.self == String.self { return "x" as? T }
            if T.self == Bool.self { return false as? T }
            if let cases = T.self as? any CaseIterable.Type { return firstCase(cases) as? T }
            if [Float.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt.self, UInt8.self, UInt16.self, UInt32.self,
                UInt64.self].contains(where: { $0 == T.self }) {
                throw Unsupported(description: "\(path.joined(separator: ".")): \(T.self) is not a number type the sampler knows")
            }
            return nil
        }

        private func firstCase<C: CaseIterable>(_ type: C.Type) -> Any? { C.allCases.first }

        /// Decodes a composite `T` at `path`; nil for an `optional` one of a type already being
        /// decoded (the recursion of `children` or gradient stops ends there).
        func composite<T: Decodable>(_ type: T.Type, at path: [String], optional: Bool) throws -> T? {
            let id = ObjectIdentifier(T.self)
            guard !optional || !decoding.contains(id) else { return nil }
            decoding.append(id)
            defer { decoding.removeLast() }
            return try T(from: SampleDecoder(state: self, path: path))
        }

        func value<T: Decodable>(_ type: T.Type, at path: [String]) throws -> T {
            if let v = try leaf(type, at: path) { return v }
            return try composite(type, at: path, optional: false)!
        }
    }

    fileprivate struct SampleDecoder: Decoder {
        let state: State
        let path: [String]
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(try Keyed<Key>(state: state, path: path))
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { Unkeyed(state: state, path: path) }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(state: state, path: path) }
    }

    fileprivate struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let state: State
        let path: [String]
        let allKeys: [Key]
        var codingPath: [any CodingKey] { [] }

        init(state: State, path: [String]) throws {
            self.state = state; self.path = path
            if let all = Key.self as? any CaseIterable.Type {
                allKeys = Self.keys(all)
            } else if let member = Key(stringValue: "k") {
                allKeys = [member]  // a dictionary: one member
            } else {
                throw Unsupported(description: "\(path.joined(separator: ".")): the keys \(Key.self) cannot be listed; "
                                  + "declare `enum CodingKeys: String, CodingKey, CaseIterable`")
            }
        }

        private static func keys<C: CaseIterable>(_ type: C.Type) -> [Key] { C.allCases.compactMap { $0 as? Key } }

        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try state.value(type, at: path + [key.stringValue])
        }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try state.value(Bool.self, at: path + [key.stringValue]) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try state.value(String.self, at: path + [key.stringValue]) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try state.value(Double.self, at: path + [key.stringValue]) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try state.value(Float.self, at: path + [key.stringValue]) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try state.value(Int.self, at: path + [key.stringValue]) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try state.value(Int8.self, at: path + [key.stringValue]) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try state.value(Int16.self, at: path + [key.stringValue]) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try state.value(Int32.self, at: path + [key.stringValue]) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try state.value(Int64.self, at: path + [key.stringValue]) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try state.value(UInt.self, at: path + [key.stringValue]) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try state.value(UInt8.self, at: path + [key.stringValue]) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try state.value(UInt16.self, at: path + [key.stringValue]) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try state.value(UInt32.self, at: path + [key.stringValue]) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try state.value(UInt64.self, at: path + [key.stringValue]) }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            if let v = try state.leaf(type, at: path + [key.stringValue]) { return v }
            return try state.composite(type, at: path + [key.stringValue], optional: true)
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            KeyedDecodingContainer(try Keyed<NestedKey>(state: state, path: path + [key.stringValue]))
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            Unkeyed(state: state, path: path + [key.stringValue])
        }
        func superDecoder() throws -> any Decoder { SampleDecoder(state: state, path: path) }
        func superDecoder(forKey key: Key) throws -> any Decoder { SampleDecoder(state: state, path: path + [key.stringValue]) }
    }

    /// One element, unless it is of a type already being decoded (then none).
    fileprivate struct Unkeyed: UnkeyedDecodingContainer {
        let state: State
        let path: [String]
        var currentIndex = 0
        var codingPath: [any CodingKey] { [] }
        var count: Int? { nil }
        var isAtEnd: Bool { currentIndex > 0 }

        init(state: State, path: [String]) { self.state = state; self.path = path }

        mutating func decodeNil() throws -> Bool { false }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            defer { currentIndex += 1 }
            return try state.value(type, at: path + ["0"])
        }
        mutating func decode(_ type: Bool.Type) throws -> Bool { defer { currentIndex += 1 }; return try state.value(Bool.self, at: path + ["0"]) }
        mutating func decode(_ type: String.Type) throws -> String { defer { currentIndex += 1 }; return try state.value(String.self, at: path + ["0"]) }
        mutating func decode(_ type: Double.Type) throws -> Double { defer { currentIndex += 1 }; return try state.value(Double.self, at: path + ["0"]) }
        mutating func decode(_ type: Float.Type) throws -> Float { defer { currentIndex += 1 }; return try state.value(Float.self, at: path + ["0"]) }
        mutating func decode(_ type: Int.Type) throws -> Int { defer { currentIndex += 1 }; return try state.value(Int.self, at: path + ["0"]) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { defer { currentIndex += 1 }; return try state.value(Int8.self, at: path + ["0"]) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { defer { currentIndex += 1 }; return try state.value(Int16.self, at: path + ["0"]) }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { defer { currentIndex += 1 }; return try state.value(Int32.self, at: path + ["0"]) }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { defer { currentIndex += 1 }; return try state.value(Int64.self, at: path + ["0"]) }
        mutating func decode(_ type: UInt.Type) throws -> UInt { defer { currentIndex += 1 }; return try state.value(UInt.self, at: path + ["0"]) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { defer { currentIndex += 1 }; return try state.value(UInt8.self, at: path + ["0"]) }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { defer { currentIndex += 1 }; return try state.value(UInt16.self, at: path + ["0"]) }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { defer { currentIndex += 1 }; return try state.value(UInt32.self, at: path + ["0"]) }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { defer { currentIndex += 1 }; return try state.value(UInt64.self, at: path + ["0"]) }
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            defer { currentIndex += 1 }
            return KeyedDecodingContainer(try Keyed<NestedKey>(state: state, path: path + ["0"]))
        }
        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            defer { currentIndex += 1 }
            return Unkeyed(state: state, path: path + ["0"])
        }
        mutating func superDecoder() throws -> any Decoder { SampleDecoder(state: state, path: path + ["0"]) }
    }

    /// A single value: a leaf, or (a `JSONValue`) a number — not null, not a boolean.
    fileprivate struct Single: SingleValueDecodingContainer {
        let state: State
        let path: [String]
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool { false }
        func decode(_ type: Bool.Type) throws -> Bool {
            throw DecodingError.typeMismatch(Bool.self, .init(codingPath: [], debugDescription: "a sampled single value is a number"))
        }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try state.value(type, at: path) }
        func decode(_ type: String.Type) throws -> String { try state.value(String.self, at: path) }
        func decode(_ type: Double.Type) throws -> Double { try state.value(Double.self, at: path) }
        func decode(_ type: Float.Type) throws -> Float { try state.value(Float.self, at: path) }
        func decode(_ type: Int.Type) throws -> Int { try state.value(Int.self, at: path) }
        func decode(_ type: Int8.Type) throws -> Int8 { try state.value(Int8.self, at: path) }
        func decode(_ type: Int16.Type) throws -> Int16 { try state.value(Int16.self, at: path) }
        func decode(_ type: Int32.Type) throws -> Int32 { try state.value(Int32.self, at: path) }
        func decode(_ type: Int64.Type) throws -> Int64 { try state.value(Int64.self, at: path) }
        func decode(_ type: UInt.Type) throws -> UInt { try state.value(UInt.self, at: path) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try state.value(UInt8.self, at: path) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try state.value(UInt16.self, at: path) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try state.value(UInt32.self, at: path) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try state.value(UInt64.self, at: path) }
    }
}
