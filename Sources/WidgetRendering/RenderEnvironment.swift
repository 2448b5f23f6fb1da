import FoundationEssentials
import OpenWidgetKit

/// Limits that keep every renderer bounded whatever the tree holds (DESIGN §6 caps trees in
/// the host too; these hold even when that cap is off).
enum RenderLimits {
    /// Nodes deeper than this are not rendered (a widget needs a handful of levels).
    static let maxDepth = 64
    /// Nodes visited per render.
    static let maxNodes = 4096
    /// Children of one node considered.
    static let maxChildren = 512
    /// Largest count of cells any single measurement may claim (points beyond are clamped).
    static let maxCells = 1 << 16
}

/// The style a run of inline text carries (Pango markup is made from it).
struct RunStyle: Hashable {
    var weight: String?
    var italic = false
    var monospaced = false
    var monospacedDigit = false
    var foreground: StyleSpec?
    var opacity: Double = 1
}

/// The inherited state of a node during rendering: SwiftUI's environment, reduced to what
/// the text renderers use. Style modifiers flow down; opacity and rotation compose.
struct RenderEnv {
    /// The render's options, held by reference: an environment is copied for every node, and
    /// copying the options' maps and strings (retaining each) with it was a tenth of a clock
    /// tick's instructions (issue 16).
    private let shared: SharedOptions
    var options: RenderOptions { shared.options }
    var redact: Bool
    var privacySensitive = false
    var style = RunStyle()
    var tint: StyleSpec?
    var rotation: Double = 0
    var lineLimit: Int?
    var textAlignment: String?
    /// `textCase`: `uppercase`, `lowercase`, or nil/`none` (as written).
    var textCase: String?
    /// `truncationMode`: `head`, `middle`, or nil (the tail).
    var truncationMode: String?
    var depth = 0

    init(root: ViewNode, options: RenderOptions) {
        self.shared = SharedOptions(options)
        self.redact = options.isPlaceholder(root)
    }

    /// The environment of a node carrying `m`, under this one.
    func applying(_ m: Modifiers?) -> RenderEnv {
        var e = self
        e.depth += 1
        guard let m else { return e }
        if let f = m.font {
            if let w = f.weight { e.style.weight = w } else if f.style == "headline" { e.style.weight = "semibold" }
            if f.design == "monospaced" { e.style.monospaced = true }
            if f.italic == true { e.style.italic = true }
        }
        if m.fontDesign == "monospaced" || m.monospaced == true { e.style.monospaced = true }
        if m.monospaced == false { e.style.monospaced = false }
        if let c = m.textCase { e.textCase = c }
        if let t = m.truncationMode { e.truncationMode = t }
        if let w = m.weight { e.style.weight = w }
        if let i = m.italic { e.style.italic = i }
        if let d = m.monospacedDigit { e.style.monospacedDigit = d }
        if let fg = m.foreground { e.style.foreground = fg }
        if let t = m.tint { e.tint = t }
        if let o = m.opacity, o.isFinite { e.style.opacity *= min(max(o, 0), 1) }
        if let r = m.rotation, r.isFinite { e.rotation += r }
        if let l = m.lineLimit { e.lineLimit = l }
        if let a = m.textAlignment { e.textAlignment = a }
        if options.redact != false, m.redacted == true { e.redact = true }
        if m.privacySensitive == true { e.privacySensitive = true }
        return e
    }

    /// Whether text here is shown redacted.
    var redacts: Bool {
        if options.redact == false { return false }
        return redact || (privacySensitive && options.redactPrivate)
    }

    /// `s` as shown here: letters and digits become "▒" (one per column) when redacted.
    func display(_ s: String) -> String {
        let cased = switch textCase {
        case "uppercase": s.uppercased()
        case "lowercase": s.lowercased()
        default: s
        }
        return redacts ? Self.redacted(cased) : cased
    }

    /// The glyph of an SF Symbol as shown here.
    func glyph(_ symbol: String) -> String {
        let g = options.glyphs.glyph(for: symbol)
        return redacts ? String(repeating: "▒", count: max(1, displayWidth(of: g))) : g
    }

    static func redacted(_ s: String) -> String {
        var out = ""
        for c in s {
            let isWord = c.unicodeScalars.first.map { $0.properties.isAlphabetic || $0.properties.numericType != nil } ?? false
            if isWord { out += String(repeating: "▒", count: max(1, displayWidth(of: c))) } else { out.append(c) }
        }
        return out
    }

    /// The text a `text` node shows: its live date at `now`, else its text; for a
    /// concatenation (`Text + Text`), its runs' texts in order.
    func text(of n: ViewNode) -> String {
        if let runs = n.children, n.kind == .text {
            return runs.prefix(RenderLimits.maxChildren).map { applying($0.modifiers).text(of: $0) }.joined()
        }
        if let d = n.date { return display(LiveDateFormatter.format(d, now: options.now, locale: options.locale)) }
        return display(n.text ?? "")
    }

    /// The styled runs a `text` node shows: one per run of a concatenation, else one.
    func runs(of n: ViewNode) -> [Run] {
        guard let runs = n.children, n.kind == .text else { return [Run(text: text(of: n), style: style)] }
        return runs.prefix(RenderLimits.maxChildren).flatMap { applying($0.modifiers).runs(of: $0) }
    }
}

/// One render's options, shared by the environments of all its nodes. Immutable.
private final class SharedOptions {
    let options: RenderOptions
    init(_ options: RenderOptions) { self.options = options }
}

/// Read-only questions about a tree, answered without recursion (any depth is safe).
enum TreeQuery {
    /// The fraction (0…1) a `progress` or `gauge` node shows at `now`; nil when it has none
    /// (an indeterminate `ProgressView()`).
    static func fraction(of n: ViewNode, now: Date) -> Double? {
        switch n.kind {
        case .progress:
            if let d = n.date { return LiveDateFormatter.fraction(d, now: now) }
            guard let v = n.value, v.isFinite else { return nil }
            return min(max(v, 0), 1)
        case .gauge:
            guard let v = n.value, v.isFinite else { return nil }
            var lo = 0.0, hi = 1.0
            if let b = n.bounds, b.count == 2, b[0].isFinite, b[1].isFinite { lo = b[0]; hi = b[1] }
            guard hi > lo else { return v >= hi ? 1 : 0 }
            return min(max((v - lo) / (hi - lo), 0), 1)
        default:
            return nil
        }
    }

    /// The first node (depth first, in tree order) matching `test`.
    static func first(in root: ViewNode, where test: (ViewNode) -> Bool) -> ViewNode? {
        var stack: [ViewNode] = [root]
        while let n = stack.popLast() {
            if test(n) { return n }
            if let c = n.children { stack.append(contentsOf: c.reversed()) }
        }
        return nil
    }

    /// What the bar fields need from the whole tree, found in one walk (`TreeFacts`).
    static func facts(of root: ViewNode) -> TreeFacts {
        var f = TreeFacts()
        f.visit(root)
        // Children arrays and the next index in each, parents before children: no node is
        // copied on the way (a copy retains every field), and any depth is safe.
        var stack: [(nodes: [ViewNode], next: Int)] = []
        if let c = root.children, !c.isEmpty { stack.append((c, 0)) }
        while let top = stack.indices.last {
            let (nodes, i) = stack[top]
            guard i < nodes.count else { stack.removeLast(); continue }
            stack[top].next = i + 1
            f.visit(nodes[i])
            if let c = nodes[i].children, !c.isEmpty { stack.append((c, 0)) }
        }
        return f
    }

    /// Quarter-circle glyph for a fraction: ○ ◔ ◑ ◕ ●.
    static func pie(_ f: Double) -> String {
        switch f {
        case ..<0.125: "○"
        case ..<0.375: "◔"
        case ..<0.625: "◑"
        case ..<0.875: "◕"
        default: "●"
        }
    }
}

/// Facts about a whole tree that the bar fields need, each the first in tree order (depth
/// first, parents before children): taken in one walk, where the waybar fields and the host's
/// entry renderer walked the tree five times per entry swap (issue 16).
public struct TreeFacts: Sendable {
    /// The first SF Symbol name (waybar's `alt`).
    public var firstSymbol: String?
    /// The first progress view or gauge (waybar's `percentage`).
    public var firstMeter: ViewNode?
    /// Whether any node carries `redacted` (the `placeholder` class).
    public var anyRedactedModifier = false
    /// The first `widgetURL`, or a `Link`'s URL when it comes first.
    public var url: String?
    /// The first `containerBackground`.
    public var containerBackground: StyleSpec?

    mutating func visit(_ n: ViewNode) {
        if firstSymbol == nil, let s = n.symbol { firstSymbol = s }
        if firstMeter == nil, n.kind == .progress || n.kind == .gauge { firstMeter = n }
        if let m = n.modifiers {
            if m.redacted == true { anyRedactedModifier = true }
            if url == nil, let u = m.widgetURL { url = u }
            if containerBackground == nil, let b = m.containerBackground { containerBackground = b }
        }
        if url == nil, n.kind == .link, let u = n.url { url = u }
    }
}
