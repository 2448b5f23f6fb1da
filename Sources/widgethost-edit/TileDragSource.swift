import CGtk
import WidgetConfigEditing

/// A gallery tile as a GTK drag source (button 1, copy): it offers its widget as
/// `WidgetDragPayload.mimeType` (the JSON the desktop surface adds where it is dropped) and, so
/// that a drop elsewhere (a text editor, a terminal) still gets something sensible, the same
/// JSON as text. A click without a drag is still the button's "clicked" (add at the first free
/// slot). GTK starts the drag only after the pointer moves past its threshold.
///
/// Threading: GTK's main thread only.
final class TileDragSource {
    private let payload: [UInt8]
    /// The `info` numbers of the offered targets.
    private static let widgetInfo: UInt32 = 1, textInfo: UInt32 = 2

    private init(payload: [UInt8]) { self.payload = payload }

    private static let release: GClosureNotify = { data, _ in
        guard let data else { return }
        Unmanaged<TileDragSource>.fromOpaque(data).release()
    }

    /// Makes `tile` a drag source of `payload`; the source lives as long as the tile.
    static func attach(to tile: UnsafeMutablePointer<GtkWidget>, payload: WidgetDragPayload) {
        let offered: [(String, UInt32)] = [(WidgetDragPayload.mimeType, widgetInfo), ("text/plain;charset=utf-8", textInfo), ("UTF8_STRING", textInfo)]
        let cStrings = offered.map { strdup($0.0)! }
        defer { cStrings.forEach { free($0) } }
        var targets = offered.indices.map { GtkTargetEntry(target: cStrings[$0], flags: 0, info: offered[$0].1) }
        gtk_drag_source_set(tile, GDK_BUTTON1_MASK, &targets, Int32(targets.count), GDK_ACTION_COPY)
        let handler: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, OpaquePointer?, UInt32, UInt32, UnsafeMutableRawPointer?) -> Void = { _, _, selection, info, _, data in
            guard let data, let selection else { return }
            Unmanaged<TileDragSource>.fromOpaque(data).takeUnretainedValue().give(selection, info: info)
        }
        let box = Unmanaged.passRetained(TileDragSource(payload: payload.encoded())).toOpaque()
        g_signal_connect_data(tile, "drag-data-get", unsafeBitCast(handler, to: GCallback.self), box, release, GConnectFlags(rawValue: 0))
    }

    /// "drag-data-get": the payload as the target asked for it (`info` of the offered target).
    private func give(_ selection: OpaquePointer, info: UInt32) {
        if info == TileDragSource.widgetInfo {
            payload.withUnsafeBufferPointer { bytes in
                gtk_selection_data_set(selection, gdk_atom_intern(WidgetDragPayload.mimeType, 0), 8, bytes.baseAddress, Int32(bytes.count))
            }
        } else {
            _ = gtk_selection_data_set_text(selection, String(decoding: payload, as: UTF8.self), -1)
        }
    }
}
