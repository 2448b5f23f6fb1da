import FoundationEssentials
import OpenWidgetKit

/// A JSON text's values with the byte ranges they occupy, so an edit can replace, insert or
/// remove exactly one value and leave every other byte as it was (`ConfigText`). Only what an
/// edit needs is kept: objects' member keys (decoded) and spans, arrays' element spans; scalars
/// are spans. Value type; pure, safe from any thread.
public struct JSONSourceValue: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case object([JSONSourceMember])
        case array([JSONSourceValue])
        case string(String)
        /// A number, `true`, `false` or `null`, as written.
        case literal(String)
    }

    /// From the first byte of the value to the byte after its last.
    public var range: Range<Int>
    public var kind: Kind

    public var members: [JSONSourceMember] { if case .object(let m) = kind { return m }; return [] }
    public var elements: [JSONSourceValue] { if case .array(let e) = kind { return e }; return [] }
    public var isObject: Bool { if case .object = kind { return true }; return false }
    public var isArray: Bool { if case .array = kind { return true }; return false }
    public var stringValue: String? { if case .string(let s) = kind { return s }; return nil }

    /// The member named `key` of an object (the last one when a key is repeated, as decoders take).
    public func member(_ key: String) -> JSONSourceMember? { members.last { $0.key == key } }
}

/// One `"key": value` of an object.
public struct JSONSourceMember: Equatable, Sendable {
    public var key: String
    /// The key's quoted string.
    public var keyRange: Range<Int>
    public var value: JSONSourceValue
    /// From the key's opening quote to the end of its value.
    public var range: Range<Int> { keyRange.lowerBound..<value.range.upperBound }
}

/// Reads a JSON text into a `JSONSourceValue` tree. Strict enough for text the host's parser
/// accepted (the editor reads only such text); anything else is an error with its offset.
public enum JSONSourceReader {
    public struct Failure: Error, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "not valid JSON at byte \(offset): \(reason)" }
    }

    public static func read(_ bytes: [UInt8]) throws(Failure) -> JSONSourceValue {
        var r = Reader(bytes: bytes)
        r.space()
        let v = try r.value(depth: 0)
        r.space()
        guard r.i == bytes.count else { throw Failure(offset: r.i, reason: "text after the value") }
        return v
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        mutating func space() {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0a || bytes[i] == 0x0d || bytes[i] == 0x09 { i += 1 }
        }

        func fail(_ reason: String) -> Failure { Failure(offset: i, reason: reason) }

        mutating func expect(_ c: UInt8) throws(Failure) {
            guard i < bytes.count, bytes[i] == c else { throw fail("expected '\(Character(Unicode.Scalar(c)))'") }
            i += 1
        }

        mutating func value(depth: Int) throws(Failure) -> JSONSourceValue {
            guard depth < 512 else { throw fail("nested too deeply") }
            guard i < bytes.count else { throw fail("unexpected end") }
            let start = i
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1; space()
                var members: [JSONSourceMember] = []
                if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return JSONSourceValue(range: start..<i, kind: .object([])) }
                while true {
                    let keyStart = i
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw fail("expected a key") }
                    let key = try string()
                    let keyRange = keyStart..<i
                    space(); try expect(UInt8(ascii: ":")); space()
                    members.append(JSONSourceMember(key: key, keyRange: keyRange, value: try value(depth: depth + 1)))
                    space()
                    guard i < bytes.count else { throw fail("unexpected end") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; space(); continue }
                    try expect(UInt8(ascii: "}"))
                    return JSONSourceValue(range: start..<i, kind: .object(members))
                }
            case UInt8(ascii: "["):
                i += 1; space()
                var elements: [JSONSourceValue] = []
                if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return JSONSourceValue(range: start..<i, kind: .array([])) }
                while true {
                    elements.append(try value(depth: depth + 1))
                    space()
                    guard i < bytes.count else { throw fail("unexpected end") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; space(); continue }
                    try expect(UInt8(ascii: "]"))
                    return JSONSourceValue(range: start..<i, kind: .array(elements))
                }
            case UInt8(ascii: "\""):
                let s = try string()
                return JSONSourceValue(range: start..<i, kind: .string(s))
            default:
                while i < bytes.count, Self.isLiteralByte(bytes[i]) { i += 1 }
                guard i > start else { throw fail("unexpected character") }
                return JSONSourceValue(range: start..<i, kind: .literal(String(decoding: bytes[start..<i], as: UTF8.self)))
            }
        }

        static func isLiteralByte(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x7a) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
                || b == UInt8(ascii: ".") || b == UInt8(ascii: "E")
        }

        /// A quoted string at `i`, decoded; `i` ends past its closing quote. Escapes are left to
        /// the SDK's JSON reader (`WireCodec`), which the host's parser uses too.
        mutating func string() throws(Failure) -> String {
            let start = i
            i += 1
            var escaped = false
            while true {
                guard i < bytes.count else { throw fail("unterminated string") }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { break }
                if b < 0x20 { throw fail("control character in a string") }
                if b == UInt8(ascii: "\\") { escaped = true; i += 1 }
                i += 1
            }
            i += 1
            guard escaped else { return String(decoding: bytes[start + 1..<i - 1], as: UTF8.self) }
            let list = Data([UInt8(ascii: "[")] + bytes[start..<i] + [UInt8(ascii: "]")])
            guard let decoded = try? WireCodec.decodeJSONValue(list), case .array(let a) = decoded, let s = a.first?.stringValue else {
                throw Failure(offset: start, reason: "bad escape in a string")
            }
            return s
        }
    }
}
