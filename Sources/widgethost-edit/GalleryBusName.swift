import CGtk
import WidgetConfigEditing

/// The gallery's presence on the session bus: `WidgetGallery.busName` owned (GDBus,
/// `g_bus_own_name`) from when an "Add Widget" window shows until it is destroyed, so the lean
/// surface, which watches the name (`BusNameWatch`), is in edit mode meanwhile — whether the
/// gallery came from the surface's menu or from a terminal. Without a session bus nothing happens
/// beyond one line on stderr: the gallery works as ever. A second gallery open at once is queued
/// for the name (GDBus says it is lost, one line, then hands it over when the first closes), so
/// the surface stays in edit mode until the last one closes.
///
/// Threading: GTK's main thread (GDBus calls the handlers from the thread-default main context
/// of `own(while:)`'s caller: `gtk_main`'s).
enum GalleryBusName {
    static func own(while window: UnsafeMutablePointer<GtkWidget>) {
        let lost: @convention(c) (OpaquePointer?, UnsafePointer<gchar>?, gpointer?) -> Void = { connection, _, _ in
            printError(connection == nil
                ? "widgethost-edit: no session bus: the desktop surface is not told the gallery is open (drops outside edit mode are taken over widgets only)"
                : "widgethost-edit: \(WidgetGallery.busName) is not this gallery's now (another gallery holds it, this one is queued for it; or the bus went away)")
        }
        let id = g_bus_own_name(G_BUS_TYPE_SESSION, WidgetGallery.busName, G_BUS_NAME_OWNER_FLAGS_NONE, nil, nil, lost, nil, nil)
        SignalHandler.connect(window, "destroy") { g_bus_unown_name(id) }
    }
}
