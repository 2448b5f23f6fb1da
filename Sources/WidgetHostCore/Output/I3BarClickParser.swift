import FoundationEssentials

/// One i3bar click event (`name` is the widget id the block carried). Value type.
public struct I3BarClick: Codable, Equatable, Sendable {
    public var name: String?
    public var instance: String?
    public var button: Int?
    public var x: Int?
    public var y: Int?
    public var modifiers: [String]?
    public init(name: String?, instance: String? = nil, button: Int? = nil) {
        self.name = name; self.instance = instance; self.button = button
    }
}

/// Reads i3bar's click stream from stdin: an endless JSON array of objects — `[`, then objects
/// separated by `,` and newlines, in chunks of any size. Skips everything between objects;
/// braces inside strings do not count. A malformed object is dropped. Value type; one per stream.
public struct I3BarClickParser: Sendable {
    private var buffer: [UInt8] = []
    private var depth = 0
    private var inString = false
    private var escaped = false
    public init() {}

    public mutating func feed(_ chunk: some Sequence<UInt8>) -> [I3BarClick] {
        var clicks: [I3BarClick] = []
        for c in chunk {
            if depth == 0 {
                guard c == UInt8(ascii: "{") else { continue }  // `[`, `,`, whitespace between objects
                depth = 1; buffer = [c]; continue
            }
            buffer.append(c)
            if inString {
                if escaped { escaped = false } else if c == UInt8(ascii: "\\") { escaped = true } else if c == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch c {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 {
                    if let click = try? JSONDecoder().decode(I3BarClick.self, from: Data(buffer)) { clicks.append(click) }
                    buffer = []
                }
            default: break
            }
            if buffer.count > 65_536 { buffer = []; depth = 0; inString = false }
        }
        return clicks
    }
}
