import FoundationEssentials
import WidgetRendering

/// `run --stdout i3bar`: the i3bar/swaybar protocol (DESIGN §8). The header
/// `{"version":1,"click_events":true,"stop_signal":0}`, then an endless array with one status
/// line (an array of blocks) per change. One block per widget: `full_text`, `short_text`,
/// `color`, `name` (the widget id), `instance` (its kind), `urgent`, and `markup: "pango"` when
/// the rendering uses Pango styling. Removed widgets leave the line.
///
/// Blocks are ordered by widget id, or with `sortByRelevance` by the current entry's relevance
/// (highest first; none counts as 0; ties by id). Threading: loop thread only.
public final class I3BarSink: OutputSink {
    public let output = HostConfig.Output.stdout
    public let sortByRelevance: Bool
    private let emit: ([UInt8]) -> Void
    private var current: [String: WidgetOutput] = [:]
    private var started = false

    public init(sortByRelevance: Bool = false, emit: @escaping ([UInt8]) -> Void) {
        self.sortByRelevance = sortByRelevance
        self.emit = emit
    }

    public static let header = #"{"version":1,"click_events":true,"stop_signal":0}"#

    /// Writes the header and the opening of the endless array (once), with an empty first line.
    public func start() {
        guard !started else { return }
        started = true
        emit(Array((Self.header + "\n[\n[]\n").utf8))
    }

    public func write(_ o: WidgetOutput) {
        start()
        if o.removed == true { current[o.id] = nil } else { current[o.id] = o }
        emit(Array(("," + Self.statusLine(Array(current.values), sortByRelevance: sortByRelevance) + "\n").utf8))
    }

    public struct Block: Codable, Equatable, Sendable {
        public var full_text: String
        public var short_text: String?
        public var color: String?
        public var name: String
        public var instance: String
        public var urgent: Bool?
        public var markup: String?
    }

    public static func blocks(_ outputs: [WidgetOutput], sortByRelevance: Bool) -> [Block] {
        let sorted = outputs.sorted { a, b in
            if sortByRelevance {
                let ra = a.relevance ?? 0, rb = b.relevance ?? 0
                if ra != rb { return ra > rb }
            }
            return a.id < b.id
        }
        return sorted.map(block)
    }

    public static func block(_ o: WidgetOutput) -> Block {
        let short = shortText(o.text)
        var b = Block(full_text: o.pango ?? o.text, short_text: short == o.text ? nil : short, color: nil,
                      name: o.id, instance: o.kind, urgent: nil, markup: o.pango == nil ? nil : "pango")
        if o.pango != nil, let s = b.short_text { b.short_text = PangoRenderer.escape(s) }
        if o.error != nil && o.text.isEmpty {
            b.full_text = "\(o.id): error"; b.short_text = nil; b.markup = nil
            b.urgent = true; b.color = "#FF5555"
        } else if o.stale {
            b.color = "#888888"
        }
        return b
    }

    /// The text up to its first wide gap (two spaces or ` · `/` | `), at most 16 characters.
    static func shortText(_ text: String) -> String {
        var s = Substring(text)
        for sep in ["  ", " · ", " | "] { if let r = s.firstRange(of: sep) { s = s[..<r.lowerBound] } }
        if s.count > 16 { s = s.prefix(15) + "…" }
        return String(s)
    }

    public static func statusLine(_ outputs: [WidgetOutput], sortByRelevance: Bool) -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? e.encode(blocks(outputs, sortByRelevance: sortByRelevance))) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
