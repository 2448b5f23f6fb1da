import FoundationEssentials
import OpenWidgetKit

/// One picture the daemon asks the render process (`widgethost-render --serve`) to draw: the
/// entry's tree at `now`, in `family`, at `scale`, written to the paths given (each only when its
/// bytes differ from the file already there), and its controls' rectangles to `regions`.
/// Sent as one length-prefixed frame (`Framing`) of `{"request": {…}, "view": {…}}`; the view
/// is encoded once per entry and spliced in (`PictureRenderFrame`). Value type.
public struct PictureRenderRequest: Codable, Equatable, Sendable {
    public var id: String
    public var family: WidgetFamily
    /// The instant live dates are drawn at.
    public var now: Date
    public var scale: Int
    public var dark: Bool
    public var png: String?
    public var svg: String?
    /// Where `PictureRegions` go (written only when they changed, before the picture).
    public var regions: String?
    /// The widget's size budget: a PNG or SVG of more bytes is not written (the request fails).
    public var maxBytes: Int?
    /// The accented rendering mode's tint (`PictureSettings.pictureTint`); nil: full colour.
    public var tint: String?

    public init(id: String, family: WidgetFamily, now: Date, scale: Int, dark: Bool, png: String?, svg: String?, regions: String?,
                maxBytes: Int? = nil, tint: String? = nil) {
        self.id = id; self.family = family; self.now = now; self.scale = scale; self.dark = dark
        self.png = png; self.svg = svg; self.regions = regions; self.maxBytes = maxBytes; self.tint = tint
    }
}

/// The render process's answer to one `PictureRenderRequest`, one frame of JSON. Value type.
public struct PictureRenderReply: Codable, Equatable, Sendable {
    public var ok: Bool
    /// Why the picture could not be drawn or written.
    public var error: String?
    /// The files replaced because their bytes changed (a picture equal to the file is not rewritten).
    public var written: [String]
    public var width: Int
    public var height: Int
    /// `Image(systemName:)` names with no icon (drawn as a box).
    public var unmappedSymbols: [String]?
    /// Time spent drawing, encoding and writing, in milliseconds.
    public var milliseconds: Double?
    /// True when the picture was drawn but a file could not be written (the disk full, the
    /// folder unwritable for a while): the same picture is worth writing again later.
    public var writeFailed: Bool?

    public init(ok: Bool, error: String? = nil, written: [String] = [], width: Int = 0, height: Int = 0,
                unmappedSymbols: [String]? = nil, milliseconds: Double? = nil, writeFailed: Bool? = nil) {
        self.ok = ok; self.error = error; self.written = written; self.width = width; self.height = height
        self.unmappedSymbols = unmappedSymbols; self.milliseconds = milliseconds; self.writeFailed = writeFailed
    }
}

/// The bytes of a request frame's payload, with the (large, per-entry) view encoded apart so a
/// live-date tick re-sends it without encoding the tree again. Pure.
public enum PictureRenderFrame {
    struct Envelope: Decodable {
        var request: PictureRenderRequest
        var view: ViewNode
    }

    /// The payload `{"request":…,"view":…}`; `view` is the tree in `WireCodec`'s JSON. The
    /// request is written directly (`WireJSONWriter`, as `JSONEncoder` with sorted keys would):
    /// this runs on every live-date tick of every picture.
    public static func payload(_ request: PictureRenderRequest, view: Data) -> Data {
        var w = WireJSONWriter(capacity: 256 + view.count)
        w.beginObject()
        w.key("request")
        w.beginObject()
        w.member("dark", request.dark)
        w.member("family", request.family.rawValue)
        w.member("id", request.id)
        w.member("maxBytes", request.maxBytes)
        w.member("now", request.now)
        w.member("png", request.png)
        w.member("regions", request.regions)
        w.member("scale", request.scale)
        w.member("svg", request.svg)
        w.member("tint", request.tint)
        w.endObject()
        w.key("view")
        w.null()  // placeholder, replaced by the view's bytes below
        w.endObject()
        var out = w.bytes
        out.removeLast(5)  // "null}"
        out.append(contentsOf: view)
        out.append(0x7d)
        return Data(out)
    }

    public static func decode(_ payload: Data) throws -> (PictureRenderRequest, ViewNode) {
        let e = try WireCodec.decode(Envelope.self, from: payload)
        return (e.request, e.view)
    }
}
