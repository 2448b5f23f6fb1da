import FoundationEssentials

/// A direct JSON reader for a plugin's answer (`WireResponse` and the view schema under it):
/// one pass over the bytes, straight into the wire types, with no `Decoder` in between.
///
/// `JSONDecoder` cost about 23 000 instructions per view node (callgrind, issue 6): keyed
/// containers, coding paths and type-erased boxes for every field. This reader accepts what
/// `WireCodec.decoder()` accepts for these types — unknown keys skipped, `null` as absent,
/// `"inf"`/`"-inf"`/`"nan"` for doubles, dates as seconds since 1970, unknown view kinds as
/// `.unknown` — and throws at anything else (including a `manifest`, malformed UTF-8, a
/// fractional number where an `Int` goes, nesting deeper than 512), so that
/// `WireCodec.decodeResponse` can hand the bytes to `JSONDecoder` for its exact verdict and
/// message. Value type; used on one thread.
struct WireJSONReader {
    struct Unsupported: Error {}

    private let bytes: UnsafeRawBufferPointer
    private var i = 0
    private var depth = 0

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The response in `data`, or `Unsupported` (nothing is partially returned).
    static func response(from data: Data) throws -> WireResponse {
        try data.withUnsafeBytes { raw in
            var r = WireJSONReader(raw)
            let response = try r.response()
            r.skipSpace()
            guard r.i == raw.count else { throw Unsupported() }
            return response
        }
    }

    // MARK: - the wire types

    private mutating func response() throws -> WireResponse {
        var ok: Bool?
        var out = WireResponse(ok: false)
        try object { r, key in
            switch key {
            case "ok": ok = try r.bool()
            case "error": out.error = try r.optional { try $0.string() }
            case "entries": out.entries = try r.optional { try $0.array { try $0.entry() } }
            case "policy": out.policy = try r.optional { try $0.policy() }
            case "reloadRequests": out.reloadRequests = try r.optional { try $0.array { try $0.string() } }
            case "manifest": throw Unsupported()  // `describe`: rare, left to JSONDecoder
            default: try r.skipValue()
            }
        }
        guard let ok else { throw Unsupported() }
        out.ok = ok
        return out
    }

    private mutating func entry() throws -> WireEntry {
        var date: Date?, relevance: WireRelevance?, view: ViewNode?
        try object { r, key in
            switch key {
            case "date": date = try r.date()
            case "relevance": relevance = try r.optional { try $0.relevance() }
            case "view": view = try r.viewNode()
            default: try r.skipValue()
            }
        }
        guard let date, let view else { throw Unsupported() }
        return WireEntry(date: date, relevance: relevance, view: view)
    }

    private mutating func relevance() throws -> WireRelevance {
        var score: Double?, duration: Double?
        try object { r, key in
            switch key {
            case "score": score = try r.double()
            case "duration": duration = try r.double()
            default: try r.skipValue()
            }
        }
        guard let score, let duration else { throw Unsupported() }
        return WireRelevance(score: score, duration: duration)
    }

    private mutating func policy() throws -> WirePolicy {
        var type: String?, date: Date?
        try object { r, key in
            switch key {
            case "type": type = try r.string()
            case "date": date = try r.optional { try $0.date() }
            default: try r.skipValue()
            }
        }
        guard let type else { throw Unsupported() }
        return WirePolicy(type: type, date: date)
    }

    private mutating func viewNode() throws -> ViewNode {
        var kind: ViewNode.Kind?
        var n = ViewNode(kind: .empty)
        try object { r, key in
            switch key {
            case "kind": kind = ViewNode.Kind(rawValue: try r.string()) ?? .unknown
            case "role": n.role = try r.optional { try $0.string() }
            case "children": n.children = try r.optional { try $0.array { try $0.viewNode() } }
            case "text": n.text = try r.optional { try $0.string() }
            case "date": n.date = try r.optional { try $0.dateText() }
            case "symbol": n.symbol = try r.optional { try $0.string() }
            case "alignment": n.alignment = try r.optional { try $0.string() }
            case "spacing": n.spacing = try r.optional { try $0.double() }
            case "value": n.value = try r.optional { try $0.double() }
            case "bounds": n.bounds = try r.optional { try $0.array { try $0.double() } }
            case "style": n.style = try r.optional { try $0.string() }
            case "shape": n.shape = try r.optional { try $0.shape() }
            case "url": n.url = try r.optional { try $0.string() }
            case "action": n.action = try r.optional { try $0.action() }
            case "isOn": n.isOn = try r.optional { try $0.bool() }
            case "modifiers": n.modifiers = try r.optional { try $0.modifiers() }
            default: try r.skipValue()
            }
        }
        guard let kind else { throw Unsupported() }
        n.kind = kind
        return n
    }

    private mutating func dateText() throws -> DateText {
        var style: String?
        var d = DateText(style: "")
        try object { r, key in
            switch key {
            case "style": style = try r.string()
            case "date": d.date = try r.optional { try $0.date() }
            case "start": d.start = try r.optional { try $0.date() }
            case "end": d.end = try r.optional { try $0.date() }
            case "countsDown": d.countsDown = try r.optional { try $0.bool() }
            default: try r.skipValue()
            }
        }
        guard let style else { throw Unsupported() }
        d.style = style
        return d
    }

    private mutating func styleSpec() throws -> StyleSpec {
        var s = StyleSpec()
        try object { r, key in
            switch key {
            case "name": s.name = try r.optional { try $0.string() }
            case "rgba": s.rgba = try r.optional { try $0.array { try $0.double() } }
            case "opacity": s.opacity = try r.optional { try $0.double() }
            default: try r.skipValue()
            }
        }
        return s
    }

    private mutating func shape() throws -> ShapeInfo {
        var type: String?
        var s = ShapeInfo(type: "")
        try object { r, key in
            switch key {
            case "type": type = try r.string()
            case "cornerRadius": s.cornerRadius = try r.optional { try $0.double() }
            case "fill": s.fill = try r.optional { try $0.styleSpec() }
            case "stroke": s.stroke = try r.optional { try $0.styleSpec() }
            case "lineWidth": s.lineWidth = try r.optional { try $0.double() }
            case "trimFrom": s.trimFrom = try r.optional { try $0.double() }
            case "trimTo": s.trimTo = try r.optional { try $0.double() }
            default: try r.skipValue()
            }
        }
        guard let type else { throw Unsupported() }
        s.type = type
        return s
    }

    private mutating func action() throws -> IntentAction {
        var id: String?, intent: String?, parameters: [String: JSONValue]?, title: String?
        try object { r, key in
            switch key {
            case "id": id = try r.string()
            case "intent": intent = try r.string()
            case "parameters": parameters = try r.jsonObject()
            case "title": title = try r.optional { try $0.string() }
            default: try r.skipValue()
            }
        }
        guard let id, let intent, let parameters else { throw Unsupported() }
        return IntentAction(id: id, intent: intent, parameters: parameters, title: title)
    }

    private mutating func font() throws -> FontSpec {
        var style: String?
        var f = FontSpec(style: "")
        try object { r, key in
            switch key {
            case "style": style = try r.string()
            case "size": f.size = try r.optional { try $0.double() }
            case "weight": f.weight = try r.optional { try $0.string() }
            case "design": f.design = try r.optional { try $0.string() }
            case "italic": f.italic = try r.optional { try $0.bool() }
            default: try r.skipValue()
            }
        }
        guard let style else { throw Unsupported() }
        f.style = style
        return f
    }

    private mutating func insets() throws -> EdgeInsetsSpec {
        var top: Double?, leading: Double?, bottom: Double?, trailing: Double?
        try object { r, key in
            switch key {
            case "top": top = try r.double()
            case "leading": leading = try r.double()
            case "bottom": bottom = try r.double()
            case "trailing": trailing = try r.double()
            default: try r.skipValue()
            }
        }
        guard let top, let leading, let bottom, let trailing else { throw Unsupported() }
        return EdgeInsetsSpec(top: top, leading: leading, bottom: bottom, trailing: trailing)
    }

    private mutating func frame() throws -> FrameSpec {
        var f = FrameSpec()
        try object { r, key in
            switch key {
            case "width": f.width = try r.optional { try $0.double() }
            case "height": f.height = try r.optional { try $0.double() }
            case "minWidth": f.minWidth = try r.optional { try $0.double() }
            case "maxWidth": f.maxWidth = try r.optional { try $0.double() }
            case "minHeight": f.minHeight = try r.optional { try $0.double() }
            case "maxHeight": f.maxHeight = try r.optional { try $0.double() }
            case "alignment": f.alignment = try r.optional { try $0.string() }
            default: try r.skipValue()
            }
        }
        return f
    }

    private mutating func modifiers() throws -> Modifiers {
        var m = Modifiers()
        try object { r, key in
            switch key {
            case "font": m.font = try r.optional { try $0.font() }
            case "weight": m.weight = try r.optional { try $0.string() }
            case "italic": m.italic = try r.optional { try $0.bool() }
            case "monospacedDigit": m.monospacedDigit = try r.optional { try $0.bool() }
            case "foreground": m.foreground = try r.optional { try $0.styleSpec() }
            case "tint": m.tint = try r.optional { try $0.styleSpec() }
            case "padding": m.padding = try r.optional { try $0.insets() }
            case "frame": m.frame = try r.optional { try $0.frame() }
            case "background": m.background = try r.optional { try $0.styleSpec() }
            case "lineLimit": m.lineLimit = try r.optional { try $0.int() }
            case "minimumScaleFactor": m.minimumScaleFactor = try r.optional { try $0.double() }
            case "opacity": m.opacity = try r.optional { try $0.double() }
            case "rotation": m.rotation = try r.optional { try $0.double() }
            case "widgetURL": m.widgetURL = try r.optional { try $0.string() }
            case "containerBackground": m.containerBackground = try r.optional { try $0.styleSpec() }
            case "redacted": m.redacted = try r.optional { try $0.bool() }
            case "privacySensitive": m.privacySensitive = try r.optional { try $0.bool() }
            case "accessibilityLabel": m.accessibilityLabel = try r.optional { try $0.string() }
            case "hidden": m.hidden = try r.optional { try $0.bool() }
            case "layoutPriority": m.layoutPriority = try r.optional { try $0.double() }
            case "textAlignment": m.textAlignment = try r.optional { try $0.string() }
            case "other": m.other = try r.optional { try $0.jsonObject() }
            default: try r.skipValue()
            }
        }
        return m
    }

    // MARK: - JSON values

    /// `JSONValue`'s own decoding order: null, Bool, Double (so `"inf"` is a number), String, array, object.
    private mutating func jsonValue() throws -> JSONValue {
        skipSpace()
        guard i < bytes.count else { throw Unsupported() }
        switch bytes[i] {
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool(try bool())
        case UInt8(ascii: "\""):
            let s = try string()
            if let n = Self.nonConforming(s) { return .number(n) }
            return .string(s)
        case UInt8(ascii: "["): return .array(try array { try $0.jsonValue() })
        case UInt8(ascii: "{"): return .object(try jsonObject())
        default: return .number(try double())
        }
    }

    private mutating func jsonObject() throws -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        try object { r, key in out[key] = try r.jsonValue() }
        return out
    }

    // MARK: - scanning

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x0a, 0x0d, 0x09: i += 1
            default: return
            }
        }
    }

    private mutating func expect(_ c: UInt8) throws {
        skipSpace()
        guard i < bytes.count, bytes[i] == c else { throw Unsupported() }
        i += 1
    }

    private mutating func peek(_ c: UInt8) -> Bool {
        skipSpace()
        return i < bytes.count && bytes[i] == c
    }

    private mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw Unsupported() }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw Unsupported() }
        i += n
    }

    /// `{ "key": value, … }`, calling `field` with the reader positioned at each value. A key
    /// given twice keeps its first value, as `JSONDecoder` does.
    private mutating func object(_ field: (inout WireJSONReader, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        depth += 1
        guard depth <= 512 else { throw Unsupported() }
        defer { depth -= 1 }
        if peek(UInt8(ascii: "}")) { i += 1; return }
        var seen: [String] = []
        while true {
            skipSpace()
            let key = try string()
            try expect(UInt8(ascii: ":"))
            if seen.contains(key) {
                try skipValue()
            } else {
                seen.append(key)
                try field(&self, key)
            }
            if peek(UInt8(ascii: ",")) { i += 1; continue }
            try expect(UInt8(ascii: "}"))
            return
        }
    }

    private mutating func array<T>(_ element: (inout WireJSONReader) throws -> T) throws -> [T] {
        try expect(UInt8(ascii: "["))
        depth += 1
        guard depth <= 512 else { throw Unsupported() }
        defer { depth -= 1 }
        var out: [T] = []
        if peek(UInt8(ascii: "]")) { i += 1; return out }
        while true {
            out.append(try element(&self))
            if peek(UInt8(ascii: ",")) { i += 1; continue }
            try expect(UInt8(ascii: "]"))
            return out
        }
    }

    /// nil for `null`, else the value.
    private mutating func optional<T>(_ value: (inout WireJSONReader) throws -> T) throws -> T? {
        if peek(UInt8(ascii: "n")) { try literal("null"); return nil }
        return try value(&self)
    }

    private mutating func skipValue() throws { _ = try jsonValue() }

    private mutating func bool() throws -> Bool {
        skipSpace()
        guard i < bytes.count else { throw Unsupported() }
        if bytes[i] == UInt8(ascii: "t") { try literal("true"); return true }
        try literal("false")
        return false
    }

    private static func nonConforming(_ s: String) -> Double? {
        switch s {
        case "inf": .infinity
        case "-inf": -.infinity
        case "nan": .nan
        default: nil
        }
    }

    /// The literal of a JSON number, by JSON's grammar: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    private mutating func numberLiteral() throws -> (text: String, integral: Bool) {
        skipSpace()
        let start = i
        func isDigit(_ k: Int) -> Bool { k < bytes.count && bytes[k] >= UInt8(ascii: "0") && bytes[k] <= UInt8(ascii: "9") }
        func digits() throws {
            guard isDigit(i) else { throw Unsupported() }
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        if i < bytes.count, bytes[i] == UInt8(ascii: "0") {
            i += 1
            guard !isDigit(i) else { throw Unsupported() }
        } else {
            try digits()
        }
        var integral = true
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            integral = false; i += 1
            try digits()
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            integral = false; i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            try digits()
        }
        return (String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self), integral)
    }

    private mutating func double() throws -> Double {
        if peek(UInt8(ascii: "\"")) {
            guard let n = Self.nonConforming(try string()) else { throw Unsupported() }
            return n
        }
        guard let d = Double(try numberLiteral().text), d.isFinite else { throw Unsupported() }
        return d
    }

    private mutating func int() throws -> Int {
        let n = try numberLiteral()
        guard n.integral, let v = Int(n.text) else { throw Unsupported() }
        return v
    }

    private mutating func date() throws -> Date {
        skipSpace()
        guard i < bytes.count, bytes[i] != UInt8(ascii: "\"") else { throw Unsupported() }
        return Date(timeIntervalSince1970: try double())
    }

    /// A string: unescaped, valid UTF-8 only (lone surrogates and bad bytes are `Unsupported`).
    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = i
        // Fast path: no escapes.
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let s = try Self.utf8(UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
                i += 1
                return s
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            i += 1
        }
        var out = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<i]))
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            switch b {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else { throw Unsupported() }
                return s
            case UInt8(ascii: "\\"):
                guard i < bytes.count else { throw Unsupported() }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        try literal("\\u")
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw Unsupported() }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw Unsupported() }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw Unsupported()
                }
            default:
                guard b >= 0x20 else { throw Unsupported() }
                out.append(b)
            }
        }
        throw Unsupported()
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw Unsupported() }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            i += 1
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw Unsupported()
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    private static func utf8(_ raw: UnsafeRawBufferPointer) throws -> String {
        guard let s = String(validating: raw, as: UTF8.self) else { throw Unsupported() }
        return s
    }
}
