/// Drops from another program onto the surface: the gallery's tiles dragged onto the desktop
/// (X11 XDND, Wayland `wl_data_device`; a backend without drop support never calls it). The
/// backend accepts only drags offering `WidgetDragPayload.mimeType` and reads their bytes; this
/// delegate decides where they go. Positions are the output's area points, as for pointer
/// events. A backend finds it by casting its `DisplayBackendDelegate`.
///
/// Threading: called on the surface's thread, from the backend's `dispatch()`.
public protocol DisplayDropDelegate: AnyObject {
    /// A drag of a widget is over `output` at (`x`, `y`); `payload` once read (nil before).
    /// Returns whether a drop there would be taken (the source shows it).
    func displayDragOver(_ backend: any DisplayBackend, output: DisplayOutput.ID, x: Double, y: Double, payload: [UInt8]?) -> Bool
    /// Dropped at (`x`, `y`) of `output` with `payload` (untrusted bytes from another program).
    /// Returns whether the widget was added.
    func displayDrop(_ backend: any DisplayBackend, output: DisplayOutput.ID, x: Double, y: Double, payload: [UInt8]) -> Bool
    /// The drag left the surface, was dropped or cancelled.
    func displayDragEnded(_ backend: any DisplayBackend)
    /// A drag began somewhere on the display (`possible`), before it reaches the surface, or
    /// the drag under way ended or turned out to offer no widget. A backend that cannot tell
    /// never calls it.
    func displayDragPossible(_ backend: any DisplayBackend, _ possible: Bool)
}
