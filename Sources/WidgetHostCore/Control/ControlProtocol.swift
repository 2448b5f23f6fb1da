import FoundationEssentials
import OpenWidgetKit

/// One request on the control socket (DESIGN §9): a JSON object on one line.
///
/// `{"op":"reload","kind":"Clock"}` (no kind: every widget), `{"op":"click","id":"clock-small",
/// "button":1,"target":"Log"}`, `{"op":"status"}`, `{"op":"watch"}` (the connection becomes a
/// subscription to the desktop view stream: `DesktopViewMessage` lines, not one answer;
/// `DesktopViewStream`; `{"op":"watch","colorScheme":"dark"}` also says the desktop's colour
/// scheme, which widgets whose `picture.colorScheme` is `"system"` are evaluated in),
/// `{"op":"entities"}` (`{"op":"entities","bundle":"libNowPlayingWidget.so"}`: one bundle, by file
/// name or bundle id): the placed bundles' entity options asked again of their serving workers,
/// answered once they are cached (`EntityOptionsOnDemand`). Value type.
public struct ControlRequest: Codable, Equatable, Sendable {
    public enum Op: String, Codable, Sendable { case reload, click, status, watch, entities }
    public var op: Op
    /// `reload`: the widget kind (nil = all).
    public var kind: String?
    /// `click`: the widget instance id.
    public var id: String?
    /// `click`: the mouse button (1 left, 2 middle, 3 right, 4/5 scroll).
    public var button: Int?
    /// `click`: a control's `action.id` or title.
    public var target: String?
    /// `watch`: the desktop's colour scheme, `"light"` or `"dark"` (nil: not said).
    public var colorScheme: String?
    /// `entities`: the bundle's file name or bundle id (nil: every bundle).
    public var bundle: String?

    public init(op: Op, kind: String? = nil, id: String? = nil, button: Int? = nil, target: String? = nil, colorScheme: String? = nil,
                bundle: String? = nil) {
        self.op = op; self.kind = kind; self.id = id; self.button = button; self.target = target; self.colorScheme = colorScheme
        self.bundle = bundle
    }

    /// The scheme a `watch` says: nil when it says none; throws with the reason when it says
    /// something else than `"light"` or `"dark"`.
    public func watchedColorScheme() throws(WatchRefused) -> ColorScheme? {
        guard let name = colorScheme else { return nil }
        guard let scheme = ColorScheme(rawValue: name) else {
            throw WatchRefused(description: "unknown colour scheme \"\(name.prefix(40))\" (one of: light, dark)")
        }
        return scheme
    }

    /// Why a `watch` is refused. Value type.
    public struct WatchRefused: Error, Equatable, CustomStringConvertible {
        public var description: String
    }
}

/// The answer to one `ControlRequest`: a JSON object on one line.
public struct ControlResponse: Codable, Equatable, Sendable {
    public var ok: Bool
    public var error: String?
    /// A human-readable account of what was done.
    public var message: String?
    public var status: HostStatus?
    /// `entities`: the bundles (file names) whose serving workers were asked, sorted.
    public var asked: [String]?

    public init(ok: Bool, error: String? = nil, message: String? = nil, status: HostStatus? = nil, asked: [String]? = nil) {
        self.ok = ok; self.error = error; self.message = message; self.status = status; self.asked = asked
    }

    public static func failure(_ message: String) -> ControlResponse { ControlResponse(ok: false, error: message) }
}

/// The line codec of the control socket: one compact JSON object per `\n`-terminated line,
/// sorted keys, ISO 8601 dates. `LineSplitter` reassembles lines from stream chunks.
public enum ControlCodec {
    public static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .iso8601
        var bytes = Array((try? e.encode(value)) ?? Data(#"{"ok":false,"error":"encoding failed"}"#.utf8))
        bytes.append(0x0a)
        return bytes
    }

    public static func decode<T: Decodable>(_ type: T.Type, line: some Collection<UInt8>) throws -> T {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .iso8601
        return try d.decode(type, from: Data(line))
    }
}

/// Splits a byte stream into lines (without the `\n`); a line longer than `maxLine` is an error.
/// Value type; one per connection.
public struct LineSplitter: Sendable {
    private var buffer: [UInt8] = []
    /// Bytes of `buffer` already searched for a newline (a long line arriving in many chunks is
    /// searched once, not once per chunk).
    private var searched = 0
    public let maxLine: Int
    public init(maxLine: Int = 1 << 20) { self.maxLine = maxLine }

    public struct Overflow: Error {}

    /// Appends `chunk` and returns the complete lines it finished.
    public mutating func feed(_ chunk: some Collection<UInt8>) throws -> [[UInt8]] {
        buffer.append(contentsOf: chunk)
        var lines: [[UInt8]] = []
        var start = 0
        while let nl = buffer[max(start, searched)...].firstIndex(of: 0x0a) {
            lines.append(Array(buffer[start..<nl]))
            start = nl + 1
        }
        buffer.removeFirst(start)
        searched = buffer.count
        if buffer.count > maxLine { buffer = []; searched = 0; throw Overflow() }
        return lines
    }
}
