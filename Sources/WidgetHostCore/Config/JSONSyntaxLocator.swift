import FoundationEssentials

/// Where a JSON text first breaks the grammar (RFC 8259), as a line and column a person can go
/// to: `JSONDecoder` says only "The given data was not valid JSON." (issue 15), and a config
/// edited by hand deserves better. Used after the decoder refused the bytes, to explain why.
/// Pure; safe from any thread.
public enum JSONSyntaxLocator {
    public struct Problem: Equatable, Sendable, CustomStringConvertible {
        /// 1-based line and column (columns count characters, a tab as one).
        public var line: Int
        public var column: Int
        public var reason: String
        public var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// The first syntax error in `data`, or nil when it is valid JSON (or nesting passes 512).
    public static func locate(_ data: Data) -> Problem? {
        let bytes = [UInt8](data)
        var scanner = Scanner(bytes: bytes)
        guard let (offset, reason) = scanner.document() else { return nil }
        var line = 1, column = 1
        var i = 0
        let end = min(offset, bytes.count)
        while i < end {
            if bytes[i] == 0x0a { line += 1; column = 1 } else if bytes[i] & 0xc0 != 0x80 { column += 1 }
            i += 1
        }
        return Problem(line: line, column: column, reason: reason)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var i = 0
        var depth = 0

        typealias Failure = (Int, String)

        mutating func document() -> Failure? {
            if let f = value() { return f }
            space()
            return i < bytes.count ? (i, "unexpected \(found()) after the end of the document") : nil
        }

        func found() -> String {
            guard i < bytes.count else { return "end of file" }
            let b = bytes[i]
            return b >= 0x20 && b < 0x7f ? "'\(Character(UnicodeScalar(b)))'" : "byte 0x\(String(b, radix: 16))"
        }

        mutating func space() {
            while i < bytes.count, [0x20, 0x0a, 0x0d, 0x09].contains(bytes[i]) { i += 1 }
        }

        mutating func value() -> Failure? {
            space()
            guard i < bytes.count else { return (i, "unexpected end of file, expected a value") }
            switch bytes[i] {
            case UInt8(ascii: "{"): return container(close: UInt8(ascii: "}"), keyed: true)
            case UInt8(ascii: "["): return container(close: UInt8(ascii: "]"), keyed: false)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            default: return (i, "unexpected \(found()), expected a value")
            }
        }

        mutating func container(close: UInt8, keyed: Bool) -> Failure? {
            depth += 1
            guard depth <= 512 else { return nil }
            defer { depth -= 1 }
            i += 1
            space()
            if i < bytes.count, bytes[i] == close { i += 1; return nil }
            while true {
                if keyed {
                    space()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return (i, "unexpected \(found()), expected a key in quotes") }
                    if let f = string() { return f }
                    space()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return (i, "unexpected \(found()), expected ':'") }
                    i += 1
                }
                if let f = value() { return f }
                space()
                guard i < bytes.count else { return (i, "unexpected end of file, expected ',' or '\(Character(UnicodeScalar(close)))'") }
                if bytes[i] == close { i += 1; return nil }
                guard bytes[i] == UInt8(ascii: ",") else {
                    return (i, "unexpected \(found()), expected ',' or '\(Character(UnicodeScalar(close)))'")
                }
                i += 1
                space()
                if i < bytes.count, bytes[i] == close { return (i, "a trailing ',' before '\(Character(UnicodeScalar(close)))'") }
            }
        }

        mutating func string() -> Failure? {
            let start = i
            i += 1
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""): i += 1; return nil
                case UInt8(ascii: "\\"):
                    i += 1
                    guard i < bytes.count else { break }
                    if bytes[i] == UInt8(ascii: "u") {
                        for k in 1...4 where i + k >= bytes.count || !bytes[i + k].isHexDigit {
                            return (i - 1, "invalid \\u escape in a string")
                        }
                        i += 5
                    } else if "\"\\/bfnrt".utf8.contains(bytes[i]) {
                        i += 1
                    } else {
                        return (i - 1, "invalid escape '\\\(Character(UnicodeScalar(bytes[i])))' in a string")
                    }
                case 0..<0x20: return (i, "a control character (\(found())) inside a string; write it as an escape like \\n")
                default: i += 1
                }
            }
            return (start, "a string that never ends")
        }

        mutating func literal(_ word: String) -> Failure? {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else {
                return (i, "unexpected \(found()), expected a value (true, false and null are lower case; strings need quotes)")
            }
            i += w.count
            return nil
        }

        mutating func number() -> Failure? {
            let start = i
            if bytes[i] == UInt8(ascii: "-") { i += 1 }
            func digits() -> Int { var n = 0; while i < bytes.count, bytes[i].isDigit { i += 1; n += 1 }; return n }
            guard i < bytes.count, bytes[i].isDigit else { return (i, "a '-' without digits") }
            if bytes[i] == UInt8(ascii: "0"), i + 1 < bytes.count, bytes[i + 1].isDigit { return (start, "a number with a leading zero") }
            _ = digits()
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digits() > 0 else { return (i, "a number with no digit after '.'") }
            }
            if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { return (i, "a number with no digit in its exponent") }
            }
            return nil
        }
    }
}

private extension UInt8 {
    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
    var isHexDigit: Bool { isDigit || (self | 0x20 >= UInt8(ascii: "a") && self | 0x20 <= UInt8(ascii: "f")) }
}
