import CX11
import WidgetConfigEditing
import WidgetDesktopScene

/// The X11 surface as an XDND (version 5) drop target for the gallery's tiles: its windows are
/// `XdndAware`; a drag that offers `WidgetDragPayload.mimeType` is answered with `XdndStatus`
/// (accepted, copy; every position reported) and its data converted from `XdndSelection` at
/// once, so the widget's family is known while it moves (the scene shows its drop slot); a drag
/// offering only other types is refused (`XdndStatus` not accepted, `XdndFinished` not done).
/// On `XdndDrop` the payload, once read, goes to the delegate and `XdndFinished` tells the
/// source what happened. XDND finds the target by the window under the pointer and honours the
/// surface's XShape input region, so a drag reaches the surface over its widgets only.
///
/// Threading: the X11 backend's thread (Xlib without `XInitThreads`). Not `Sendable`.
final class X11DropTarget {
    /// Where a root-window point is on the surface: its output, in area points.
    typealias Locate = (_ window: Window, _ rootX: Int, _ rootY: Int) -> (output: DisplayOutput.ID, x: Double, y: Double)?

    private let display: OpaquePointer
    private let aware, enter, position, status, leave, drop, finished, selection, actionCopy, typeList, privateType, property: Atom
    /// The drag under way: its source window, our window it is over, what it offers.
    private var source: Window = 0
    private var target: Window = 0
    private var offered = false
    private var payload: [UInt8]?
    private var last: (output: DisplayOutput.ID, x: Double, y: Double)?
    private var accepting = false
    /// A drop came before its data: finished when the selection arrives.
    private var dropPending = false
    /// The last `XdndEnter` handled came from a drag that offers no widget.
    private(set) var refusedEnter = false

    init(display: OpaquePointer) {
        self.display = display
        func atom(_ name: String) -> Atom { XInternAtom(display, name, 0) }
        aware = atom("XdndAware"); enter = atom("XdndEnter"); position = atom("XdndPosition"); status = atom("XdndStatus")
        leave = atom("XdndLeave"); drop = atom("XdndDrop"); finished = atom("XdndFinished"); selection = atom("XdndSelection")
        actionCopy = atom("XdndActionCopy"); typeList = atom("XdndTypeList"); privateType = atom(WidgetDragPayload.mimeType)
        property = atom("WIDGETHOST_DROPPED_WIDGET")
    }

    /// Marks `window` as a drop target (XDND version 5).
    func makeAware(_ window: Window) {
        var version = 5
        withUnsafeBytes(of: &version) { bytes in
            _ = XChangeProperty(display, window, aware, XA_ATOM, 32, PropModeReplace, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
        }
    }

    /// Handles `event` when it is part of a drag (a client message of XDND, the selection's
    /// arrival); false for every other event.
    func handle(_ event: inout XEvent, backend: any DisplayBackend, delegate: (any DisplayDropDelegate)?, locate: Locate) -> Bool {
        if event.type == SelectionNotify {
            guard event.xselection.selection == selection, target != 0, event.xselection.requestor == target else { return false }
            received(event.xselection, backend: backend, delegate: delegate)
            return true
        }
        guard event.type == ClientMessage else { return false }
        refusedEnter = false
        let m = event.xclient
        let l = m.data.l
        switch m.message_type {
        case enter:
            source = Window(bitPattern: l.0); target = m.window
            payload = nil; last = nil; accepting = false; dropPending = false
            offered = offers(l)
            refusedEnter = !offered
            if offered {
                XDeleteProperty(display, target, property)
                XConvertSelection(display, selection, privateType, property, target, UInt(CurrentTime))
            }
        case position where Window(bitPattern: l.0) == source:
            let root = UInt(bitPattern: l.2)
            last = locate(m.window, Int(root >> 16 & 0xFFFF), Int(root & 0xFFFF))
            updateSlot(backend: backend, delegate: delegate)
            sendStatus()
        case leave where Window(bitPattern: l.0) == source:
            delegate?.displayDragEnded(backend)
            source = 0; offered = false; payload = nil
        case drop where Window(bitPattern: l.0) == source:
            if payload != nil || !offered { finish(backend: backend, delegate: delegate) } else { dropPending = true }
        default:
            return false
        }
        return true
    }

    /// Whether the drag offers the private type: in the message (up to three types) or, with
    /// more, in the source's `XdndTypeList`.
    private func offers(_ l: (Int, Int, Int, Int, Int)) -> Bool {
        if l.1 & 1 == 0 { return [l.2, l.3, l.4].contains { Atom(bitPattern: $0) == privateType } }
        return X11DesktopBackend.longProperty(display, source, typeList, type: XA_ATOM).contains { Atom(bitPattern: $0) == privateType }
    }

    /// The payload arrived (or could not be had): read it (at most `maxBytes` + 1, so a huge
    /// one is refused by `WidgetDragPayload` with its size), then finish a drop waiting for it.
    private func received(_ e: XSelectionEvent, backend: any DisplayBackend, delegate: (any DisplayDropDelegate)?) {
        var bytes: [UInt8] = []
        if e.property != 0 {
            var actualType: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            let longs = (WidgetDragPayload.maxBytes + 4) / 4 + 1
            if XGetWindowProperty(display, e.requestor, property, 0, longs, 1, Atom(AnyPropertyType), &actualType, &format, &count, &after, &data) == Success,
               let data {
                if format == 8 { bytes = Array(UnsafeBufferPointer(start: data, count: Int(count))) + (after > 0 ? [0] : []) }
                XFree(data)
            }
        }
        payload = bytes
        if source != 0 { updateSlot(backend: backend, delegate: delegate) }
        if dropPending { finish(backend: backend, delegate: delegate) }
    }

    private func updateSlot(backend: any DisplayBackend, delegate: (any DisplayDropDelegate)?) {
        guard offered, let last else { accepting = false; return }
        accepting = delegate?.displayDragOver(backend, output: last.output, x: last.x, y: last.y, payload: payload) ?? false
    }

    private func sendStatus() {
        // Accepted (bit 0) and every position wanted (bit 1: no rectangle to stay quiet in).
        send(status, [Int(bitPattern: target), accepting ? 3 : 2, 0, 0, accepting ? Int(bitPattern: actionCopy) : 0])
    }

    private func finish(backend: any DisplayBackend, delegate: (any DisplayDropDelegate)?) {
        var done = false
        if offered, let payload, let last, let delegate {
            done = delegate.displayDrop(backend, output: last.output, x: last.x, y: last.y, payload: payload)
        }
        delegate?.displayDragEnded(backend)
        send(finished, [Int(bitPattern: target), done ? 1 : 0, done ? Int(bitPattern: actionCopy) : 0, 0, 0])
        source = 0; offered = false; payload = nil; dropPending = false; accepting = false
    }

    private func send(_ type: Atom, _ values: [Int]) {
        guard source != 0 else { return }
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.display = display
        event.xclient.window = source
        event.xclient.message_type = type
        event.xclient.format = 32
        event.xclient.data.l = (values[0], values[1], values[2], values[3], values[4])
        XSendEvent(display, source, 0, NoEventMask, &event)
    }
}
