import FoundationEssentials
import OpenWidgetKit
import WidgetRendering

/// How a box sizes itself and places its children.
enum Behaviour {
    case stack(Axis), zstack, text, image(resizable: Bool), spacer, divider, fill
    case progressLinear, gaugeLinear, fixed(Size)
    /// A ring (circular progress and gauge styles): `ideal` points across, growing with the
    /// proposal up to `largest` (equal for a ring that never grows), never shrinking below `ideal`.
    case circularControl(ideal: Double, largest: Double)
    /// `ViewThatFits` constrained on these axes.
    case viewThatFits(horizontal: Bool, vertical: Bool)
    /// `Grid` (its `GridRow` children are stacks until the grid lays their cells out).
    case grid
    /// `LazyVGrid` (tracks across the horizontal axis) or `LazyHGrid` (vertical).
    case lazyGrid(Axis)
}

/// The sanitized `.frame(...)` of a box: every length finite and ≥ 0 except a `max` that may
/// be `.infinity`; `min ≤ max`.
struct FrameBox {
    var width: Double?, height: Double?
    var minWidth: Double?, maxWidth: Double?, minHeight: Double?, maxHeight: Double?
    var alignment: AlignmentSpec
    var isFixed: Bool { width != nil || height != nil }
}

/// Inherited layout state (the part of SwiftUI's environment that changes sizes).
struct LayoutEnvironment {
    var fontSpec: FontSpec?
    var weight: String?
    var italic: Bool?
    var monospacedDigit: Bool?
    /// `tracking` (or `kerning`) in points.
    var tracking: Double?
    var strikethrough = false
    var underline = false
    var lineLimit: Int?
    var minimumScaleFactor = 1.0
    var textAlignment = 0.0
    /// `textCase`: `uppercase` or `lowercase` (inherited), applied to the characters laid out.
    var textCase: String?
    var parentAxis: Axis?

    func applying(_ m: Modifiers?) -> LayoutEnvironment {
        guard let m else { return self }
        var e = self
        if let f = m.font { e.fontSpec = f; e.weight = nil }
        if let w = m.weight { e.weight = w }
        if let i = m.italic { e.italic = i }
        if let d = m.monospacedDigit { e.monospacedDigit = d }
        if let t = m.tracking ?? m.kerning, t.isFinite { e.tracking = t }
        if case .bool(let s)? = m.other?["strikethrough"] { e.strikethrough = s }
        if case .bool(let u)? = m.other?["underline"] { e.underline = u }
        if let l = m.lineLimit { e.lineLimit = min(max(l, 1), 1000) }
        if let s = m.minimumScaleFactor, s.isFinite { e.minimumScaleFactor = min(max(s, 0.01), 1) }
        if let a = m.textAlignment { e.textAlignment = a == "center" ? 0.5 : (a == "trailing" ? 1 : 0) }
        if let c = m.textCase { e.textCase = c }
        return e
    }

    var font: ResolvedFont {
        var f = ResolvedFont.resolve(fontSpec, weight: weight, italic: italic, monospacedDigit: monospacedDigit, tracking: tracking)
        f.strikethrough = strikethrough
        f.underline = underline
        return f
    }
}

/// One node prepared for layout: sanitized modifiers, resolved font and text, and a cache of
/// the sizes it chose per proposal. Lives for one layout, on the layout's thread.
final class LayoutBox {
    let node: ViewNode
    let behaviour: Behaviour
    let font: ResolvedFont
    let lineLimit: Int?
    let scaleFactor: Double
    let textAlignment: Double
    let parentAxis: Axis?
    var children: [LayoutBox] = []
    let padding: Insets?
    let frame: FrameBox?
    let fixedWidth: Bool, fixedHeight: Bool
    let priority: Double
    let offset: (x: Double, y: Double)
    let spacing: Double?
    /// A `Grid`'s `horizontalSpacing` (its `spacing` is the vertical one).
    let horizontalSpacing: Double?
    /// A lazy grid's items.
    let gridTracks: [GridTrack]
    /// `aspectRatio`: the ratio (width / height; nil: the content's ideal ratio) and whether
    /// it fills (else fits) the proposal.
    let aspect: (ratio: Double?, fill: Bool)?
    let alignment: AlignmentSpec
    /// An `HStack` aligned on text baselines: false for the first, true for the last; nil otherwise.
    let baselineAlignment: Bool?
    let text: String
    /// The `textCase` `text` was written in (`uppercase`, `lowercase`; nil: as is).
    let textCase: String?
    // Per-proposal caches. A box sees a handful of distinct proposals, so these are short
    // arrays searched linearly: cheaper than hashing for every query. A box is used by one
    // layout on one thread and never handed out, so the dynamic exclusivity checks of class
    // properties (a tenth of a layout's time in the profile) are turned off for them.
    @exclusivity(unchecked) var sizes = SmallCache<ProposedSize, Size>()
    /// The content's size per proposal (inside padding and frame).
    @exclusivity(unchecked) var contentSizes = SmallCache<ProposedSize, Size>()
    /// A stack's distribution per proposal (sizing and placement ask for the same ones).
    @exclusivity(unchecked) var distributions = SmallCache<ProposedSize, [(ProposedSize, Size)]>()
    @exclusivity(unchecked) var texts = SmallCache<ProposedSize, (PlacedText, Size)>()
    /// Text measurements by (font, width, lines): proposals that differ only in height share them.
    @exclusivity(unchecked) var measurements = SmallCache<MeasureKey, TextMeasurement>()
    /// A grid's arrangement per proposal.
    @exclusivity(unchecked) var grids = SmallCache<ProposedSize, GridArrangement>()

    init(node: ViewNode, behaviour: Behaviour, env: LayoutEnvironment, text: String) {
        self.node = node
        self.behaviour = behaviour
        self.font = env.font
        self.lineLimit = env.lineLimit
        self.scaleFactor = env.minimumScaleFactor
        self.textAlignment = env.textAlignment
        self.parentAxis = env.parentAxis
        self.text = text
        self.textCase = env.textCase
        let m = node.modifiers
        padding = m?.padding.map { p in
            Insets(top: Sanitize.inset(p.top), leading: Sanitize.inset(p.leading), bottom: Sanitize.inset(p.bottom), trailing: Sanitize.inset(p.trailing))
        }
        frame = m?.frame.map(Sanitize.frame)
        priority = m?.layoutPriority.flatMap { $0.isFinite ? $0 : nil } ?? 0
        let other = m?.other
        if case .object(let f)? = other?["fixedSize"] {
            fixedWidth = f["horizontal"] != .bool(false); fixedHeight = f["vertical"] != .bool(false)
        } else if other?["fixedSize"] == .bool(true) {
            fixedWidth = true; fixedHeight = true
        } else {
            fixedWidth = false; fixedHeight = false
        }
        if case .object(let o)? = other?["offset"] {
            offset = (Sanitize.offset(o["x"]), Sanitize.offset(o["y"]))
        } else {
            offset = (0, 0)
        }
        if let mode = node.modifiers?.contentMode {
            var ratio: Double?
            if let r = node.modifiers?.aspectRatio, r.isFinite, r > 0 { ratio = min(max(r, 1e-3), 1e3) }
            aspect = (ratio, mode == "fill")
        } else {
            aspect = nil
        }
        spacing = node.spacing.flatMap { $0.isFinite ? min(max($0, -LayoutLimits.maxLength), LayoutLimits.maxLength) : nil }
            ?? (node.kind == .label ? Self.labelGap(fontSize: font.size) : nil)
        horizontalSpacing = Sanitize.length(node.horizontalSpacing)
        gridTracks = (node.gridItems ?? []).prefix(64).map(GridTrack.init)
        alignment = AlignmentSpec(name: node.alignment)
        baselineAlignment = node.alignment == "firstTextBaseline" ? false : (node.alignment == "lastTextBaseline" ? true : nil)
    }

    /// The gap between a `Label`'s icon and title: half the font size, as iOS draws it (6 pt
    /// at caption size; the symbol's box is its glyph's width, so this is glyph to text).
    static func labelGap(fontSize: Double) -> Double { (fontSize * 0.5).rounded() }

    func child(role: String) -> LayoutBox? { children.first { $0.node.role == role } }
}

/// The arguments of one text measurement of a box (its text is the box's).
struct MeasureKey: Equatable {
    var font: ResolvedFont, width: Double?, maxLines: Int?
}

/// A few key–value pairs searched linearly, most recent first; past `limit` the oldest go.
/// Keys and values are kept in two arrays, so a search compares keys without copying values.
struct SmallCache<Key: Equatable, Value> {
    private var keys: [Key] = []
    private var values: [Value] = []
    static var limit: Int { 32 }

    subscript(key: Key) -> Value? {
        get {
            var i = keys.count - 1
            while i >= 0 {
                if keys[i] == key { return values[i] }
                i -= 1
            }
            return nil
        }
        set {
            guard let newValue else { return }
            if keys.isEmpty {
                // Most boxes see a few proposals: one allocation each instead of regrowing.
                keys.reserveCapacity(4)
                values.reserveCapacity(4)
            } else if keys.count >= Self.limit {
                keys.removeFirst(keys.count / 2)
                values.removeFirst(values.count / 2)
            }
            keys.append(key)
            values.append(newValue)
        }
    }
}

/// Turns untrusted numbers into lengths the layout can use.
enum Sanitize {
    /// A fixed length: NaN and ±∞ are ignored (nil), negatives are 0, huge values clamped.
    static func length(_ v: Double?) -> Double? {
        guard let v, v.isFinite else { return nil }
        return min(max(v, 0), LayoutLimits.maxLength)
    }
    /// A maximum: like `length`, but `.infinity` is kept.
    static func maximum(_ v: Double?) -> Double? {
        guard let v, !v.isNaN else { return nil }
        if v == .infinity { return v }
        return min(max(v, 0), LayoutLimits.maxLength)
    }
    static func inset(_ v: Double) -> Double { length(v) ?? 0 }
    static func offset(_ v: JSONValue?) -> Double {
        guard case .number(let n)? = v, n.isFinite else { return 0 }
        return min(max(n, -LayoutLimits.maxLength), LayoutLimits.maxLength)
    }
    static func frame(_ f: FrameSpec) -> FrameBox {
        var b = FrameBox(width: length(f.width), height: length(f.height),
                         minWidth: length(f.minWidth), maxWidth: maximum(f.maxWidth),
                         minHeight: length(f.minHeight), maxHeight: maximum(f.maxHeight),
                         alignment: AlignmentSpec(name: f.alignment))
        if let lo = b.minWidth, let hi = b.maxWidth, hi < lo { b.maxWidth = lo }
        if let lo = b.minHeight, let hi = b.maxHeight, hi < lo { b.maxHeight = lo }
        return b
    }
    /// A proposal with NaN made unspecified and negatives made 0.
    static func proposal(_ p: ProposedSize) -> ProposedSize {
        func one(_ v: Double?) -> Double? {
            guard let v, !v.isNaN else { return nil }
            return max(v, 0)
        }
        return ProposedSize(width: one(p.width), height: one(p.height))
    }
    /// A chosen size that can be drawn: non-finite or negative parts become the proposal (when
    /// finite) or 0.
    static func drawable(_ s: Size, _ p: ProposedSize) -> Size {
        func one(_ v: Double, _ q: Double?) -> Double {
            if v.isFinite { return min(max(v, 0), LayoutLimits.maxLength) }
            if let q, q.isFinite { return min(max(q, 0), LayoutLimits.maxLength) }
            return 0
        }
        return Size(width: one(s.width, p.width), height: one(s.height, p.height))
    }
}

/// Builds the box tree from a view tree, within `LayoutLimits`.
struct LayoutBoxBuilder {
    let now: Date
    var count = 0
    /// Whether a node built sets a `LayoutDirection` (`other["layoutDirection"]`).
    var namesDirection = false

    let locale: LocaleFormats
    init(now: Date, locale: LocaleFormats = .posix) { self.now = now; self.locale = locale }

    /// The characters text node `n` shows at `now`: its string, its live date formatted, or
    /// its runs (`Text + Text`, the children of role `run` among `runs`) one after another, each
    /// live date at `now`, in the text's own style (a run's own font or colour is not drawn
    /// apart); then `textCase`, then capped at `LayoutLimits.maxTextLength`. Pure.
    static func written(_ n: ViewNode, runs: [ViewNode], textCase: String?, now: Date, locale: LocaleFormats) -> String {
        let written = n.date.map { LiveDateFormatter.format($0, now: now, locale: locale) } ?? n.text
            ?? runs.filter { $0.role == "run" }.map { r in r.date.map { LiveDateFormatter.format($0, now: now, locale: locale) } ?? r.text ?? "" }.joined()
        let raw = switch textCase {
        case "uppercase": written.uppercased()
        case "lowercase": written.lowercased()
        default: written
        }
        return raw.utf8.count > LayoutLimits.maxTextLength && raw.count > LayoutLimits.maxTextLength
            ? String(raw.prefix(LayoutLimits.maxTextLength)) : raw
    }

    /// The children of `n` a box is built from (at most `LayoutLimits.maxChildren`).
    static func builtChildren(_ n: ViewNode) -> [ViewNode] {
        let kids = n.childNodes
        return kids.count > LayoutLimits.maxChildren ? Array(kids.prefix(LayoutLimits.maxChildren)) : kids
    }

    mutating func build(_ n: ViewNode, env parent: LayoutEnvironment, depth: Int) -> LayoutBox? {
        guard n.kind != .empty, depth < LayoutLimits.maxDepth, count < LayoutLimits.maxNodes else { return nil }
        // iPhone's Lock Screen ignores a `widgetLabel` (only watchOS complications show one), so
        // pictures leave it out; the text outputs still show it (TextRenderer).
        guard n.role != "widgetLabel" else { return nil }
        count += 1
        if !namesDirection, n.modifiers?.other?[LayoutDirection.modifierKey] != nil { namesDirection = true }
        var env = parent.applying(n.modifiers)
        let behaviour: Behaviour
        var text = ""
        var kids = Self.builtChildren(n)
        var childEnv = env
        /// The environment of a ring gauge's `currentValueLabel` (nil: `childEnv`).
        var valueEnv: LayoutEnvironment?
        var synthetic: [ViewNode] = []
        switch n.kind {
        case .hstack: behaviour = .stack(.horizontal)
        case .vstack: behaviour = .stack(.vertical)
        case .zstack: behaviour = .zstack
        case .text:
            behaviour = .text
            text = Self.written(n, runs: kids, textCase: env.textCase, now: now, locale: locale)
            kids.removeAll { $0.role == "run" }
        case .image:
            let resizable = n.modifiers?.other?["resizable"] == .bool(true)
            behaviour = .image(resizable: resizable)
        case .spacer: behaviour = .spacer
        case .divider: behaviour = .divider
        case .color, .shape: behaviour = .fill
        case .label:
            behaviour = .stack(.horizontal)
            switch n.style {
            case "iconOnly": kids = kids.filter { $0.role == "icon" }
            case "titleOnly": kids = kids.filter { $0.role != "icon" }
            default: kids = kids.filter { $0.role == "icon" } + kids.filter { $0.role != "icon" }
            }
        case .toggle where n.style == "button":
            // `.toggleStyle(.button)`: the label is the control (a checkbox image in a task
            // row); no switch beside it.
            behaviour = .stack(.horizontal)
        case .toggle:
            behaviour = .stack(.horizontal)
            var s = ViewNode(kind: .spacer); s.role = Self.syntheticSpacer
            var w = ViewNode(kind: .unknown); w.role = Self.switchRole
            synthetic = [s, w]
        case .progress:
            let determinate = n.value != nil || n.date != nil
            if n.style == "circular" || !determinate {
                behaviour = .circularControl(ideal: determinate ? 44 : 20, largest: determinate ? 44 : 20)
                Self.smallLabels(&childEnv)
            } else {
                behaviour = .progressLinear
            }
        case .gauge:
            switch n.style ?? "automatic" {
            case "accessoryCircular", "accessoryCircularCapacity":
                behaviour = .circularControl(ideal: Self.ringIdeal, largest: Self.accessoryRingLargest)
                Self.smallLabels(&childEnv)
                valueEnv = Self.ringValue(childEnv, inherited: env)
            case "circular":
                behaviour = .circularControl(ideal: Self.ringIdeal, largest: Self.ringIdeal)
                Self.smallLabels(&childEnv)
            default: behaviour = .gaugeLinear
            }
        case .button where n.style == "bordered" || n.style == "borderedProminent":
            behaviour = .stack(parent.parentAxis ?? .vertical)
            kids = [Self.bezel(around: kids)]
        case .group, .link, .button, .unknown, .empty:
            behaviour = .stack(parent.parentAxis ?? .vertical)
        case .viewThatFits:
            behaviour = .viewThatFits(horizontal: n.axes != "vertical", vertical: n.axes != "horizontal")
        case .grid: behaviour = .grid
        // Outside a Grid a row is an HStack; inside, the grid lays its cells out.
        case .gridRow: behaviour = .stack(.horizontal)
        case .lazyVGrid: behaviour = .lazyGrid(.horizontal)
        case .lazyHGrid: behaviour = .lazyGrid(.vertical)
        case .accessoryWidgetBackground: behaviour = .fill
        }
        if n.role == Self.switchRole { return LayoutBox(node: n, behaviour: .fixed(Size(width: 51, height: 31)), env: env, text: "") }
        if case .stack(let axis) = behaviour { childEnv.parentAxis = axis } else { childEnv.parentAxis = nil }
        env.parentAxis = parent.parentAxis
        let box = LayoutBox(node: n, behaviour: behaviour, env: env, text: text)
        box.children.reserveCapacity(kids.count + synthetic.count)
        for c in kids {
            let e = c.role == "currentValueLabel" ? valueEnv ?? childEnv : childEnv
            if let b = build(c, env: e, depth: depth + 1) { box.children.append(b) }
        }
        for c in synthetic {
            if let b = build(c, env: childEnv, depth: depth + 1) { box.children.append(b) }
        }
        return box
    }

    static let switchRole = "_switch"
    /// A bordered button's padding around its label (iOS's regular control size).
    static let bezelPadding = EdgeInsetsSpec(top: 7, leading: 12, bottom: 7, trailing: 12)

    /// The label of a `.bordered` / `.borderedProminent` button inside the bezel's padding.
    private static func bezel(around label: [ViewNode]) -> ViewNode {
        var b = ViewNode(kind: .group, children: label)
        b.role = PlacedNode.bezelRole
        var m = Modifiers()
        m.padding = bezelPadding
        b.modifiers = m
        return b
    }
    static let syntheticSpacer = "_toggleSpacer"

    /// A circular gauge style's ring across when nothing bigger is offered (SwiftUI's 58 pt).
    static let ringIdeal = 58.0
    /// The accessory gauge styles' ring grows up to the `accessoryCircular` circle (76 pt) less
    /// 2 pt each side, as iOS's nearly fills the Lock Screen circle.
    static let accessoryRingLargest = 72.0

    /// An accessory ring gauge's current value: without a font of the author's, a bolder and
    /// larger face than the caption labels (iOS draws it at about title-3 size, semibold).
    private static func ringValue(_ labels: LayoutEnvironment, inherited: LayoutEnvironment) -> LayoutEnvironment {
        guard inherited.fontSpec == nil else { return labels }
        var env = labels
        env.fontSpec = FontSpec(style: "system", size: 20)
        if inherited.weight == nil { env.weight = "semibold" }
        return env
    }

    /// Control labels drawn inside a ring default to caption sizes and shrink to fit.
    private static func smallLabels(_ env: inout LayoutEnvironment) {
        if env.fontSpec == nil { env.fontSpec = FontSpec(style: "caption") }
        env.minimumScaleFactor = min(env.minimumScaleFactor, 0.5)
        env.lineLimit = env.lineLimit ?? 1
    }
}
