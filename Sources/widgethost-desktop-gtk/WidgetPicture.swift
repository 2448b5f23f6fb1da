import CGtk
import FoundationEssentials
import OpenWidgetKit
import WidgetHostCore

/// One widget on the desktop: its last good picture (`out/<id>.png`), the click regions beside
/// it, and its state from `out/<id>.json` (family, stale). A widget whose outputs are "png"
/// alone has no `.json`: its family is then the one whose size its picture has (from the
/// regions file, which gives pixels and scale), and it is never shown stale. A torn, missing or
/// foreign file never replaces what is shown: the last good picture stays. Nothing in `out/` is
/// trusted: every file is read through `OutFileReader` (regular files only, opened without
/// blocking, bounded), a picture is decoded only when its header gives the widget's size
/// (`PictureFileCheck`) and from the bytes read, and the regions' numbers are checked
/// (`PictureRegions.decode`); what is refused is logged once per reason. Main thread (GTK) only.
final class WidgetPicture {
    /// The most bytes read of `<id>.json` and `<id>.regions.json`.
    static let stateLimit = 4 << 20

    let id: String
    /// The family: the state file's, else the picture's.
    var family: WidgetFamily? { stateFamily ?? pictureFamily }
    private var stateFamily: WidgetFamily?
    private var pictureFamily: WidgetFamily?
    private(set) var pixbuf: OpaquePointer?
    private(set) var regions: PictureRegions?
    private(set) var stale = false
    private(set) var error: String?
    /// The reason the last refused file of each name was refused (logged when it changes).
    private var refused: [String: String] = [:]

    init(id: String) { self.id = id }

    deinit { if let pixbuf { g_object_unref(UnsafeMutableRawPointer(pixbuf)) } }

    /// The picture's pixels per point (from its regions file, else its width over the family's).
    var scale: Double {
        if let r = regions, r.scale > 0 { return r.scale }
        guard let pixbuf, let family else { return 1 }
        return Double(gdk_pixbuf_get_width(pixbuf)) / family.nominalSize.width
    }

    /// Rereads whichever of the widget's files `name` is (nil: all); true when something shown
    /// changed.
    @discardableResult
    func reload(in directory: String, name: String? = nil) -> Bool {
        var changed = false
        if name == nil || name == id + ".json" { changed = reloadState(directory) || changed }
        // The regions before the picture: their scale is the size the picture must have.
        if name == nil || name == PictureRegions.fileName(for: id) {
            let file = PictureRegions.fileName(for: id)
            if let data = read(directory, file, limit: Self.stateLimit) {
                if let r = PictureRegions.decode(data) {
                    regions = r
                    accepted(file)
                    let before = family
                    pictureFamily = Self.family(ofPicture: r) ?? pictureFamily
                    changed = changed || family != before
                } else {
                    refuse(file, "not a valid regions file (a number out of range, or not JSON)")
                }
            }
        }
        if name == nil || name == id + ".png" { changed = reloadPixbuf(directory) || changed }
        return changed
    }

    /// The bytes of `directory/file`, nil (logged) when `OutFileReader` refuses them or it is missing.
    private func read(_ directory: String, _ file: String, limit: Int) -> Data? {
        switch OutFileReader.read(directory + "/" + file, limit: limit) {
        case .success(let data): return data
        case .failure(.missing): return nil  // not there (yet): nothing to say
        case .failure(let why): refuse(file, why.description); return nil
        }
    }

    private func refuse(_ file: String, _ reason: String) {
        guard refused[file] != reason else { return }
        refused[file] = reason
        FileHandleFree.error("widgethost-desktop: \(file) refused (\(reason)); the last good one stays")
    }

    private func accepted(_ file: String) { refused[file] = nil }

    private func reloadState(_ directory: String) -> Bool {
        guard let data = read(directory, id + ".json", limit: Self.stateLimit),
              let o = try? JSONDecoder().decode(WidgetOutput.self, from: data) else { return false }
        let before = (family, stale, error)
        stateFamily = WidgetFamily(rawValue: o.family) ?? stateFamily
        stale = o.stale
        error = o.error
        return before != (family, stale, error)
    }

    /// The family whose size in points a picture of `regions`' pixel size and scale has.
    static func family(ofPicture regions: PictureRegions) -> WidgetFamily? {
        guard regions.scale > 0 else { return nil }
        let w = regions.width / regions.scale, h = regions.height / regions.scale
        return WidgetFamily.allCases.first { abs($0.nominalSize.width - w) < 0.5 && abs($0.nominalSize.height - h) < 0.5 }
    }

    private func reloadPixbuf(_ directory: String) -> Bool {
        let file = id + ".png", scale = regions?.scale
        guard let bytes = read(directory, file, limit: PictureFileCheck.maxBytes(family: family, scale: scale)) else { return false }
        if case .failure(let why) = PictureFileCheck.check(bytes, family: family, scale: scale) {
            if why != .notPNG { refuse(file, why.description) }  // a torn file is no news
            return false
        }
        guard let fresh = Self.decodePNG(bytes) else { return false }
        accepted(file)
        if let pixbuf { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        pixbuf = fresh
        return true
    }

    /// A pixbuf of the PNG in `bytes` (decoded from memory: the file is not opened again), nil
    /// when it does not decode.
    static func decodePNG(_ bytes: Data) -> OpaquePointer? {
        guard let loader = gdk_pixbuf_loader_new_with_type("png", nil) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        var writeError: UnsafeMutablePointer<GError>?, closeError: UnsafeMutablePointer<GError>?
        let wrote = bytes.withUnsafeBytes { raw in
            gdk_pixbuf_loader_write(loader, raw.baseAddress!.assumingMemoryBound(to: guchar.self), gsize(raw.count), &writeError) != 0
        }
        let closed = gdk_pixbuf_loader_close(loader, &closeError) != 0
        if let writeError { g_error_free(writeError) }
        if let closeError { g_error_free(closeError) }
        guard wrote, closed, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
        g_object_ref(UnsafeMutableRawPointer(pixbuf))
        return pixbuf
    }
}
