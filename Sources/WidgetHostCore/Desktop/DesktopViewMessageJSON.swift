import FoundationEssentials
import OpenWidgetKit

/// The view stream's lines written and read directly (`WireJSONWriter`, `WireJSONReader`): the
/// same bytes `WireCodec.encode` writes for a `DesktopViewMessage` and the same message
/// `WireCodec.decode` reads, without `JSONEncoder`/`JSONDecoder`, which were a quarter of the
/// host's and a fifth of the surface's CPU for a ticking desktop clock (a message a second;
/// docs/performance.md, "The desktop path"). Pure; any thread.
public enum DesktopViewMessageJSON {
    /// `message` as one stream line (JSON and `\n`).
    public static func line(_ message: DesktopViewMessage) -> [UInt8] {
        var w = WireJSONWriter(capacity: 512 + message.widgets.count * 1024)
        w.beginObject()
        if let l = message.layout {
            w.key("layout")
            w.beginObject()
            w.key("anchor"); w.string(l.anchor)
            w.key("columns"); w.int(l.columns)
            w.member("dark", l.dark)
            w.key("gap"); w.number(l.gap)
            w.key("margin"); w.number(l.margin)
            w.member("output", l.output)
            if let o = l.outputs {
                w.key("outputs")
                w.beginObject()
                for id in o.keys.sorted() { w.key(id); w.string(o[id] ?? "") }
                w.endObject()
            }
            w.key("scale"); w.number(l.scale)
            w.key("widgets"); w.beginArray(); for id in l.widgets { w.string(id) }; w.endArray()
            w.endObject()
        }
        w.key("removed"); w.beginArray(); for id in message.removed { w.string(id) }; w.endArray()
        w.key("snapshot"); w.bool(message.snapshot)
        w.key("widgets"); w.beginArray()
        for x in message.widgets {
            w.beginObject()
            w.member("entryDate", x.entryDate)
            w.key("family"); w.string(x.family.rawValue)
            w.key("id"); w.string(x.id)
            w.key("kind"); w.string(x.kind)
            w.key("running"); w.bool(x.running)
            w.key("stale"); w.bool(x.stale)
            if let v = x.view { w.key("view"); w.value(v) }
            w.endObject()
        }
        w.endArray()
        w.endObject()
        var bytes = w.bytes
        bytes.append(0x0A)
        return bytes
    }

    /// The message of one line (without its `\n`), nil where the direct reader declines
    /// (anything malformed or unusual: the caller asks `WireCodec.decode` for its verdict).
    public static func message(_ line: [UInt8]) -> DesktopViewMessage? {
        guard let f = WireCodec.decodeViewStreamFields(Data(line)) else { return nil }
        return DesktopViewMessage(snapshot: f.snapshot, layout: f.layout, widgets: f.widgets, removed: f.removed)
    }
}
