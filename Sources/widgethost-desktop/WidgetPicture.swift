import CGtk
import FoundationEssentials
import OpenWidgetKit
import WidgetHostCore

/// One widget on the desktop: its last good picture (`out/<id>.png`), the click regions beside
/// it, and its state from `out/<id>.json` (family, stale). A widget whose outputs are "png"
/// alone has no `.json`: its family is then the one whose size its picture has (from the
/// regions file, which gives pixels and scale), and it is never shown stale. A torn, missing or
/// foreign file never replaces what is shown: the last good picture stays. Main thread (GTK) only.
final class WidgetPicture {
    let id: String
    /// The family: the state file's, else the picture's.
    var family: WidgetFamily? { stateFamily ?? pictureFamily }
    private var stateFamily: WidgetFamily?
    private var pictureFamily: WidgetFamily?
    private(set) var pixbuf: OpaquePointer?
    private(set) var regions: PictureRegions?
    private(set) var stale = false
    private(set) var error: String?

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
        if name == nil || name == id + ".png" { changed = reloadPixbuf(directory) || changed }
        if name == nil || name == PictureRegions.fileName(for: id) {
            if let data = FileIO.read(directory + "/" + PictureRegions.fileName(for: id)), let r = PictureRegions.decode(data) {
                regions = r
                let before = family
                pictureFamily = Self.family(ofPicture: r) ?? pictureFamily
                changed = changed || family != before
            }
        }
        return changed
    }

    private func reloadState(_ directory: String) -> Bool {
        guard let data = FileIO.read(directory + "/" + id + ".json"),
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
        var err: UnsafeMutablePointer<GError>?
        guard let fresh = gdk_pixbuf_new_from_file(directory + "/" + id + ".png", &err) else {
            if let err { g_error_free(err) }
            return false
        }
        if let pixbuf { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        pixbuf = fresh
        return true
    }
}
