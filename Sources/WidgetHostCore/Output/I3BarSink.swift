import FoundationEssentials
import OpenWidgetKit
import WidgetRendering

/// `run --stdout i3bar`: the i3bar/swaybar protocol (DESIGN §8). The header
/// `{"version":1,"click_events":true,"stop_signal":0}`, then an endless array with one status
/// line (an array of blocks) per change. One block per widget: `full_text`, `short_text`,
/// `color`, `background`/`border`, `min_width`/`align`, `separator`/`separator_block_width`,
/// `name` (the widget id), `instance` (its kind), `urgent`, and `markup: "pango"` when the
/// rendering uses Pango styling (see `block`). Removed widgets leave the line.
///
/// Blocks are ordered by widget id, or with `sortByRelevance` by the current entry's relevance
/// (highest first; none counts as 0; ties by id). Each widget's block is encoded when the
/// widget changes and kept, so a clock's tick encodes one block, not the whole line (issue 16).
/// Threading: loop thread only.
public final class I3BarSink: OutputSink {
    public let output = HostConfig.Output.stdout
    public let sortByRelevance: Bool
    private let emit: ([UInt8]) -> Void
    private var current: [String: WidgetOutput] = [:]
    /// Each current widget's block as JSON.
    private var encoded: [String: [UInt8]] = [:]
    /// The ids in line order; nil when a widget came, went or (sorted by relevance) changed it.
    private var order: [String]?
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
        if o.removed == true {
            current[o.id] = nil; encoded[o.id] = nil; order = nil
        } else {
            if current[o.id].map({ sortByRelevance && $0.relevance != o.relevance }) ?? true { order = nil }
            current[o.id] = o
            encoded[o.id] = Self.block(o).json()
        }
        if order == nil { order = Self.ordered(Array(current.values), sortByRelevance: sortByRelevance).map(\.id) }
        var line: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: "[")]
        for (i, id) in (order ?? []).enumerated() {
            if i > 0 { line.append(UInt8(ascii: ",")) }
            line += encoded[id] ?? []
        }
        line += [UInt8(ascii: "]"), 0x0A]
        emit(line)
    }

    public struct Block: Codable, Equatable, Sendable {
        public var full_text: String
        public var short_text: String?
        public var color: String?
        public var background: String?
        public var border: String?
        public var min_width: String?
        public var align: String?
        public var name: String
        public var instance: String
        public var urgent: Bool?
        public var separator: Bool?
        public var separator_block_width: Int?
        public var markup: String?

        /// The block as `JSONEncoder` writes it with sorted keys and unescaped slashes (absent
        /// members omitted), written directly (`WireJSONWriter`; a test compares the two).
        public func json() -> [UInt8] {
            var w = WireJSONWriter(capacity: 96 + full_text.utf8.count * 2)
            w.beginObject()
            w.member("align", align)
            w.member("background", background)
            w.member("border", border)
            w.member("color", color)
            w.key("full_text"); w.string(full_text)
            w.key("instance"); w.string(instance)
            w.member("markup", markup)
            w.member("min_width", min_width)
            w.key("name"); w.string(name)
            w.member("separator", separator)
            w.member("separator_block_width", separator_block_width)
            w.member("short_text", short_text)
            w.member("urgent", urgent)
            w.endObject()
            return w.bytes
        }
    }

    public static func blocks(_ outputs: [WidgetOutput], sortByRelevance: Bool) -> [Block] {
        ordered(outputs, sortByRelevance: sortByRelevance).map(block)
    }

    static func ordered(_ outputs: [WidgetOutput], sortByRelevance: Bool) -> [WidgetOutput] {
        outputs.sorted { a, b in
            if sortByRelevance {
                let ra = a.relevance ?? 0, rb = b.relevance ?? 0
                if ra != rb { return ra > rb }
            }
            return a.id < b.id
        }
    }

    /// One widget's block. Text with digits gets a `min_width` of the same text (its short text,
    /// when it has one) with every digit a `0`, centred, so a ticking clock or a changing
    /// percentage does not make the blocks after it jitter. A widget with a `containerBackground` colour is drawn on it as a
    /// pill (`background`, `border`, no separator line, a wider gap), as i3blocks users style
    /// blocks by hand.
    public static func block(_ o: WidgetOutput) -> Block {
        let short = shortText(o.text)
        var b = Block(full_text: o.pango ?? o.text, short_text: short == o.text ? nil : short, color: nil,
                      name: o.id, instance: o.kind, urgent: nil, markup: o.pango == nil ? nil : "pango")
        if o.pango != nil, let s = b.short_text { b.short_text = PangoRenderer.escape(s) }
        // Sized from the short text when there is one: i3bar keeps min_width when it switches to
        // short texts, so a full-text width would leave a narrow bar's block blank.
        let shown = short == o.text ? o.text : short
        if let width = minWidth(shown) {
            b.min_width = width
            b.align = "center"
        }
        if let bg = o.background {
            b.background = bg; b.border = bg
            b.separator = false; b.separator_block_width = 15
        }
        if o.error != nil && o.text.isEmpty {
            b.full_text = "\(o.id): error"; b.short_text = nil; b.markup = nil; b.min_width = nil; b.align = nil
            b.urgent = true; b.color = "#FF5555"
        } else if o.stale {
            b.color = "#888888"
        }
        return b
    }

    /// `text` with every digit a `0`, or nil when it has none (per byte for ASCII text, per
    /// Character otherwise: `isNumber` counts `½` and other scripts' digits).
    static func minWidth(_ text: String) -> String? {
        var ascii = true, digits = false
        for b in text.utf8 {
            if b >= 0x80 { ascii = false; break }
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") { digits = true }
        }
        if ascii {
            guard digits else { return nil }
            return String(decoding: text.utf8.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") ? UInt8(ascii: "0") : $0 }, as: UTF8.self)
        }
        guard text.contains(where: \.isNumber) else { return nil }
        return String(text.map { $0.isNumber ? "0" : $0 })
    }

    /// What i3bar shows when the bar is too narrow for every `full_text`: at most 16 characters,
    /// cut only between words. Controls (`[⊕ Log]`, `[x] Done`) go first (a click on the block
    /// works all the same), then words without digits from the right (`Nov`, `Sun` of a clock;
    /// a label at the start stays longest), then whole words from the left; a leading symbol
    /// stays.
    ///
    /// Runs on every tick of a clock (the Swift clock's block cost three times its render when
    /// words were joined and recounted per step, issue 16): each word is counted once, and the
    /// length of what is kept is kept as a sum. A word's count is taken with the space before it
    /// (`" " + word`, minus one), so a word that starts with a combining mark counts as it does
    /// once joined.
    static func shortText(_ text: String, limit: Int = 16) -> String {
        if text.utf8.count <= limit, isPlain(text) { return text }  // bytes >= characters
        let source = dropControls(text)
        var words = source.split(separator: " ", omittingEmptySubsequences: true)
        var lead: Substring?
        if let first = words.first, first.count <= 2, !first.contains(where: { $0.isLetter || $0.isNumber }) {
            lead = first
            words.removeFirst()
        }
        // Characters each part adds to the joined text, its separator included (none before the first part).
        var adds = words.enumerated().map { i, w in i == 0 && lead == nil ? w.count : (" " + w).count }
        var kept = Array(repeating: true, count: words.count)
        var keptCount = words.count
        var total = (lead?.count ?? 0) + adds.reduce(0, +)
        func remove(_ i: Int) {
            kept[i] = false
            keptCount -= 1
            total -= adds[i]
            // The next kept word becomes the first part when nothing precedes it: its separator goes.
            if lead == nil, let next = ((i + 1)..<words.count).first(where: { kept[$0] }),
               !(0..<i).contains(where: { kept[$0] }) {
                let own = words[next].count
                total -= adds[next] - own
                adds[next] = own
            }
        }
        while total > limit, keptCount > 1, let i = words.indices.last(where: { kept[$0] && !words[$0].contains(where: \.isNumber) }) { remove(i) }
        while total > limit, keptCount > 1, let i = words.indices.first(where: { kept[$0] }) { remove(i) }
        var out = ((lead.map { [$0] } ?? []) + words.indices.filter { kept[$0] }.map { words[$0] }).joined(separator: " ")
        if total > limit { out = String(out.prefix(limit - 1)) + "…" }  // one word longer than the limit
        return out
    }

    /// True when `dropControls` would return `text` itself: no `[`, no space at either end, no two in a row.
    private static func isPlain(_ text: String) -> Bool {
        var previousSpace = true
        for b in text.utf8 {
            if b == UInt8(ascii: "[") { return false }
            let space = b == UInt8(ascii: " ")
            if space && previousSpace { return false }
            previousSpace = space
        }
        return !previousSpace || text.isEmpty
    }

    /// `text` without its controls: `[…]` groups and the `[x] ` / `[ ] ` marks of toggles.
    static func dropControls(_ text: String) -> String {
        if isPlain(text) { return text }
        var out = "", depth = 0
        for c in text {
            if c == "[" { depth += 1; continue }
            if c == "]" && depth > 0 { depth -= 1; continue }
            if depth == 0 { out.append(c) }
        }
        return out.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// One status line: the blocks of `outputs` as a JSON array.
    public static func statusLine(_ outputs: [WidgetOutput], sortByRelevance: Bool) -> String {
        var line: [UInt8] = [UInt8(ascii: "[")]
        for (i, b) in blocks(outputs, sortByRelevance: sortByRelevance).enumerated() {
            if i > 0 { line.append(UInt8(ascii: ",")) }
            line += b.json()
        }
        line.append(UInt8(ascii: "]"))
        return String(decoding: line, as: UTF8.self)
    }
}
