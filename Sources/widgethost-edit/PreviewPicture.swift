import CGtk
import FoundationEssentials
import OpenWidgetKit
import WidgetGraphics

/// A widget tree drawn in this process with WidgetGraphics (the renderer the host's pictures
/// and the desktop surface use), as a GTK image of the family's size in points, sharp at the
/// screen's scale. Main thread (one `PictureRenderer`, which is not thread-safe).
final class PreviewPicture {
    private let renderer = PictureRenderer(locale: .currentTime)
    /// Pixels per point: the screen's scale factor (GDK_SCALE, a HiDPI monitor).
    let scale: Int
    let now: Date

    init(scale: Int, now: Date = Date()) {
        self.scale = max(1, min(scale, 4))
        self.now = now
    }

    /// `tree` drawn in `family`; nil when it cannot be drawn (the tile says so instead).
    func image(_ tree: ViewNode, family: WidgetFamily) -> UnsafeMutablePointer<GtkWidget>? {
        guard let picture = try? renderer.render(tree, family: family, format: .png, options: PictureOptions(scale: Double(scale), now: now)),
              let pixbuf = Self.pixbuf(picture.bytes) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        // A surface with the scale set is drawn at its size in points, with every pixel used.
        guard let surface = gdk_cairo_surface_create_from_pixbuf(pixbuf, Int32(scale), nil) else { return nil }
        defer { cairo_surface_destroy(surface) }
        return gtk_image_new_from_surface(surface)
    }

    /// PNG bytes decoded by GdkPixbuf.
    private static func pixbuf(_ png: [UInt8]) -> OpaquePointer? {
        guard let loader = gdk_pixbuf_loader_new_with_type("png", nil) else { return nil }
        defer { g_object_unref(loader) }
        let wrote = png.withUnsafeBufferPointer { gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize($0.count), nil) }
        guard wrote != 0, gdk_pixbuf_loader_close(loader, nil) != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
        g_object_ref(UnsafeMutableRawPointer(pixbuf))
        return pixbuf
    }
}

extension WidgetFamily {
    /// The family as the gallery names it ("Small", "Medium"…), as iOS's gallery does.
    var galleryName: String {
        switch self {
        case .systemSmall: "Small"
        case .systemMedium: "Medium"
        case .systemLarge: "Large"
        case .systemExtraLarge: "Extra Large"
        case .accessoryCircular: "Circular"
        case .accessoryRectangular: "Rectangular"
        case .accessoryInline: "Inline"
        }
    }
}
