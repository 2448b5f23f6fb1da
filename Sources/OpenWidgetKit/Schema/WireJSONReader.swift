import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A direct JSON reader for a plugin's answer (`WireResponse`, the view schema and the
/// `describe` manifest under it), and for the host's own JSON files (a saved timeline,
/// `config.json` as a `JSONValue`): one pass over the bytes, straight into the wire types, with
/// no `Decoder` in between.
///
/// `JSONDecoder` cost about 23 000 instructions per view node (callgrind, issue 6): keyed
/// containers, coding paths and type-erased boxes for every field. This reader accepts what
/// `WireCodec.decoder()` accepts for these types — unknown keys skipped, `null` as absent,
/// `"inf"`/`"-inf"`/`"nan"` for doubles, dates as seconds since 1970, unknown view kinds as
/// `.unknown` — and throws at anything else (malformed UTF-8, an unknown widget family, a
/// fractional number where an `Int` goes, nesting deeper than 512), so that
/// `WireCodec.decodeResponse` can hand the bytes to `JSONDecoder` for its exact verdict and
/// message. Value type; used on one thread.
struct WireJSONReader {
    struct Unsupported: Error {}

    private let bytes: UnsafeRawBufferPointer
    private var i = 0
    private var depth = 0
    /// An earlier answer whose entries are taken again where their bytes reappear (`answer`).
    private var earlier: Earlier?
    /// Reading an answer (`answer`): where each entry of `entries` is in `bytes`, and which of
    /// them were taken from `earlier`.
    private var tracking = false
    private var entryRanges: [Range<Int>] = []
    private var taken: [Bool] = []

    private struct Earlier {
        let bytes: UnsafeRawBufferPointer
        let ranges: [Range<Int>]
        let entries: [WireEntry]
    }

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

    /// The response in `data` (as `response(from:)`), with where each of its entries is in
    /// `data` and whether it was taken from `earlier` (an answer read before, `ranges` its
    /// entries' places in `earlierBytes`) instead of decoded: an entry whose bytes are an earlier
    /// entry's bytes is that entry. Exact: a JSON object ends where its bytes end, and an entry
    /// is always read at the same depth of the same document shape.
    static func answer(from data: Data, earlierBytes: Data?, ranges: [Range<Int>], entries: [WireEntry])
        throws -> (response: WireResponse, ranges: [Range<Int>], taken: [Bool]) {
        try data.withUnsafeBytes { raw in
            try (earlierBytes ?? Data()).withUnsafeBytes { old in
                var r = WireJSONReader(raw)
                r.tracking = true
                if earlierBytes != nil, ranges.count == entries.count, ranges.allSatisfy({ $0.upperBound <= old.count }) {
                    r.earlier = Earlier(bytes: old, ranges: ranges, entries: entries)
                }
                let response = try r.response()
                r.skipSpace()
                guard r.i == raw.count else { throw Unsupported() }
                return (response, r.entryRanges, r.taken)
            }
        }
    }

    /// A whole document as a `JSONValue` (the host's `config.json`), or `Unsupported` where
    /// `JSONDecoder` might read it differently or must give its error (see the type's note).
    static func value(from data: Data) throws -> JSONValue {
        try data.withUnsafeBytes { raw in
            var r = WireJSONReader(raw)
            let value = try r.jsonValue()
            r.skipSpace()
            guard r.i == raw.count else { throw Unsupported() }
            return value
        }
    }

    /// A flat object of the host's own files that embed wire types (a saved timeline): each
    /// member a string, an array of strings, `null`, the JSON object `parameters`, the entries
    /// `entries` or the policy `policy`; `Unsupported` for anything else.
    static func recordFields(from data: Data) throws -> WireRecordFields {
        try data.withUnsafeBytes { raw in
            var r = WireJSONReader(raw)
            var out = WireRecordFields()
            var cursor = try r.beginObject()
            while let key = try r.nextKey(&cursor) {
                if try r.isNull() { continue }
                switch key {
                case "entries": out.entries = try r.entries()
                case "policy": out.policy = try r.policy()
                case "parameters": out.parameters = try r.jsonObject()
                default:
                    r.skipSpace()
                    guard r.i < raw.count else { throw Unsupported() }
                    if raw[r.i] == UInt8(ascii: "[") { out.stringArrays[key] = try r.strings() }
                    else if raw[r.i] == UInt8(ascii: "\"") { out.strings[key] = try r.string() }
                    else { throw Unsupported() }
                }
            }
            r.skipSpace()
            guard r.i == raw.count else { throw Unsupported() }
            return out
        }
    }

    /// One line of the host's desktop view stream (`DesktopViewMessage` in WidgetHostCore,
    /// `WireCodec.decodeViewStreamFields`), or `Unsupported` where `JSONDecoder` might read it
    /// differently or must give its error (see the type's note).
    static func viewStreamFields(from data: Data) throws -> WireViewStreamFields {
        try data.withUnsafeBytes { raw in
            var r = WireJSONReader(raw)
            var snapshot: Bool?, layout: ViewStreamLayout?, widgets: [ViewStreamWidget]?, removed: [String]?
            var cursor = try r.beginObject()
            while let key = try r.nextKey(&cursor) {
                switch key {
                case "snapshot": snapshot = try r.bool()
                case "layout": layout = try r.isNull() ? nil : try r.viewStreamLayout()
                case "widgets":
                    var list: [ViewStreamWidget] = []
                    var c = try r.beginArray()
                    while try r.nextElement(&c) { list.append(try r.viewStreamWidget()) }
                    widgets = list
                case "removed": removed = try r.strings()
                default: try r.skipValue()
                }
            }
            r.skipSpace()
            guard r.i == raw.count, let snapshot, let widgets, let removed else { throw Unsupported() }
            return WireViewStreamFields(snapshot: snapshot, layout: layout, widgets: widgets, removed: removed)
        }
    }

    private mutating func viewStreamLayout() throws -> ViewStreamLayout {
        var widgets: [String]?, anchor: String?, margin: Double?, gap: Double?, columns: Int?, scale: Double?, dark: Bool?
        var output: String?, outputs: [String: String]?
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "widgets": widgets = try strings()
            case "anchor": anchor = try string()
            case "margin": margin = try double()
            case "gap": gap = try double()
            case "columns": columns = try int()
            case "scale": scale = try double()
            case "dark": dark = try isNull() ? nil : try bool()
            case "output": output = try isNull() ? nil : try string()
            case "outputs":
                if try isNull() { outputs = nil; break }
                var map: [String: String] = [:]
                var inner = try beginObject()
                while let id = try nextKey(&inner) { map[id] = try string() }
                outputs = map
            default: try skipValue()
            }
        }
        guard let widgets, let anchor, let margin, let gap, let columns, let scale else { throw Unsupported() }
        return ViewStreamLayout(widgets: widgets, anchor: anchor, margin: margin, gap: gap, columns: columns, scale: scale, dark: dark,
                                output: output, outputs: outputs)
    }

    private mutating func viewStreamWidget() throws -> ViewStreamWidget {
        var id: String?, kind: String?, family: WidgetFamily?, view: ViewNode?, entryDate: Date?, stale: Bool?, running: Bool?
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "id": id = try string()
            case "kind": kind = try string()
            case "family": family = try widgetFamily()
            case "view": view = try isNull() ? nil : try viewNode()
            case "entryDate": entryDate = try isNull() ? nil : try date()
            case "stale": stale = try bool()
            case "running": running = try bool()
            default: try skipValue()
            }
        }
        guard let id, let kind, let family, let stale, let running else { throw Unsupported() }
        return ViewStreamWidget(id: id, kind: kind, family: family, view: view, entryDate: entryDate, stale: stale, running: running)
    }

    // MARK: - the wire types

    private mutating func response() throws -> WireResponse {
        var ok: Bool?
        var out = WireResponse(ok: false)
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "ok": ok = try bool()
            case "error": out.error = try isNull() ? nil : try string()
            case "entries": out.entries = try isNull() ? nil : tracking ? try trackedEntries() : try entries()
            case "policy": out.policy = try isNull() ? nil : try policy()
            case "reloadRequests": out.reloadRequests = try isNull() ? nil : try strings()
            case "missingResources": out.missingResources = try isNull() ? nil : try strings()
            case "manifest": out.manifest = try isNull() ? nil : try manifest()
            default: try skipValue()
            }
        }
        guard let ok else { throw Unsupported() }
        out.ok = ok
        return out
    }

    // `describe`: asked once per worker start, so once per bundle at every daemon start
    // (`JSONDecoder` took ~1.3 M instructions for the benchmark's 11-widget manifest).
    private mutating func manifest() throws -> BundleManifest {
        var bundleId: String?, sdkVersion: String?, abiVersion: Int?, widgets: [WidgetDescriptor]?, appGroups: [String]?
        var previews: [PreviewDescriptor]?, permissions: [String]?, filesystems: [String]?, busNames: [String]?, busSignals: [BusSignal]?, systemBusNames: [String]?
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "bundleId": bundleId = try string()
            case "sdkVersion": sdkVersion = try string()
            case "abiVersion": abiVersion = try int()
            case "widgets": widgets = try widgetDescriptors()
            case "appGroups": appGroups = try strings()
            case "previews": previews = try isNull() ? nil : try previewDescriptors()
            case "permissions": permissions = try isNull() ? nil : try strings()
            case "filesystems": filesystems = try isNull() ? nil : try strings()
            case "busNames": busNames = try isNull() ? nil : try strings()
            case "busSignals": busSignals = try isNull() ? nil : try busSignalList()
            case "systemBusNames": systemBusNames = try isNull() ? nil : try strings()
            default: try skipValue()
            }
        }
        guard let bundleId, let sdkVersion, let abiVersion, let widgets, let appGroups else { throw Unsupported() }
        return BundleManifest(bundleId: bundleId, sdkVersion: sdkVersion, abiVersion: abiVersion, widgets: widgets,
                              appGroups: appGroups, previews: previews, permissions: permissions, filesystems: filesystems,
                              busNames: busNames, busSignals: busSignals, systemBusNames: systemBusNames)
    }

    private mutating func widgetDescriptor() throws -> WidgetDescriptor {
        var kind: String?, displayName: String?, description: String?, families: [WidgetFamily]?
        var parameters: [ParameterDescriptor]?, configuration: String?
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "kind": kind = try string()
            case "displayName": displayName = try string()
            case "description": description = try string()
            case "families": families = try widgetFamilies()
            case "parameters": parameters = try parameterDescriptors()
            case "configuration": configuration = try string()
            default: try skipValue()
            }
        }
        guard let kind, let displayName, let description, let families, let parameters, let configuration else { throw Unsupported() }
        return WidgetDescriptor(kind: kind, displayName: displayName, description: description, families: families,
                                parameters: parameters, configuration: configuration)
    }

    private mutating func parameterDescriptor() throws -> ParameterDescriptor {
        var name: String?, title: String?, type: String?, defaultValue: JSONValue?, options: [EnumOption]?
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "name": name = try string()
            case "title": title = try string()
            case "type": type = try string()
            case "defaultValue": defaultValue = try isNull() ? nil : try jsonValue()
            case "options": options = try isNull() ? nil : try enumOptions()
            default: try skipValue()
            }
        }
        guard let name, let title, let type else { throw Unsupported() }
        return ParameterDescriptor(name: name, title: title, type: type, defaultValue: defaultValue, options: options)
    }

    private mutating func enumOption() throws -> EnumOption {
        var value: String?, title: String?
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "value": value = try string()
            case "title": title = try string()
            default: try skipValue()
            }
        }
        guard let value, let title else { throw Unsupported() }
        return EnumOption(value: value, title: title)
    }

    private mutating func busSignalList() throws -> [BusSignal] {
        var out: [BusSignal] = []
        var c = try beginArray()
        while try nextElement(&c) {
            var sender: String?, interface: String?, member: String?, path: String?, bus: String?
            var cursor = try beginObject()
            while let key = try nextKey(&cursor) {
                switch key {
                case "sender": sender = try string()
                case "interface": interface = try string()
                case "member": member = try string()
                case "path": path = try isNull() ? nil : try string()
                case "bus": bus = try isNull() ? nil : try string()
                default: try skipValue()
                }
            }
            guard let sender, let interface, let member else { throw Unsupported() }
            out.append(BusSignal(sender: sender, interface: interface, member: member, path: path, bus: bus))
        }
        return out
    }

    private mutating func previewDescriptor() throws -> PreviewDescriptor {
        var id: String?, name: String?, kind: String?, family: WidgetFamily?
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "id": id = try string()
            case "name": name = try string()
            case "kind": kind = try isNull() ? nil : try string()
            case "family": family = try isNull() ? nil : try widgetFamily()
            default: try skipValue()
            }
        }
        guard let id, let name else { throw Unsupported() }
        return PreviewDescriptor(id: id, name: name, kind: kind, family: family)
    }

    /// A known family; an unknown name is `JSONDecoder`'s error to give.
    private mutating func widgetFamily() throws -> WidgetFamily {
        guard let f = WidgetFamily(rawValue: try string()) else { throw Unsupported() }
        return f
    }

    private mutating func entry() throws -> WireEntry {
        var date: Date?, relevance: WireRelevance?, view: ViewNode?
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "date": date = try self.date()
            case "relevance": relevance = try isNull() ? nil : try self.relevance()
            case "view": view = try viewNode()
            default: try skipValue()
            }
        }
        guard let date, let view else { throw Unsupported() }
        return WireEntry(date: date, relevance: relevance, view: view)
    }

    private mutating func relevance() throws -> WireRelevance {
        var score: Double?, duration: Double?
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "score": score = try double()
            case "duration": duration = try double()
            default: try skipValue()
            }
        }
        guard let score, let duration else { throw Unsupported() }
        return WireRelevance(score: score, duration: duration)
    }

    private mutating func policy() throws -> WirePolicy {
        var type: String?, date: Date?
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "type": type = try string()
            case "date": date = try isNull() ? nil : try self.date()
            default: try skipValue()
            }
        }
        guard let type else { throw Unsupported() }
        return WirePolicy(type: type, date: date)
    }

    private mutating func viewNode() throws -> ViewNode {
        var kind: ViewNode.Kind?
        var n = ViewNode(kind: .empty)
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "kind": kind = ViewNode.Kind(rawValue: try string()) ?? .unknown
            case "role": n.role = try isNull() ? nil : try string()
            case "children": n.children = try isNull() ? nil : try viewNodes()
            case "text": n.text = try isNull() ? nil : try string()
            case "date": n.date = try isNull() ? nil : try dateText()
            case "symbol": n.symbol = try isNull() ? nil : try string()
            case "alignment": n.alignment = try isNull() ? nil : try string()
            case "spacing": n.spacing = try isNull() ? nil : try double()
            case "value": n.value = try isNull() ? nil : try double()
            case "bounds": n.bounds = try isNull() ? nil : try doubles()
            case "style": n.style = try isNull() ? nil : try string()
            case "shape": n.shape = try isNull() ? nil : try shape()
            case "url": n.url = try isNull() ? nil : try string()
            case "action": n.action = try isNull() ? nil : try action()
            case "isOn": n.isOn = try isNull() ? nil : try bool()
            case "modifiers": n.modifiers = try isNull() ? nil : try modifiers()
            case "horizontalSpacing": n.horizontalSpacing = try isNull() ? nil : try double()
            case "axes": n.axes = try isNull() ? nil : try string()
            case "gridItems": n.gridItems = try isNull() ? nil : try gridItems()
            case "asset": n.asset = try isNull() ? nil : try imageAsset()
            default: try skipValue()
            }
        }
        guard let kind else { throw Unsupported() }
        n.kind = kind
        return n
    }

    private mutating func dateText() throws -> DateText {
        var style: String?
        var d = DateText(style: "")
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "style": style = try string()
            case "date": d.date = try isNull() ? nil : try date()
            case "start": d.start = try isNull() ? nil : try date()
            case "end": d.end = try isNull() ? nil : try date()
            case "countsDown": d.countsDown = try isNull() ? nil : try bool()
            case "fields": d.fields = try isNull() ? nil : try string()
            default: try skipValue()
            }
        }
        guard let style else { throw Unsupported() }
        d.style = style
        return d
    }

    private mutating func styleSpec() throws -> StyleSpec {
        var s = StyleSpec()
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "name": s.name = try isNull() ? nil : try string()
            case "rgba": s.rgba = try isNull() ? nil : try doubles()
            case "gradientPoints": s.gradientPoints = try isNull() ? nil : try doubles()
            case "gradientKind": s.gradientKind = try isNull() ? nil : try string()
            case "gradient":
                guard try !isNull() else { s.gradient = nil; continue }
                var stops: [StyleSpec] = []
                var c = try beginArray()
                while try nextElement(&c) { stops.append(try styleSpec()) }
                s.gradient = stops
            case "opacity": s.opacity = try isNull() ? nil : try double()
            default: try skipValue()
            }
        }
        return s
    }

    private mutating func shape() throws -> ShapeInfo {
        var type: String?
        var s = ShapeInfo(type: "")
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "type": type = try string()
            case "cornerRadius": s.cornerRadius = try isNull() ? nil : try double()
            case "fill": s.fill = try isNull() ? nil : try styleSpec()
            case "stroke": s.stroke = try isNull() ? nil : try styleSpec()
            case "lineWidth": s.lineWidth = try isNull() ? nil : try double()
            case "lineCap": s.lineCap = try isNull() ? nil : try string()
            case "trimFrom": s.trimFrom = try isNull() ? nil : try double()
            case "trimTo": s.trimTo = try isNull() ? nil : try double()
            default: try skipValue()
            }
        }
        guard let type else { throw Unsupported() }
        s.type = type
        return s
    }

    private mutating func action() throws -> IntentAction {
        var id: String?, intent: String?, parameters: [String: JSONValue]?, title: String?
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "id": id = try string()
            case "intent": intent = try string()
            case "parameters": parameters = try jsonObject()
            case "title": title = try isNull() ? nil : try string()
            default: try skipValue()
            }
        }
        guard let id, let intent, let parameters else { throw Unsupported() }
        return IntentAction(id: id, intent: intent, parameters: parameters, title: title)
    }

    private mutating func font() throws -> FontSpec {
        var style: String?
        var f = FontSpec(style: "")
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "style": style = try string()
            case "size": f.size = try isNull() ? nil : try double()
            case "weight": f.weight = try isNull() ? nil : try string()
            case "design": f.design = try isNull() ? nil : try string()
            case "italic": f.italic = try isNull() ? nil : try bool()
            default: try skipValue()
            }
        }
        guard let style else { throw Unsupported() }
        f.style = style
        return f
    }

    private mutating func insets() throws -> EdgeInsetsSpec {
        var top: Double?, leading: Double?, bottom: Double?, trailing: Double?
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "top": top = try double()
            case "leading": leading = try double()
            case "bottom": bottom = try double()
            case "trailing": trailing = try double()
            default: try skipValue()
            }
        }
        guard let top, let leading, let bottom, let trailing else { throw Unsupported() }
        return EdgeInsetsSpec(top: top, leading: leading, bottom: bottom, trailing: trailing)
    }

    private mutating func frame() throws -> FrameSpec {
        var f = FrameSpec()
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "width": f.width = try isNull() ? nil : try double()
            case "height": f.height = try isNull() ? nil : try double()
            case "minWidth": f.minWidth = try isNull() ? nil : try double()
            case "maxWidth": f.maxWidth = try isNull() ? nil : try double()
            case "minHeight": f.minHeight = try isNull() ? nil : try double()
            case "maxHeight": f.maxHeight = try isNull() ? nil : try double()
            case "alignment": f.alignment = try isNull() ? nil : try string()
            default: try skipValue()
            }
        }
        return f
    }

    private mutating func imageAsset() throws -> ImageAsset {
        var name: String?
        var variants: [ImageVariant] = []
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "name": name = try string()
            case "variants":
                var outer = try beginArray()
                while try nextElement(&outer) {
                    var scale: Double?, width: Int?, height: Int?, png: String?, jpeg: String?, appearance: String?
                    var inner = try beginObject()
                    while let key = try nextKey(&inner) {
                        switch key {
                        case "scale": scale = try double()
                        case "width": width = try int()
                        case "height": height = try int()
                        case "png": png = try string()
                        case "jpeg": jpeg = try string()
                        case "appearance": appearance = try isNull() ? nil : try string()
                        default: try skipValue()
                        }
                    }
                    guard let scale, let width, let height, png != nil || jpeg != nil else { throw Unsupported() }
                    variants.append(ImageVariant(scale: scale, appearance: appearance, width: width, height: height, png: png, jpeg: jpeg))
                }
            default: try skipValue()
            }
        }
        guard let name else { throw Unsupported() }
        return ImageAsset(name: name, variants: variants)
    }

    private mutating func gridItems() throws -> [GridItemSpec] {
        var out: [GridItemSpec] = []
        var outer = try beginArray()
        while try nextElement(&outer) {
            var g = GridItemSpec(size: "")
            var size: String?
            var cursor = try beginObject()
            while let key = try nextKey(&cursor) {
                switch key {
                case "size": size = try string()
                case "minimum": g.minimum = try isNull() ? nil : try double()
                case "maximum": g.maximum = try isNull() ? nil : try double()
                case "spacing": g.spacing = try isNull() ? nil : try double()
                case "alignment": g.alignment = try isNull() ? nil : try string()
                default: try skipValue()
                }
            }
            guard let size else { throw Unsupported() }
            g.size = size
            out.append(g)
        }
        return out
    }

    private mutating func modifiers() throws -> Modifiers {
        var m = Modifiers()
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) {
            switch key {
            case "font": m.font = try isNull() ? nil : try font()
            case "weight": m.weight = try isNull() ? nil : try string()
            case "italic": m.italic = try isNull() ? nil : try bool()
            case "monospacedDigit": m.monospacedDigit = try isNull() ? nil : try bool()
            case "foreground": m.foreground = try isNull() ? nil : try styleSpec()
            case "tint": m.tint = try isNull() ? nil : try styleSpec()
            case "padding": m.padding = try isNull() ? nil : try insets()
            case "frame": m.frame = try isNull() ? nil : try frame()
            case "background": m.background = try isNull() ? nil : try styleSpec()
            case "lineLimit": m.lineLimit = try isNull() ? nil : try int()
            case "minimumScaleFactor": m.minimumScaleFactor = try isNull() ? nil : try double()
            case "opacity": m.opacity = try isNull() ? nil : try double()
            case "rotation": m.rotation = try isNull() ? nil : try double()
            case "widgetURL": m.widgetURL = try isNull() ? nil : try string()
            case "containerBackground": m.containerBackground = try isNull() ? nil : try styleSpec()
            case "redacted": m.redacted = try isNull() ? nil : try bool()
            case "privacySensitive": m.privacySensitive = try isNull() ? nil : try bool()
            case "accessibilityLabel": m.accessibilityLabel = try isNull() ? nil : try string()
            case "hidden": m.hidden = try isNull() ? nil : try bool()
            case "layoutPriority": m.layoutPriority = try isNull() ? nil : try double()
            case "textAlignment": m.textAlignment = try isNull() ? nil : try string()
            case "other": m.other = try isNull() ? nil : try jsonObject()
            case "fontDesign": m.fontDesign = try isNull() ? nil : try string()
            case "monospaced": m.monospaced = try isNull() ? nil : try bool()
            case "kerning": m.kerning = try isNull() ? nil : try double()
            case "tracking": m.tracking = try isNull() ? nil : try double()
            case "textCase": m.textCase = try isNull() ? nil : try string()
            case "truncationMode": m.truncationMode = try isNull() ? nil : try string()
            case "aspectRatio": m.aspectRatio = try isNull() ? nil : try double()
            case "contentMode": m.contentMode = try isNull() ? nil : try string()
            case "id": m.id = try isNull() ? nil : try string()
            case "accessibilityHidden": m.accessibilityHidden = try isNull() ? nil : try bool()
            case "contentMargins": m.contentMargins = try isNull() ? nil : try insets()
            default: try skipValue()
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
        case UInt8(ascii: "["): return .array(try jsonValues())
        case UInt8(ascii: "{"): return .object(try jsonObject())
        default: return .number(try double())
        }
    }

    private mutating func jsonObject() throws -> [String: JSONValue] {
        var out: [String: JSONValue] = [:]
        var cursor = try beginObject()
        while let key = try nextKey(&cursor) { out[key] = try jsonValue() }
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

    /// Where a reader is inside one object: `beginObject()`, then `nextKey` until nil.
    private struct ObjectCursor {
        var first = true
        /// Keys read so far: the first four inline (no allocation for a typical node), the rest in `more`.
        var k0: String?, k1: String?, k2: String?, k3: String?
        var more: [String] = []

        /// Records `key`; false when it was read before.
        mutating func insert(_ key: String) -> Bool {
            if k0 == nil { k0 = key; return true }
            if k0 == key { return false }
            if k1 == nil { k1 = key; return true }
            if k1 == key { return false }
            if k2 == nil { k2 = key; return true }
            if k2 == key { return false }
            if k3 == nil { k3 = key; return true }
            if k3 == key || more.contains(key) { return false }
            more.append(key)
            return true
        }
    }

    /// Consumes `{`.
    private mutating func beginObject() throws -> ObjectCursor {
        try expect(UInt8(ascii: "{"))
        depth += 1
        guard depth <= 512 else { throw Unsupported() }
        return ObjectCursor()
    }

    /// The next member's key, the reader positioned at its value; nil after the closing `}`.
    /// A key given twice keeps its first value, as `JSONDecoder` does.
    private mutating func nextKey(_ c: inout ObjectCursor) throws -> String? {
        while true {
            if peek(UInt8(ascii: "}")) {
                i += 1
                depth -= 1
                return nil
            }
            if !c.first { try expect(UInt8(ascii: ",")) }
            c.first = false
            skipSpace()
            let key = try string()
            try expect(UInt8(ascii: ":"))
            guard c.insert(key) else { try skipValue(); continue }
            return key
        }
    }

    /// Where a reader is inside one array: `beginArray()`, then `nextElement` until false.
    private struct ArrayCursor { var first = true }

    private mutating func beginArray() throws -> ArrayCursor {
        try expect(UInt8(ascii: "["))
        depth += 1
        guard depth <= 512 else { throw Unsupported() }
        return ArrayCursor()
    }

    /// Whether another element follows (the reader is then positioned at it).
    private mutating func nextElement(_ c: inout ArrayCursor) throws -> Bool {
        if peek(UInt8(ascii: "]")) {
            i += 1
            depth -= 1
            return false
        }
        if !c.first { try expect(UInt8(ascii: ",")) }
        c.first = false
        return true
    }

    // One function per element type, not a generic one: unspecialized generic code looked up
    // metadata and copied values through witnesses on every element (callgrind).
    private mutating func entries() throws -> [WireEntry] {
        var out: [WireEntry] = []
        out.reserveCapacity(8)
        var c = try beginArray()
        while try nextElement(&c) { out.append(try entry()) }
        return out
    }

    /// `entries()` for `answer`: each entry's place recorded, and taken from `earlier` when its
    /// bytes are an earlier entry's. The earlier entries are matched in order: the first entry
    /// (or the second) is looked for among all of them, each later one is compared with the
    /// earlier entry after the last match only (a timeline that starts later shares a run of
    /// entries with the one before) — one `memcmp` per entry, at most twice the earlier count
    /// when nothing matches.
    private mutating func trackedEntries() throws -> [WireEntry] {
        var out: [WireEntry] = []
        out.reserveCapacity(earlier?.entries.count ?? 8)
        entryRanges = []
        taken = []
        var next = 0
        var anchored = false
        var c = try beginArray()
        while try nextElement(&c) {
            skipSpace()
            let start = i
            var match: Int?
            if let e = earlier {
                if anchored || out.count >= 2 {
                    if next < e.ranges.count, same(start, e, next) { match = next }
                } else {
                    match = (next..<e.ranges.count).first { same(start, e, $0) }
                }
            }
            if let k = match, let e = earlier {
                out.append(e.entries[k])
                i = start + e.ranges[k].count
                next = k + 1
                anchored = true
            } else {
                out.append(try entry())
            }
            entryRanges.append(start..<i)
            taken.append(match != nil)
        }
        return out
    }

    /// Whether the bytes at `start` begin with earlier entry `k`'s bytes.
    private func same(_ start: Int, _ e: Earlier, _ k: Int) -> Bool {
        let r = e.ranges[k]
        guard !r.isEmpty, start + r.count <= bytes.count else { return false }
        return memcmp(bytes.baseAddress! + start, e.bytes.baseAddress! + r.lowerBound, r.count) == 0
    }

    private mutating func viewNodes() throws -> [ViewNode] {
        var out: [ViewNode] = []
        var c = try beginArray()
        while try nextElement(&c) { out.append(try viewNode()) }
        return out
    }

    private mutating func widgetDescriptors() throws -> [WidgetDescriptor] {
        var out: [WidgetDescriptor] = []
        var c = try beginArray()
        while try nextElement(&c) { out.append(try widgetDescriptor()) }
        return out
    }

    private mutating func parameterDescriptors() throws -> [ParameterDescriptor] {
        var out: [ParameterDescriptor] = []
        var c = try beginArray()
        while try nextElement(&c) { out.append(try parameterDescriptor()) }
        return out
    }

    private mutating func enumOptions() throws -> [EnumOption] {
        var out: [EnumOption] = []
        var c = try beginArray()
        while try nextElement(&c) { out.append(try enumOption()) }
        return out
    }

    private mutating func previewDescriptors() throws -> [PreviewDescriptor] {
        var out: [PreviewDescriptor] = []
        var c = try beginArray()
        while try nextElement(&c) { out.append(try previewDescriptor()) }
        return out
    }

    private mutating func widgetFamilies() throws -> [WidgetFamily] {
        var out: [WidgetFamily] = []
        var c = try beginArray()
        while try nextElement(&c) { out.append(try widgetFamily()) }
        return out
    }

    private mutating func strings() throws -> [String] {
        var out: [String] = []
        var c = try beginArray()
        while try nextElement(&c) { out.append(try string()) }
        return out
    }

    private mutating func doubles() throws -> [Double] {
        var out: [Double] = []
        var c = try beginArray()
        while try nextElement(&c) { out.append(try double()) }
        return out
    }

    private mutating func jsonValues() throws -> [JSONValue] {
        var out: [JSONValue] = []
        var c = try beginArray()
        while try nextElement(&c) { out.append(try jsonValue()) }
        return out
    }

    /// Consumes a `null` and says so; leaves anything else.
    private mutating func isNull() throws -> Bool {
        guard peek(UInt8(ascii: "n")) else { return false }
        try literal("null")
        return true
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
                return try out.withUnsafeBytes { try Self.utf8($0) }
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

    /// The string of valid UTF-8 bytes. `String(decoding:)` is the fast path but repairs bad
    /// bytes (with U+FFFD), which changes them, so equal bytes mean the input was valid.
    /// (`String(validating:)` from raw bytes took the generic path: a third of all the reading.)
    private static func utf8(_ raw: UnsafeRawBufferPointer) throws -> String {
        let bytes = raw.assumingMemoryBound(to: UInt8.self)
        var s = String(decoding: bytes, as: UTF8.self)
        if bytes.allSatisfy({ $0 < 0x80 }) { return s }  // ASCII: nothing to repair
        let same = s.withUTF8 { u in u.count == bytes.count && (u.isEmpty || memcmp(u.baseAddress!, bytes.baseAddress!, u.count) == 0) }
        guard same else { throw Unsupported() }
        return s
    }
}

/// The members of a flat JSON object holding wire types, read by `WireCodec.decodeRecordFields`.
public struct WireRecordFields: Sendable {
    public var strings: [String: String] = [:]
    public var stringArrays: [String: [String]] = [:]
    public var parameters: [String: JSONValue]?
    public var entries: [WireEntry]?
    public var policy: WirePolicy?
}
