import CX11

/// Tells the X11 surface when a drag is under way anywhere on the display, before it reaches
/// the surface: XFixes reports each new owner of `XdndSelection` (an XDND source takes it when a
/// drag starts — GTK at the pointer's first move with the button held — and sets it to None
/// when the drag ends), and the owner's window going away or disconnecting. A new owner counts
/// only while a pointer button is held (a drag, not a program that took the selection and kept
/// it); while a drag is on, the displayed cursor's changes are watched too, and one with no
/// button held ends it (a source that keeps the selection after its drag). Without XFixes it
/// reports nothing (the surface then takes drops over its widgets only). Idle, it costs nothing:
/// no event comes until a drag starts.
///
/// Threading: the X11 backend's thread (Xlib without `XInitThreads`). Not `Sendable`.
final class X11DragWatch {
    private let display: OpaquePointer
    private let root: Window
    private let selection: Atom
    private var eventBase: Int32 = 0
    private let available: Bool
    /// The source's window while a drag is under way, else 0.
    private(set) var source: Window = 0

    init(display: OpaquePointer, root: Window) {
        self.display = display
        self.root = root
        selection = XInternAtom(display, "XdndSelection", 0)
        var errorBase: Int32 = 0
        available = XFixesQueryExtension(display, &eventBase, &errorBase) != 0
        if available {
            XFixesSelectSelectionInput(display, root, selection,
                                       UInt(XFixesSetSelectionOwnerNotifyMask | XFixesSelectionWindowDestroyNotifyMask | XFixesSelectionClientCloseNotifyMask))
        }
    }

    /// `event` as news of a drag: true when one began, false when the one under way ended; nil
    /// for any other event (or no change).
    func handle(_ event: inout XEvent) -> Bool? {
        guard available else { return nil }
        if event.type == eventBase + XFixesSelectionNotify {
            let e = withUnsafePointer(to: &event) { $0.withMemoryRebound(to: XFixesSelectionNotifyEvent.self, capacity: 1) { $0.pointee } }
            guard e.selection == selection else { return nil }
            let owner = e.subtype == XFixesSetSelectionOwnerNotify && buttonHeld() ? e.owner : 0
            return set(owner)
        }
        if event.type == eventBase + XFixesCursorNotify, source != 0, !buttonHeld() {
            return set(0)
        }
        return nil
    }

    /// Forgets the drag under way (it offers no widget, or a click came while none was on):
    /// the next new owner starts one again.
    func end() { _ = set(0) }

    private func set(_ owner: Window) -> Bool? {
        guard owner != source else { return nil }
        let began = source == 0
        source = owner
        XFixesSelectCursorInput(display, root, owner != 0 ? UInt(XFixesDisplayCursorNotifyMask) : 0)
        // A new owner while one was on: the old drag ended as the new one began.
        return owner != 0 ? (began ? true : nil) : false
    }

    /// Whether a pointer button is down now (a round trip; only at a drag's start and end).
    private func buttonHeld() -> Bool {
        var r: Window = 0, c: Window = 0, rx: Int32 = 0, ry: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0, mask: UInt32 = 0
        guard XQueryPointer(display, root, &r, &c, &rx, &ry, &wx, &wy, &mask) != 0 else { return false }
        return mask & UInt32(Button1Mask | Button2Mask | Button3Mask) != 0
    }
}
