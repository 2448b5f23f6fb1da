import FoundationEssentials

/// Writes the wire types as JSON directly into bytes, in `WireCodec`'s conventions: sorted keys,
/// absent optionals omitted, dates as seconds since 1970, infinities and NaN as `"inf"`,
/// `"-inf"`, `"nan"`, `/` and non-ASCII unescaped. What it writes decodes (with `JSONDecoder` or
/// `WireJSONReader`) to the value written; integral numbers are written as integers, as
/// `JSONEncoder` writes them.
///
/// `JSONEncoder` cost as much as the reading it replaced (callgrind, issue 6): a plugin encodes
/// every timeline it answers, the host every timeline it keeps. Value type; used on one thread.
public struct WireJSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Per open container: whether the next member needs a comma first.
    private var needsComma: [Bool] = []

    public init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    /// The bytes written.
    public var data: Data { Data(bytes) }

    // MARK: - structure

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma.append(false) }
    public mutating func endObject() { needsComma.removeLast(); bytes.append(UInt8(ascii: "}")) }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma.append(false) }
    public mutating func endArray() { needsComma.removeLast(); bytes.append(UInt8(ascii: "]")) }

    /// The next member's key (callers give keys in sorted order).
    public mutating func key(_ k: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        k.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma[needsComma.count - 1] = false  // the value follows without a comma
    }

    /// A key chosen at run time (a dictionary's).
    public mutating func key(_ k: String) {
        separate()
        Self.appendEscaped(k, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    private mutating func separate() {
        guard let last = needsComma.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    // MARK: - scalars

    public mutating func string(_ s: String) { separate(); Self.appendEscaped(s, to: &bytes) }
    public mutating func bool(_ b: Bool) { separate(); bytes.append(contentsOf: (b ? "true" : "false").utf8) }
    public mutating func null() { separate(); bytes.append(contentsOf: "null".utf8) }
    public mutating func int(_ n: Int) { separate(); bytes.append(contentsOf: String(n).utf8) }

    public mutating func number(_ d: Double) {
        if d.isNaN { string("nan"); return }
        if d.isInfinite { string(d > 0 ? "inf" : "-inf"); return }
        separate()
        if d == d.rounded(), abs(d) < 1e15, !(d == 0 && d.sign == .minus) {
            bytes.append(contentsOf: String(Int(d)).utf8)
        } else {
            bytes.append(contentsOf: d.description.utf8)
        }
    }

    public mutating func date(_ d: Date) { number(d.timeIntervalSince1970) }

    // MARK: - optional members

    public mutating func member(_ k: StaticString, _ v: String?) { if let v { key(k); string(v) } }
    public mutating func member(_ k: StaticString, _ v: Double?) { if let v { key(k); number(v) } }
    public mutating func member(_ k: StaticString, _ v: Bool?) { if let v { key(k); bool(v) } }
    public mutating func member(_ k: StaticString, _ v: Int?) { if let v { key(k); int(v) } }
    public mutating func member(_ k: StaticString, _ v: Date?) { if let v { key(k); date(v) } }
    public mutating func member(_ k: StaticString, _ v: [Double]?) {
        guard let v else { return }
        key(k); beginArray(); for d in v { number(d) }; endArray()
    }
    public mutating func member(_ k: StaticString, _ v: [String]?) {
        guard let v else { return }
        key(k); beginArray(); for s in v { string(s) }; endArray()
    }
    public mutating func member(_ k: StaticString, _ v: StyleSpec?) { if let v { key(k); value(v) } }
    public mutating func member(_ k: StaticString, _ v: [String: JSONValue]?) { if let v { key(k); value(v) } }

    // MARK: - the wire types

    /// A response; nil when it carries a manifest (`describe`), which this writer leaves to `JSONEncoder`.
    public static func response(_ r: WireResponse) -> Data? {
        guard r.manifest == nil else { return nil }
        var w = WireJSONWriter(capacity: 256 + (r.entries?.count ?? 0) * 128)
        w.beginObject()
        if let entries = r.entries { w.key("entries"); w.value(entries) }
        w.member("error", r.error)
        w.member("missingResources", r.missingResources)
        w.key("ok"); w.bool(r.ok)
        if let p = r.policy { w.key("policy"); w.value(p) }
        w.member("reloadRequests", r.reloadRequests)
        w.endObject()
        return w.data
    }

    public mutating func value(_ entries: [WireEntry]) {
        beginArray()
        for e in entries { value(e) }
        endArray()
    }

    public mutating func value(_ e: WireEntry) {
        beginObject()
        key("date"); date(e.date)
        if let r = e.relevance {
            key("relevance"); beginObject(); key("duration"); number(r.duration); key("score"); number(r.score); endObject()
        }
        key("view"); value(e.view)
        endObject()
    }

    public mutating func value(_ p: WirePolicy) {
        beginObject(); member("date", p.date); key("type"); string(p.type); endObject()
    }

    public mutating func value(_ n: ViewNode) {
        beginObject()
        if let a = n.action {
            key("action"); beginObject()
            key("id"); string(a.id); key("intent"); string(a.intent); key("parameters"); value(a.parameters); member("title", a.title)
            endObject()
        }
        member("alignment", n.alignment)
        if let a = n.asset {
            key("asset"); beginObject()
            key("name"); string(a.name)
            key("variants"); beginArray()
            for v in a.variants {
                beginObject()
                member("appearance", v.appearance); key("height"); int(v.height); member("jpeg", v.jpeg); member("png", v.png)
                key("scale"); number(v.scale); key("width"); int(v.width)
                endObject()
            }
            endArray()
            endObject()
        }
        member("axes", n.axes)
        member("bounds", n.bounds)
        if let children = n.children { key("children"); beginArray(); for c in children { value(c) }; endArray() }
        if let d = n.date {
            key("date"); beginObject()
            member("countsDown", d.countsDown); member("date", d.date); member("end", d.end); member("fields", d.fields)
            member("start", d.start)
            key("style"); string(d.style)
            endObject()
        }
        if let items = n.gridItems {
            key("gridItems"); beginArray()
            for g in items {
                beginObject()
                member("alignment", g.alignment); member("maximum", g.maximum); member("minimum", g.minimum)
                key("size"); string(g.size); member("spacing", g.spacing)
                endObject()
            }
            endArray()
        }
        member("horizontalSpacing", n.horizontalSpacing)
        member("isOn", n.isOn)
        key("kind"); string(n.kind.rawValue)
        if let m = n.modifiers { key("modifiers"); value(m) }
        member("role", n.role)
        if let s = n.shape {
            key("shape"); beginObject()
            member("cornerRadius", s.cornerRadius); member("fill", s.fill); member("lineCap", s.lineCap); member("lineWidth", s.lineWidth); member("stroke", s.stroke)
            member("trimFrom", s.trimFrom); member("trimTo", s.trimTo); key("type"); string(s.type)
            endObject()
        }
        member("spacing", n.spacing)
        member("style", n.style)
        member("symbol", n.symbol)
        member("text", n.text)
        member("url", n.url)
        member("value", n.value)
        endObject()
    }

    public mutating func value(_ m: Modifiers) {
        beginObject()
        member("accessibilityHidden", m.accessibilityHidden)
        member("accessibilityLabel", m.accessibilityLabel)
        member("aspectRatio", m.aspectRatio)
        member("background", m.background)
        member("containerBackground", m.containerBackground)
        if let p = m.contentMargins { key("contentMargins"); insets(p) }
        member("contentMode", m.contentMode)
        if let f = m.font {
            key("font"); beginObject()
            member("design", f.design); member("italic", f.italic); member("size", f.size); key("style"); string(f.style); member("weight", f.weight)
            endObject()
        }
        member("fontDesign", m.fontDesign)
        member("foreground", m.foreground)
        if let f = m.frame {
            key("frame"); beginObject()
            member("alignment", f.alignment); member("height", f.height); member("maxHeight", f.maxHeight); member("maxWidth", f.maxWidth)
            member("minHeight", f.minHeight); member("minWidth", f.minWidth); member("width", f.width)
            endObject()
        }
        member("hidden", m.hidden)
        member("id", m.id)
        member("italic", m.italic)
        member("kerning", m.kerning)
        member("layoutPriority", m.layoutPriority)
        member("lineLimit", m.lineLimit)
        member("minimumScaleFactor", m.minimumScaleFactor)
        member("monospaced", m.monospaced)
        member("monospacedDigit", m.monospacedDigit)
        member("opacity", m.opacity)
        member("other", m.other)
        if let p = m.padding { key("padding"); insets(p) }
        member("privacySensitive", m.privacySensitive)
        member("redacted", m.redacted)
        member("rotation", m.rotation)
        member("textAlignment", m.textAlignment)
        member("textCase", m.textCase)
        member("tint", m.tint)
        member("tracking", m.tracking)
        member("truncationMode", m.truncationMode)
        member("weight", m.weight)
        member("widgetURL", m.widgetURL)
        endObject()
    }

    mutating func insets(_ p: EdgeInsetsSpec) {
        beginObject()
        key("bottom"); number(p.bottom); key("leading"); number(p.leading); key("top"); number(p.top); key("trailing"); number(p.trailing)
        endObject()
    }

    public mutating func value(_ s: StyleSpec) {
        beginObject()
        if let g = s.gradient { key("gradient"); beginArray(); for stop in g { value(stop) }; endArray() }
        member("gradientKind", s.gradientKind)
        member("gradientPoints", s.gradientPoints)
        member("name", s.name); member("opacity", s.opacity); member("rgba", s.rgba)
        endObject()
    }

    /// A request, as the host sends it to a worker (keys sorted as `JSONEncoder` sorts them).
    public mutating func value(_ r: WireRequest) {
        beginObject()
        if let a = r.action {
            key("action"); beginObject()
            key("id"); string(a.id)
            key("intent"); string(a.intent)
            key("parameters"); value(a.parameters)
            member("title", a.title)
            endObject()
        }
        member("colorScheme", r.colorScheme?.rawValue)
        member("configuration", r.configuration)
        if let size = r.displaySize {
            key("displaySize"); beginObject(); key("height"); number(size.height); key("width"); number(size.width); endObject()
        }
        member("family", r.family?.rawValue)
        member("isPreview", r.isPreview)
        member("kind", r.kind)
        key("op"); string(r.op.rawValue)
        member("renderingMode", r.renderingMode)
        endObject()
    }

    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: null()
        case .bool(let b): bool(b)
        case .number(let n): number(n)
        case .string(let s): string(s)
        case .array(let a): beginArray(); for e in a { value(e) }; endArray()
        case .object(let o): value(o)
        }
    }

    public mutating func value(_ o: [String: JSONValue]) {
        beginObject()
        for k in o.keys.sorted() { key(k); value(o[k]!) }
        endObject()
    }

    // MARK: - strings

    /// `s` as a JSON string: `"` and `\` escaped, control characters as `\n`-style or `\u00XX`
    /// escapes (as `JSONEncoder` writes them), everything else as its UTF-8.
    public static func appendEscaped(_ s: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0a: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0d: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0c: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          hex[Int(b >> 4)], hex[Int(b & 0xf)]])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
