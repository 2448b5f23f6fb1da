import FoundationEssentials
import OpenWidgetKit

/// One step from a JSON value to a value inside it.
public enum JSONPathStep: Equatable, Sendable, CustomStringConvertible {
    case key(String)
    case index(Int)
    public var description: String {
        switch self {
        case .key(let k): ".\(k)"
        case .index(let i): "[\(i)]"
        }
    }
}

/// A JSON text edited surgically: each edit replaces, inserts or removes the bytes of one value
/// or member and leaves every other byte — other keys, their order, indentation, spacing — as
/// it was. New text copies the style of its neighbours (the separator and indentation between
/// the last two members, the spacing around a colon). Value type; pure, any thread.
public struct ConfigText: Equatable, Sendable {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public private(set) var bytes: [UInt8]
    public private(set) var root: JSONSourceValue

    public init(_ bytes: [UInt8]) throws(JSONSourceReader.Failure) {
        self.bytes = bytes
        root = try JSONSourceReader.read(bytes)
    }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The value at `path`, nil when a step does not exist.
    public func value(at path: [JSONPathStep]) -> JSONSourceValue? {
        var v = root
        for step in path {
            switch step {
            case .key(let k): guard let m = v.member(k) else { return nil }; v = m.value
            case .index(let i): let e = v.elements; guard e.indices.contains(i) else { return nil }; v = e[i]
            }
        }
        return v
    }

    // MARK: - edits

    /// Replaces the value at `path` with `valueText`.
    public mutating func replaceValue(at path: [JSONPathStep], with valueText: String) throws {
        let v = try node(path)
        try splice(v.range, valueText)
    }

    /// Adds `"key": valueText` as the last member of the object at `path` (which must not have
    /// `key`). An empty object becomes one member on its own indented line when `multiline`,
    /// else `{ "key": value }`.
    public mutating func appendMember(to path: [JSONPathStep], key: String, valueText: String, multiline: Bool = false) throws {
        let o = try node(path)
        guard o.isObject else { throw Failure(description: "\(Self.describe(path)) is not an object") }
        let quoted = JSONText.string(key)
        let members = o.members
        if let last = members.last {
            let colon = slice(last.keyRange.upperBound..<last.value.range.lowerBound)
            let sep = members.count >= 2
                ? slice(members[members.count - 2].value.range.upperBound..<last.keyRange.lowerBound)
                : separatorAfterOnly(opening: o.range.lowerBound, first: last.keyRange.lowerBound)
            try splice(last.value.range.upperBound..<last.value.range.upperBound, sep + quoted + colon + valueText)
        } else {
            try splice(o.range, emptyContainerFilled("{", "}", quoted + ": " + valueText, at: o.range.lowerBound, multiline: multiline))
        }
    }

    /// Removes the member `key` of the object at `path` (and one separator).
    public mutating func removeMember(from path: [JSONPathStep], key: String) throws {
        let o = try node(path)
        guard let k = o.members.lastIndex(where: { $0.key == key }) else { throw Failure(description: "\(Self.describe(path)) has no key \"\(key)\"") }
        try removeSlot(k, of: o.members.map(\.range), in: o.range)
    }

    /// Adds `elementText` as the last element of the array at `path`. An empty array becomes one
    /// element on its own indented line when `multiline`, else `[element]`.
    public mutating func appendElement(to path: [JSONPathStep], elementText: String, multiline: Bool = false) throws {
        let a = try node(path)
        guard a.isArray else { throw Failure(description: "\(Self.describe(path)) is not an array") }
        let elements = a.elements
        if let last = elements.last {
            let sep = elements.count >= 2
                ? slice(elements[elements.count - 2].range.upperBound..<last.range.lowerBound)
                : separatorAfterOnly(opening: a.range.lowerBound, first: last.range.lowerBound)
            try splice(last.range.upperBound..<last.range.upperBound, sep + elementText)
        } else {
            try splice(a.range, emptyContainerFilled("[", "]", elementText, at: a.range.lowerBound, multiline: multiline))
        }
    }

    /// Removes element `index` of the array at `path` (and one separator).
    public mutating func removeElement(from path: [JSONPathStep], index: Int) throws {
        let a = try node(path)
        let elements = a.elements
        guard elements.indices.contains(index) else { throw Failure(description: "\(Self.describe(path)) has no element \(index)") }
        try removeSlot(index, of: elements.map(\.range), in: a.range)
    }

    /// Reorders the elements of the array at `path`: slot `i` gets the element that was at
    /// `order[i]`. The separators between the slots stay where they are.
    public mutating func reorderElements(of path: [JSONPathStep], order: [Int]) throws {
        let a = try node(path)
        let ranges = a.elements.map(\.range)
        guard order.sorted() == Array(ranges.indices) else { throw Failure(description: "not a permutation of \(Self.describe(path))") }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var cursor = 0
        for (slot, r) in ranges.enumerated() {
            out += bytes[cursor..<r.lowerBound]
            out += bytes[ranges[order[slot]]]
            cursor = r.upperBound
        }
        out += bytes[cursor...]
        try reread(out)
    }

    // MARK: - style

    /// The whitespace that starts the line holding `offset`.
    public func lineIndent(at offset: Int) -> String {
        var start = offset
        while start > 0, bytes[start - 1] != 0x0a { start -= 1 }
        var end = start
        while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// One level of indentation: how far the first member of the top-level object is indented
    /// ("  " when it is not on a line of its own).
    public var indentUnit: String {
        guard let first = root.members.first, bytes[root.range.lowerBound..<first.keyRange.lowerBound].contains(0x0a) else { return "  " }
        let unit = lineIndent(at: first.keyRange.lowerBound)
        return unit.isEmpty ? "  " : unit
    }

    /// The separator after a container's only item: its line break and indentation when the
    /// item is on a line of its own, else the one-line separator the file uses elsewhere.
    private func separatorAfterOnly(opening: Int, first: Int) -> String {
        let lead = slice(opening + 1..<first)
        return lead.contains("\n") ? "," + lead : inlineSeparator
    }

    /// How the file separates items on one line (`", "` or `","`): the first container with two
    /// items on one line says; `", "` when none does.
    public var inlineSeparator: String {
        var stack = [root]
        while let v = stack.popLast() {
            let spans = v.isObject ? v.members.map(\.range) : v.elements.map(\.range)
            if spans.count >= 2 {
                let sep = slice(spans[0].upperBound..<spans[1].lowerBound)
                if !sep.contains("\n") { return sep }
            }
            stack += (v.isObject ? v.members.map(\.value) : v.elements).reversed()
        }
        return ", "
    }

    /// Whether the value's text spans more than one line.
    public func isMultiline(_ v: JSONSourceValue) -> Bool { bytes[v.range].contains(0x0a) }

    /// The bytes of `range` as text.
    public func slice(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    // MARK: - private

    private func node(_ path: [JSONPathStep]) throws -> JSONSourceValue {
        guard let v = value(at: path) else { throw Failure(description: "no value at \(Self.describe(path))") }
        return v
    }

    static func describe(_ path: [JSONPathStep]) -> String {
        path.isEmpty ? "the top level" : String(path.map(\.description).joined().drop(while: { $0 == "." }))
    }

    private func emptyContainerFilled(_ open: String, _ close: String, _ inner: String, at offset: Int, multiline: Bool) -> String {
        guard multiline else { return open == "{" ? "{ \(inner) }" : "[\(inner)]" }
        let indent = lineIndent(at: offset)
        return open + "\n" + indent + indentUnit + inner + "\n" + indent + close
    }

    /// Removes slot `k` of `slots` (member or element spans, in order) inside `container`.
    private mutating func removeSlot(_ k: Int, of slots: [Range<Int>], in container: Range<Int>) throws {
        if slots.count == 1 {
            try splice(container.lowerBound + 1..<container.upperBound - 1, "")
        } else if k < slots.count - 1 {
            try splice(slots[k].lowerBound..<slots[k + 1].lowerBound, "")
        } else {
            try splice(slots[k - 1].upperBound..<slots[k].upperBound, "")
        }
    }

    private mutating func splice(_ range: Range<Int>, _ text: String) throws {
        var out = bytes
        out.replaceSubrange(range, with: Array(text.utf8))
        try reread(out)
    }

    private mutating func reread(_ out: [UInt8]) throws {
        do { root = try JSONSourceReader.read(out) } catch { throw Failure(description: "the edit broke the JSON (\(error)): not written") }
        bytes = out
    }
}

/// JSON text for new values, in the compact one-line form an edit inserts.
public enum JSONText {
    public static func string(_ s: String) -> String {
        var b: [UInt8] = []
        WireJSONWriter.appendEscaped(s, to: &b)
        return String(decoding: b, as: UTF8.self)
    }

    /// A scalar, array or object on one line: `{ "a": 1, "b": ["x", "y"] }` (objects' keys in
    /// the order given by `keyOrder`, else sorted).
    public static func value(_ v: JSONValue) -> String {
        switch v {
        case .array(let a): return "[" + a.map(value).joined(separator: ", ") + "]"
        case .object(let o): return object(o.keys.sorted().map { ($0, o[$0]!) })
        default:
            var w = WireJSONWriter(capacity: 16)
            w.value(v)
            return String(decoding: w.bytes, as: UTF8.self)
        }
    }

    /// An object on one line with its members in the order given.
    public static func object(_ members: [(String, JSONValue)]) -> String {
        members.isEmpty ? "{}" : "{ " + members.map { string($0.0) + ": " + value($0.1) }.joined(separator: ", ") + " }"
    }
}
