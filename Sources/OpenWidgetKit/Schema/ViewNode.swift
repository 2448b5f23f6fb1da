import FoundationEssentials

/// One node of an evaluated view tree.
///
/// This is the wire schema shared by plugins and host: a plugin evaluates its SwiftUI-style
/// views into `ViewNode`s (per entry, per family), the host stores and renders them. It is a
/// plain value type (safe to share across threads) and is append-only: new fields are optional,
/// so an older host ignores what it does not know. Unknown `kind`s decode as `.unknown` and
/// render as their children, so a newer plugin never crashes an older renderer.
///
/// Dimensions are points; `Double.infinity` is written as the string `"inf"` (see `WireCodec`).
///
/// The large, rarely set parts (modifiers, shape, live date, action) live in immutable boxes, so
/// a node is about 200 bytes instead of 992 and copying one (entries are copied through the
/// scheduler, the renderers and the store) moves little (issue 6). They read and write like
/// plain optional properties.
public struct ViewNode: Codable, Hashable, Sendable {
    public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
        /// Renders nothing (`EmptyView`, a false `if` without `else`).
        case empty
        /// Children laid out as in a `VStack` but with no visual of its own (`Group`, a `ForEach`
        /// or `TupleView` that had to be materialised, a wrapper created by modifier order).
        case group
        case text, image, label
        case hstack, vstack, zstack
        case spacer, divider
        /// `ProgressView(value:)` (`value` 0…1) or `ProgressView(timerInterval:)` (`date`).
        case progress
        /// `Gauge(value:in:)`: `value` and `bounds`; children carry roles.
        case gauge
        case link, button, toggle
        case shape
        /// A `Color` used as a view.
        case color
        /// `ViewThatFits(in:)`: the first child (in order) whose ideal size fits the offer on
        /// `axes` is shown, else the last. (Added in SDK 0.3; older renderers show all children.)
        case viewThatFits
        /// `AccessoryWidgetBackground()`: the system's translucent backdrop of accessory widgets.
        case accessoryWidgetBackground
        /// `Grid`: children are `gridRow`s (or single views spanning all columns); cells of one
        /// column share its width. `spacing` is the vertical, `horizontalSpacing` the horizontal
        /// spacing; `alignment` as a `ZStack`'s.
        case grid
        /// `GridRow`: one row of a `grid`; `alignment` is its vertical alignment.
        case gridRow
        /// `LazyVGrid(columns:)`: children flow into rows of `gridItems.count` columns (an
        /// `adaptive` item: as many as fit); `spacing` between rows.
        case lazyVGrid
        /// `LazyHGrid(rows:)`: children flow into columns of `gridItems.count` rows.
        case lazyHGrid
        case unknown

        public init(from decoder: any Decoder) throws {
            let raw = try decoder.singleValueContainer().decode(String.self)
            self = Kind(rawValue: raw) ?? .unknown
        }
    }

    public var kind: Kind
    /// Role of this node inside its parent: `"label"`, `"currentValueLabel"`,
    /// `"minimumValueLabel"`, `"maximumValueLabel"` (gauge), `"icon"`, `"title"` (label).
    public var role: String?
    public var children: [ViewNode]?

    /// Text content, already formatted (interpolation and `format:` are resolved in the plugin).
    public var text: String?
    /// A live date (`Text(date, style:)`, `Text(range)`, `ProgressView(timerInterval:)`):
    /// rendered by the host at display time, so it ticks without a plugin call.
    @inlinable public var date: DateText? {
        get { _date?.value }
        set { _date = newValue.map(Indirect.init) }
    }
    @usableFromInline var _date: Indirect<DateText>?
    /// SF Symbol name of an `Image(systemName:)`.
    public var symbol: String?
    /// The picture of an `Image("Name")` from the bundle's asset catalogue: its variants (1x,
    /// 2x, 3x PNG or JPEG) for the appearance evaluated; renderers draw the one nearest their scale.
    /// (Added in SDK 0.5; older renderers draw the placeholder of an unknown image.)
    @inlinable public var asset: ImageAsset? {
        get { _asset?.value }
        set { _asset = newValue.map(Indirect.init) }
    }
    @usableFromInline var _asset: Indirect<ImageAsset>?

    /// Stack alignment (`leading`/`center`/`trailing`, `top`/`center`/`bottom`,
    /// or `topLeading`… for a `ZStack`).
    public var alignment: String?
    /// Stack spacing in points; nil means the system default. For a `grid`, the vertical spacing.
    public var spacing: Double?
    /// `grid`: horizontal spacing between columns in points; nil means the system default.
    public var horizontalSpacing: Double?
    /// `viewThatFits`: the constrained axes, `"horizontal"`, `"vertical"` or nil for both.
    public var axes: String?
    /// `lazyVGrid` columns / `lazyHGrid` rows (`GridItem`s).
    public var gridItems: [GridItemSpec]?

    /// Progress fraction (0…1) or gauge value.
    public var value: Double?
    /// Gauge bounds `[lower, upper]` (default 0…1).
    public var bounds: [Double]?
    /// `gaugeStyle` / `progressViewStyle`, e.g. `"accessoryCircular"`, `"accessoryCircularCapacity"`,
    /// `"linearCapacity"`, `"circular"`.
    public var style: String?

    @inlinable public var shape: ShapeInfo? {
        get { _shape?.value }
        set { _shape = newValue.map(Indirect.init) }
    }
    @usableFromInline var _shape: Indirect<ShapeInfo>?

    /// `Link` destination.
    public var url: String?
    /// `Button(intent:)` / `Toggle(isOn:intent:)` action.
    @inlinable public var action: IntentAction? {
        get { _action?.value }
        set { _action = newValue.map(Indirect.init) }
    }
    @usableFromInline var _action: Indirect<IntentAction>?
    /// `Toggle` state.
    public var isOn: Bool?

    @inlinable public var modifiers: Modifiers? {
        get { _modifiers?.value }
        set { _modifiers = newValue.map(Indirect.init) }
    }
    @usableFromInline var _modifiers: Indirect<Modifiers>?

    public init(kind: Kind, children: [ViewNode]? = nil) {
        self.kind = kind
        self.children = (children?.isEmpty ?? true) ? nil : children
    }

    /// Children, or an empty array.
    public var childNodes: [ViewNode] { children ?? [] }

    /// The modifiers, or an empty set.
    public var mods: Modifiers { modifiers ?? Modifiers() }

    /// Calls `body` on this node and every descendant, depth first, parents before children.
    public func walk(_ body: (ViewNode) throws -> Void) rethrows {
        try body(self)
        for c in childNodes { try c.walk(body) }
    }

    /// Number of nodes in this tree (this one included).
    public var nodeCount: Int { size.nodes }

    /// Depth of this tree (a leaf is 1).
    public var depth: Int { size.depth }

    /// Node count and depth in one walk (the host checks both on every answer).
    /// The first of `entries` whose view has more than `maxNodes` nodes or is deeper than
    /// `maxDepth`, with its size; nil when none. Each entry is read in place: a copy of an entry
    /// retains every box of its view, and the host checks every answer (issue 16: the copies
    /// were 85 % of the check of a clock's 60 entries).
    public static func firstOversized(in entries: [WireEntry], maxNodes: Int, maxDepth: Int) -> (index: Int, nodes: Int, depth: Int)? {
        entries.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let offset = MemoryLayout<WireEntry>.offset(of: \WireEntry.view) else { return nil }
            for i in 0..<buffer.count {
                let view = (UnsafeRawPointer(base + i) + offset).assumingMemoryBound(to: ViewNode.self)
                let (nodes, depth) = size(at: view)
                if depth > maxDepth || nodes > maxNodes { return (i, nodes, depth) }
            }
            return nil
        }
    }

    /// `size` of the node at `p`, read in place (`.pointee.size` copied the node first).
    private static func size(at p: UnsafePointer<ViewNode>) -> (nodes: Int, depth: Int) {
        guard let children = p.pointee.children, !children.isEmpty else { return (1, 1) }
        var nodes = 1, deepest = 0
        children.withUnsafeBufferPointer { b in
            for j in 0..<b.count {
                let s = size(at: b.baseAddress! + j)
                nodes += s.nodes
                deepest = max(deepest, s.depth)
            }
        }
        return (nodes, deepest + 1)
    }

    public var size: (nodes: Int, depth: Int) {
        var nodes = 1, deepest = 0
        for c in children ?? [] {
            let s = c.size
            nodes += s.nodes
            deepest = max(deepest, s.depth)
        }
        return (nodes, deepest + 1)
    }
}

/// Immutable heap storage for a large optional field of `ViewNode`: a copy of the node
/// retains it instead of copying it. Compared and hashed by value. Safe to share across threads.
public final class Indirect<Value: Hashable & Sendable>: Hashable, Sendable {
    public let value: Value
    @inlinable public init(_ value: Value) { self.value = value }
    public static func == (a: Indirect, b: Indirect) -> Bool { a === b || a.value == b.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// An asset catalogue image in a view tree: its name and the PNG or JPEG files of its image set for the
/// appearance the view was evaluated in. The bytes travel in the tree so the host and the render
/// process, which never load the plugin, can draw them; `WireValidation` bounds their number and
/// size (`maxImageVariants`, `maxImageBase64Bytes`, `maxImagePixels`).
public struct ImageAsset: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, variants }
    public var name: String
    public var variants: [ImageVariant]

    public init(name: String, variants: [ImageVariant]) { self.name = name; self.variants = variants }

    /// The variant to draw at `scale` pixels per point: the smallest scale at least `scale`,
    /// else the largest (a 2x picture draws the 2x file; 3x content shrinks, 1x grows); only
    /// variants of scale 1…`WireValidation.maxImageScale` count.
    public func variant(forScale scale: Double) -> ImageVariant? {
        let sorted = variants.filter { $0.scale >= 1 && $0.scale <= WireValidation.maxImageScale }.sorted { $0.scale < $1.scale }
        return sorted.first { $0.scale >= scale - 0.01 } ?? sorted.last
    }

    /// Size in points (of the largest-scale variant, whose points all variants share); nil when
    /// no variant has a usable scale and size.
    public var pointSize: (width: Double, height: Double)? {
        guard let v = variant(forScale: WireValidation.maxImageScale), v.width > 0, v.height > 0 else { return nil }
        return (Double(v.width) / v.scale, Double(v.height) / v.scale)
    }
}

/// A live date inside a view (DESIGN §5): the host, not the plugin, turns it into characters.
public struct DateText: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case style, date, start, end, countsDown, fields }

    /// `time`, `date`, `relative`, `offset`, `timer` (for `Text(date, style:)`), `range`
    /// (`Text(start...end)`) or `progress` (`ProgressView(timerInterval:)`).
    public var style: String
    /// The date of `Text(date, style:)`.
    public var date: Date?
    /// Interval of a `range` or `progress` (and of a `timer` that counts within one).
    public var start: Date?
    public var end: Date?
    /// `ProgressView(timerInterval:countsDown:)`.
    public var countsDown: Bool?
    /// The fields of a `Text(date, format: .dateTime…)` (`time` or `date` style) as a
    /// `DateFields` skeleton (`EEEEMMMd`), shown in the host's locale; nil: the style's text.
    public var fields: String?

    public init(style: String, date: Date? = nil, start: Date? = nil, end: Date? = nil, countsDown: Bool? = nil, fields: String? = nil) {
        self.style = style; self.date = date; self.start = start; self.end = end; self.countsDown = countsDown; self.fields = fields
    }
}

/// A `ShapeStyle`: a named colour (`"orange"`, `"green"`, `"accent"`…), a hierarchical style
/// (`"primary"`, `"secondary"`, `"tertiary"`, `"quaternary"`), a fill style (`"fill.tertiary"`),
/// or an explicit colour (`rgba`, components 0…1), each with an optional opacity.
///
/// A gradient keeps its first colour in `name`/`rgba` (what the text renderers show) and all
/// its stops in `gradient` (evenly spaced), from `gradientPoints` `[x0, y0, x1, y1]` (unit
/// points of the filled box) for a linear one.
public struct StyleSpec: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, rgba, opacity, gradient, gradientPoints, gradientKind }

    public var name: String?
    public var rgba: [Double]?
    public var opacity: Double?
    /// A gradient's colours, evenly spaced.
    public var gradient: [StyleSpec]?
    /// A linear gradient's start and end, in unit points: `[x0, y0, x1, y1]`. For a radial
    /// one the centre in unit points and the radii in points, `[cx, cy, startRadius,
    /// endRadius]`; for an angular one the centre and the angles in degrees, clockwise from
    /// the trailing side, `[cx, cy, startAngle, endAngle]`; for an elliptical one the centre and
    /// the radii as fractions of the box's size, `[cx, cy, startFraction, endFraction]`.
    public var gradientPoints: [Double]?
    /// `"radial"`, `"elliptical"` or `"angular"`; nil for a linear gradient. (Added in SDK 0.4;
    /// older renderers draw such a gradient as a linear one.)
    public var gradientKind: String?

    public init(name: String? = nil, rgba: [Double]? = nil, opacity: Double? = nil) {
        self.name = name; self.rgba = rgba; self.opacity = opacity
    }
}

/// A shape view (`Circle`, `Rectangle`, `RoundedRectangle`, `Capsule`, `Ellipse`) with its
/// fill, stroke and trim.
public struct ShapeInfo: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case type, cornerRadius, fill, stroke, lineWidth, lineCap, trimFrom, trimTo }

    /// `circle`, `rectangle`, `roundedRectangle`, `capsule`, `ellipse`.
    public var type: String
    public var cornerRadius: Double?
    public var fill: StyleSpec?
    public var stroke: StyleSpec?
    public var lineWidth: Double?
    /// `StrokeStyle.lineCap`: `round` or `square` (nil: `butt`).
    public var lineCap: String?
    public var trimFrom: Double?
    public var trimTo: Double?

    public init(type: String) { self.type = type }
}

/// The action of an interactive control.
public struct IntentAction: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case id, intent, parameters, title }

    /// Address of the control within its entry (`"0"`, `"1"`… in tree order); `click --target`.
    public var id: String
    /// The intent type's name, as the plugin registered it.
    public var intent: String
    /// The intent's `@Parameter` values.
    public var parameters: [String: JSONValue]
    /// Human-readable title (`AppIntent.title`).
    public var title: String?

    public init(id: String, intent: String, parameters: [String: JSONValue], title: String? = nil) {
        self.id = id; self.intent = intent; self.parameters = parameters; self.title = title
    }
}

/// Font request: a text style (`largeTitle`, `title`, `title2`, `title3`, `headline`,
/// `subheadline`, `body`, `callout`, `footnote`, `caption`, `caption2`) or `system` with a size.
public struct FontSpec: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case style, size, weight, design, italic }

    public var style: String
    public var size: Double?
    public var weight: String?
    public var design: String?
    public var italic: Bool?

    public init(style: String, size: Double? = nil, weight: String? = nil, design: String? = nil, italic: Bool? = nil) {
        self.style = style; self.size = size; self.weight = weight; self.design = design; self.italic = italic
    }
}

/// A `GridItem`: `size` is `"fixed"` (`minimum` = the size), `"flexible"` (`minimum`…`maximum`)
/// or `"adaptive"` (as many items of `minimum`…`maximum` as fit); `spacing` after it; `alignment`
/// as a frame's.
public struct GridItemSpec: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case size, minimum, maximum, spacing, alignment }

    public var size: String
    public var minimum: Double?
    public var maximum: Double?
    public var spacing: Double?
    public var alignment: String?
    public init(size: String, minimum: Double? = nil, maximum: Double? = nil, spacing: Double? = nil, alignment: String? = nil) {
        self.size = size; self.minimum = minimum; self.maximum = maximum; self.spacing = spacing; self.alignment = alignment
    }
}

/// Edge insets in points.
public struct EdgeInsetsSpec: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case top, leading, bottom, trailing }

    public var top: Double, leading: Double, bottom: Double, trailing: Double
    public init(top: Double, leading: Double, bottom: Double, trailing: Double) {
        self.top = top; self.leading = leading; self.bottom = bottom; self.trailing = trailing
    }
}

/// `.frame(...)`: fixed or flexible. `maxWidth: .infinity` is `Double.infinity`.
public struct FrameSpec: Codable, Hashable, Sendable {
    enum CodingKeys: String, CodingKey, CaseIterable { case width, height, minWidth, maxWidth, minHeight, maxHeight, alignment }

    public var width: Double?, height: Double?
    public var minWidth: Double?, maxWidth: Double?
    public var minHeight: Double?, maxHeight: Double?
    public var alignment: String?
    public init(width: Double? = nil, height: Double? = nil, minWidth: Double? = nil, maxWidth: Double? = nil,
                minHeight: Double? = nil, maxHeight: Double? = nil, alignment: String? = nil) {
        self.width = width; self.height = height; self.minWidth = minWidth; self.maxWidth = maxWidth
        self.minHeight = minHeight; self.maxHeight = maxHeight; self.alignment = alignment
    }
}

/// The modifiers applied to a node.
///
/// Style modifiers (font, weight, foreground, tint, redaction…) are inherited by descendants,
/// as SwiftUI's environment is. Layout modifiers apply in a fixed order — content, then
/// `padding`, then `frame`, then `background` — and the SDK wraps a node in a `group` when an
/// author's modifier order differs, so this order is always the author's.
public struct Modifiers: Codable, Hashable, Sendable {
    public var font: FontSpec?
    /// `fontWeight` / `bold()`: `ultraLight`…`black`.
    public var weight: String?
    public var italic: Bool?
    public var monospacedDigit: Bool?
    public var foreground: StyleSpec?
    public var tint: StyleSpec?
    public var padding: EdgeInsetsSpec?
    public var frame: FrameSpec?
    public var background: StyleSpec?
    public var lineLimit: Int?
    public var minimumScaleFactor: Double?
    public var opacity: Double?
    /// `rotationEffect`, degrees clockwise.
    public var rotation: Double?
    public var widgetURL: String?
    public var containerBackground: StyleSpec?
    /// `redacted(reason: .placeholder)`.
    public var redacted: Bool?
    public var privacySensitive: Bool?
    public var accessibilityLabel: String?
    /// `.hidden()`.
    public var hidden: Bool?
    /// `layoutPriority`.
    public var layoutPriority: Double?
    /// `multilineTextAlignment`: `leading`, `center`, `trailing`.
    public var textAlignment: String?
    /// `fontDesign`: `default`, `rounded`, `monospaced`, `serif` (inherited; a `font`'s own
    /// design wins).
    public var fontDesign: String?
    /// `monospaced()`: every glyph one width (inherited).
    public var monospaced: Bool?
    /// `kerning` / `tracking` in points (inherited; pixel renderers only).
    public var kerning: Double?
    public var tracking: Double?
    /// `textCase`: `uppercase` or `lowercase` (inherited; renderers change the characters).
    public var textCase: String?
    /// `truncationMode`: `head`, `middle`, `tail` (default) — where "…" goes when text is cut.
    public var truncationMode: String?
    /// `aspectRatio(_:contentMode:)` / `scaledToFit` / `scaledToFill`: width ÷ height (nil =
    /// the content's own) and `contentMode` (`fit` or `fill`).
    public var aspectRatio: Double?
    public var contentMode: String?
    /// `.id(_:)`: the identity, as its description.
    public var id: String?
    /// `accessibilityHidden(true)`: hidden from assistive technologies, still drawn.
    public var accessibilityHidden: Bool?
    /// On a widget's root node: the content margins of the family in points (iOS's defaults,
    /// zero after `.contentMarginsDisabled()`). Renderers inset the content by them, except
    /// the `containerBackground` and nodes with `ignoresContentMargins`.
    public var contentMargins: EdgeInsetsSpec?
    /// Pixel-only modifiers the text renderers ignore but keep for later renderers
    /// (`shadow`, `blur`, `contentTransition`, `widgetAccentable`, `widgetAccentedRenderingMode`,
    /// `symbolRenderingMode`, `imageScale`…): name → argument.
    public var other: [String: JSONValue]?

    public init() {}

    public var isEmpty: Bool { self == Modifiers() }
}
