import CGtk
import WidgetConfigEditing

/// The GTK surface as a drop target for the gallery's tiles: `gtk_drag_dest_set` on its drawing
/// area with the private type `WidgetDragPayload.mimeType` only (a drag offering anything else
/// is not taken), GTK highlighting the surface while such a drag is over it. On the drop the
/// payload is asked for, and `dropped` (the surface: where on the grid, and the edit) decides;
/// the source is told whether the widget was added. The drop is taken over the surface's window,
/// the grid's bounding box (no drop slot is drawn).
///
/// Threading: GTK's main thread; callbacks reach it through `Unmanaged` user data. Not `Sendable`.
final class GtkDropTarget {
    /// A drop at window point (`x`, `y`) with the payload's bytes (untrusted); returns whether
    /// the widget was added.
    typealias Dropped = (_ x: Double, _ y: Double, _ payload: [UInt8]) -> Bool
    private let dropped: Dropped

    init(on widget: UnsafeMutablePointer<GtkWidget>, dropped: @escaping Dropped) {
        self.dropped = dropped
        WidgetDragPayload.mimeType.withCString { type in
            var entry = GtkTargetEntry(target: UnsafeMutablePointer(mutating: type), flags: 0, info: 0)
            gtk_drag_dest_set(widget, GtkDestDefaults(rawValue: GTK_DEST_DEFAULT_MOTION.rawValue | GTK_DEST_DEFAULT_HIGHLIGHT.rawValue),
                              &entry, 1, GDK_ACTION_COPY)
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        // The drop: ask for the private type's data (GTK answers in drag-data-received).
        let drop: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, Int32, Int32, UInt32, UnsafeMutableRawPointer?) -> gboolean = { widget, context, _, _, time, _ in
            guard let widget, let context, let target = gtk_drag_dest_find_target(widget, context, nil) else { return 0 }
            gtk_drag_get_data(widget, context, target, time)
            return 1
        }
        widgethost_signal_connect(widget, "drag-drop", unsafeBitCast(drop, to: GCallback.self), me)
        let received: @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, Int32, Int32, OpaquePointer?, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void = {
            _, context, x, y, selection, _, time, data in
            guard let context, let data else { return }
            var bytes: [UInt8] = []
            if let selection, let start = gtk_selection_data_get_data(selection) {
                let length = Int(gtk_selection_data_get_length(selection))
                if length > 0 { bytes = Array(UnsafeBufferPointer(start: start, count: length)) }
            }
            let target = Unmanaged<GtkDropTarget>.fromOpaque(data).takeUnretainedValue()
            let done = target.dropped(Double(x), Double(y), bytes)
            gtk_drag_finish(context, done ? 1 : 0, 0, time)
        }
        widgethost_signal_connect(widget, "drag-data-received", unsafeBitCast(received, to: GCallback.self), me)
    }
}
