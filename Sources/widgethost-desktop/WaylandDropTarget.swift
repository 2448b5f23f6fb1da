import CWayland
import WidgetConfigEditing
import WidgetDesktopScene
#if canImport(Glibc)
import Glibc
#endif

/// One seat's `wl_data_device` as a drop target for the gallery's tiles (the Wayland
/// counterpart of `X11DropTarget`). Each drag's `wl_data_offer` lists its mime types; on `enter`
/// over one of the surface's surfaces an offer of `WidgetDragPayload.mimeType` is accepted
/// (`accept` + `set_actions(copy)`) and its data asked for at once (`receive` into a pipe,
/// read without blocking from the surface's loop, at most `WidgetDragPayload.maxBytes` + 1
/// bytes, so a huge one is refused by `WidgetDragPayload` with its size), so the widget's family
/// is known while it moves and the scene shows its drop slot; an offer of other types only is
/// refused (`accept(NULL)`) and never reaches the delegate. On `drop` the payload goes to the
/// delegate, then the offer is `finish`ed (version 3, when the widget was added) and destroyed;
/// a drop whose data has not all come yet waits for it at most `dataPatience` seconds. `leave`
/// before a drop ends the drag. A source that sends nothing, closes the pipe early or sends
/// too much gets one log line and adds nothing.
///
/// The compositor finds the drop target by the surface's input region (wlroots: the surface
/// under the pointer that accepts input there), so, as on X11, a drag reaches the surface over
/// its widgets, and in edit mode (the whole grid area is the input region) between them too.
///
/// Threading: the surface's thread; listeners run inside the backend's `dispatch()`, which
/// passes the `Step`s they make to `deliver` at its end (delegate calls happen only there).
final class WaylandDropTarget {
    /// A drag as the compositor offers it to the surface.
    final class Drag {
        fileprivate let offer: OpaquePointer
        fileprivate let serial: UInt32
        /// The offer has `WidgetDragPayload.mimeType`.
        fileprivate let wanted: Bool
        fileprivate var output: DisplayOutput.ID
        fileprivate var at: (x: Double, y: Double)
        fileprivate var pipe: Int32 = -1
        fileprivate var bytes: [UInt8] = []
        /// Every byte read (or the cap passed): what the delegate gets.
        fileprivate var payload: [UInt8]?
        /// What `accept` last said.
        fileprivate var accepting: Bool?
        /// The action the compositor chose (`wl_data_offer.action`).
        fileprivate var action: UInt32 = 0
        fileprivate var overQueued = false
        fileprivate var dropped = false
        fileprivate var timedOut = false
        fileprivate var ended = false

        fileprivate init(offer: OpaquePointer, serial: UInt32, wanted: Bool, output: DisplayOutput.ID, at: (x: Double, y: Double)) {
            self.offer = offer; self.serial = serial; self.wanted = wanted; self.output = output; self.at = at
        }
    }

    /// What the device said, for the backend to pass on at the end of `dispatch()`.
    enum Step {
        /// The drag moved over the surface, or its payload came: ask the delegate about the slot.
        case over(Drag)
        /// Dropped (or its payload came after the drop, or waiting for it timed out).
        case drop(Drag)
        /// The drag left the surface without a drop.
        case leave(Drag)
    }

    /// How long a drop waits for the rest of its data.
    static let dataPatience = 3.0

    /// The registry name of the seat's global.
    let seatName: UInt32
    private let device: OpaquePointer
    private let version: UInt32
    private let surfaceFor: (OpaquePointer?) -> WaylandSurface?
    private let send: (Step) -> Void
    /// Adds (true) or removes (false) a descriptor from what the surface's loop waits for.
    private let watch: (Int32, Bool) -> Void
    private let log: (String) -> Void
    /// The last `data_offer` and the mime types it listed so far.
    private var incoming: (offer: OpaquePointer, types: [String])?
    /// The drag over the surface now.
    private var current: Drag?
    /// Drags not ended: reading their data or waiting for it after a drop.
    private var drags: [Drag] = []
    /// Fires `dataPatience` after a drop that waits for its data.
    private var deadline: Int32 = -1

    /// The seat's data device from `manager` (bound at `version`, at most 3).
    init(manager: OpaquePointer, seat: OpaquePointer, seatName: UInt32, version: UInt32,
         surfaceFor: @escaping (OpaquePointer?) -> WaylandSurface?, send: @escaping (Step) -> Void,
         watch: @escaping (Int32, Bool) -> Void, log: @escaping (String) -> Void) {
        self.seatName = seatName; self.version = version
        self.surfaceFor = surfaceFor; self.send = send; self.watch = watch; self.log = log
        device = wl_data_device_manager_get_data_device(manager, seat)
        wl_data_device_add_listener(device, deviceListener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Ends every drag (nothing added) and releases the device (the seat went or the backend ends).
    func destroy() {
        for drag in drags { close(drag) }
        drags.removeAll()
        current = nil
        if let incoming { wl_data_offer_destroy(incoming.offer) }
        incoming = nil
        if deadline >= 0 { watch(deadline, false); Glibc.close(deadline); deadline = -1 }
        if version >= 2 { wl_data_device_release(device) } else { wl_data_device_destroy(device) }
    }

    // MARK: - Listeners

    fileprivate func offered(_ offer: OpaquePointer?) {
        guard let offer else { return }
        // One that came before and was neither entered nor the selection is no one's.
        if let old = incoming { wl_data_offer_destroy(old.offer) }
        incoming = (offer, [])
        wl_data_offer_add_listener(offer, offerListener, Unmanaged.passUnretained(self).toOpaque())
    }

    fileprivate func offer(_ offer: OpaquePointer?, type: String) {
        if let i = incoming, i.offer == offer { incoming!.types.append(type) }
    }

    fileprivate func offer(_ offer: OpaquePointer?, action: UInt32) {
        drags.first { $0.offer == offer }?.action = action
    }

    fileprivate func entered(serial: UInt32, surface proxy: OpaquePointer?, x: wl_fixed_t, y: wl_fixed_t, offer: OpaquePointer?) {
        if let drag = current, !drag.dropped { send(.leave(drag)) }
        current = nil
        currentSurface = nil
        guard let offer else { return }   // a drag inside another client without data
        let types = incoming.map { $0.offer == offer ? $0.types : [] } ?? []
        if incoming?.offer == offer { incoming = nil }
        guard let surface = surfaceFor(proxy) else { wl_data_offer_destroy(offer); return }
        currentSurface = surface
        let wanted = types.contains(WidgetDragPayload.mimeType)
        let drag = Drag(offer: offer, serial: serial, wanted: wanted, output: surface.outputID,
                        at: surface.areaPoint(surfaceX: wl_fixed_to_double(x), surfaceY: wl_fixed_to_double(y)))
        current = drag
        drags.append(drag)
        guard wanted else {
            wl_data_offer_accept(offer, serial, nil)
            drag.accepting = false
            return
        }
        wl_data_offer_accept(offer, serial, WidgetDragPayload.mimeType)
        drag.accepting = true
        let copy = UInt32(WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue)
        if version >= 3 { wl_data_offer_set_actions(offer, copy, copy) }
        receive(drag)
        queueOver(drag)
    }

    fileprivate func moved(x: wl_fixed_t, y: wl_fixed_t) {
        guard let drag = current, !drag.dropped, let surface = currentSurface else { return }
        drag.at = surface.areaPoint(surfaceX: wl_fixed_to_double(x), surfaceY: wl_fixed_to_double(y))
        if drag.wanted { queueOver(drag) }
    }

    /// The surface the current drag is over (motion events name none).
    private weak var currentSurface: WaylandSurface?

    fileprivate func left() {
        currentSurface = nil
        // wlroots sends `leave` after `drop` too: the drop ends that drag itself.
        guard let drag = current else { return }
        current = nil
        if !drag.dropped { send(.leave(drag)) }
    }

    fileprivate func dropped() {
        guard let drag = current, !drag.dropped else { return }
        drag.dropped = true
        send(.drop(drag))
    }

    fileprivate func selection(_ offer: OpaquePointer?) {
        // The clipboard's offer: the surface pastes nothing.
        if let offer {
            if incoming?.offer == offer { incoming = nil }
            wl_data_offer_destroy(offer)
        }
    }

    private func queueOver(_ drag: Drag) {
        guard !drag.overQueued else { return }
        drag.overQueued = true
        send(.over(drag))
    }

    // MARK: - The payload

    private func receive(_ drag: Drag) {
        var ends: [Int32] = [-1, -1]
        guard widgethost_wayland_pipe(&ends) == 0 else {
            log("cannot read the dragged widget: pipe: \(String(cString: strerror(errno)))")
            drag.payload = []
            return
        }
        // libwayland sends a duplicate of the write end: ours is closed at once, so the pipe
        // ends when the source closes its copy.
        wl_data_offer_receive(drag.offer, WidgetDragPayload.mimeType, ends[1])
        Glibc.close(ends[1])
        drag.pipe = ends[0]
        watch(drag.pipe, true)
    }

    /// Reads what the drags' pipes hold and notes a deadline passed; called by the backend's
    /// `dispatch()` every time it runs (the loop wakes for these descriptors too).
    func service() {
        if deadline >= 0 {
            var expirations: UInt64 = 0
            if Glibc.read(deadline, &expirations, 8) == 8 {
                for drag in drags where drag.dropped && drag.payload == nil && !drag.ended {
                    drag.timedOut = true
                    send(.drop(drag))
                }
            }
        }
        for drag in drags where drag.pipe >= 0 { read(drag) }
    }

    private func read(_ drag: Drag) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while drag.pipe >= 0 {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(drag.pipe, $0.baseAddress, $0.count) }
            if n > 0 {
                drag.bytes += chunk[0..<n]
                if drag.bytes.count > WidgetDragPayload.maxBytes {
                    log("the dragged widget's data is more than \(WidgetDragPayload.maxBytes) bytes: not read further")
                    drag.bytes = Array(drag.bytes.prefix(WidgetDragPayload.maxBytes + 1))
                    complete(drag)
                }
            } else if n == 0 {
                complete(drag)
            } else if errno == EINTR {
                continue
            } else {
                if errno != EAGAIN && errno != EWOULDBLOCK {
                    log("cannot read the dragged widget: \(String(cString: strerror(errno)))")
                    complete(drag)
                }
                return
            }
        }
    }

    private func complete(_ drag: Drag) {
        closePipe(drag)
        drag.payload = drag.bytes
        // Said once here (the delegate then refuses the drag, so no drop says it).
        if drag.bytes.isEmpty {
            log("the dragged widget's source sent no data (it closed the pipe): refused")
        } else if drag.bytes.count <= WidgetDragPayload.maxBytes {
            do { _ = try WidgetDragPayload(bytes: drag.bytes) } catch { log("the dragged widget is refused: \(error)") }
        }
        if drag.dropped { send(.drop(drag)) } else if drag === current { queueOver(drag) }
    }

    private func closePipe(_ drag: Drag) {
        guard drag.pipe >= 0 else { return }
        watch(drag.pipe, false)
        Glibc.close(drag.pipe)
        drag.pipe = -1
    }

    // MARK: - Delivery

    /// Tells `delegate` what `step` means and answers the compositor; at the end of `dispatch()`.
    func deliver(_ step: Step, backend: any DisplayBackend, delegate: (any DisplayDropDelegate)?) {
        switch step {
        case .over(let drag):
            drag.overQueued = false
            guard !drag.ended, !drag.dropped, drag.wanted else { return }
            let accepting = delegate?.displayDragOver(backend, output: drag.output, x: drag.at.x, y: drag.at.y, payload: drag.payload) ?? false
            if accepting != drag.accepting {
                wl_data_offer_accept(drag.offer, drag.serial, accepting ? WidgetDragPayload.mimeType : nil)
                drag.accepting = accepting
            }
        case .drop(let drag):
            guard !drag.ended else { return }
            guard drag.wanted, let delegate else { return end(drag, added: false, backend: backend, delegate: delegate) }
            guard let payload = drag.payload else {
                if drag.timedOut {
                    log("the dropped widget's data did not come within \(Int(Self.dataPatience)) s: nothing added")
                    end(drag, added: false, backend: backend, delegate: delegate)
                } else {
                    armDeadline()
                }
                return
            }
            let added = delegate.displayDrop(backend, output: drag.output, x: drag.at.x, y: drag.at.y, payload: payload)
            end(drag, added: added, backend: backend, delegate: delegate)
        case .leave(let drag):
            guard !drag.ended else { return }
            end(drag, added: false, backend: backend, delegate: delegate)
        }
    }

    /// Ends `drag`: `finish` tells the source the widget was taken (version 3, a copy chosen);
    /// an offer destroyed without it is a cancelled drop for the source.
    private func end(_ drag: Drag, added: Bool, backend: any DisplayBackend, delegate: (any DisplayDropDelegate)?) {
        if added && version >= 3 && drag.action == UInt32(WL_DATA_DEVICE_MANAGER_DND_ACTION_COPY.rawValue) {
            wl_data_offer_finish(drag.offer)
        }
        close(drag)
        drags.removeAll { $0 === drag }
        if current === drag { current = nil }
        if drag.wanted { delegate?.displayDragEnded(backend) }
    }

    private func close(_ drag: Drag) {
        guard !drag.ended else { return }
        drag.ended = true
        closePipe(drag)
        wl_data_offer_destroy(drag.offer)
    }

    private func armDeadline() {
        if deadline < 0 {
            deadline = widgethost_wayland_timer_create()
            guard deadline >= 0 else { return log("cannot wait for the dropped widget's data: timerfd: \(String(cString: strerror(errno)))") }
            watch(deadline, true)
        }
        _ = widgethost_wayland_timer_arm(deadline, UInt32(Self.dataPatience * 1000))
    }
}

private func target(_ data: UnsafeMutableRawPointer?) -> WaylandDropTarget {
    Unmanaged<WaylandDropTarget>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) private let deviceListener: UnsafeMutablePointer<wl_data_device_listener> = {
    let listener = UnsafeMutablePointer<wl_data_device_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_data_device_listener(
        data_offer: { data, _, offer in target(data).offered(offer) },
        enter: { data, _, serial, surface, x, y, offer in target(data).entered(serial: serial, surface: surface, x: x, y: y, offer: offer) },
        leave: { data, _ in target(data).left() },
        motion: { data, _, _, x, y in target(data).moved(x: x, y: y) },
        drop: { data, _ in target(data).dropped() },
        selection: { data, _, offer in target(data).selection(offer) }))
    return listener
}()

nonisolated(unsafe) private let offerListener: UnsafeMutablePointer<wl_data_offer_listener> = {
    let listener = UnsafeMutablePointer<wl_data_offer_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_data_offer_listener(
        offer: { data, offer, type in target(data).offer(offer, type: type.map { String(cString: $0) } ?? "") },
        source_actions: { _, _, _ in },
        action: { data, offer, action in target(data).offer(offer, action: action) }))
    return listener
}()
