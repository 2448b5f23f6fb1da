import CWayland
import WidgetDesktopScene
#if canImport(Glibc)
import Glibc
#endif

/// The desktop surface on a Wayland compositor: one `WaylandSurface` per output over the widgets'
/// area, either a layer-shell surface on the **bottom** layer (above swaybg's background layer and
/// Plasma's desktop, below windows) or, for GNOME's Shell extension, an `xdg_toplevel` that the
/// shell keeps on its desktop layer. Outputs are described by wl_output v4 and xdg-output
/// (connector, make, model, serial), followed as they are plugged and unplugged; buffers are
/// drawn at each output's scale (fractional through `wp_fractional_scale_v1` or xdg-output's
/// logical size, shown through `wp_viewporter`; the integer `wl_output.scale` without a viewporter).
///
/// Drops from the gallery: each seat's `wl_data_device` (`WaylandDropTarget`), when the
/// compositor offers `wl_data_device_manager`. The loop polls an epoll descriptor holding the
/// compositor's connection and the drags' pipes and deadline, so their data is read as it comes.
///
/// Threading: the surface's one thread (`DisplayBackend`). Delegate calls are made at the end of
/// `dispatch()`, in the order the compositor's events came, never from inside a listener.
final class WaylandLayerShellBackend: DisplayBackend {
    /// The compositor does not offer what `role` needs (`zwlr_layer_shell_v1`, `xdg_wm_base`).
    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    let role: WaylandSurfaceRole
    weak var delegate: (any DisplayBackendDelegate)?
    /// Where a failure the surface survives is said (one line, no program name).
    var log: (String) -> Void = { _ in }
    private let display: OpaquePointer
    private var registry: OpaquePointer?
    private var globals = WaylandGlobals()
    /// The outputs in the order the compositor announced them.
    private var waylandOutputs: [WaylandOutput] = []
    private var surfaces: [DisplayOutput.ID: WaylandSurface] = [:]
    private var seats: [WaylandInput] = []
    private var dataDeviceManager: OpaquePointer?
    private var dataDeviceVersion: UInt32 = 0
    /// Each seat's drop target, by the seat's registry name.
    private var dropTargets: [UInt32: WaylandDropTarget] = [:]
    private var dropSupportSaid = false
    /// What the loop polls: the connection's descriptor and those of the drop targets.
    private let wakeup: Int32
    /// The list last told to the delegate.
    private var reported: [DisplayOutput] = []
    private var pending: [Notice] = []
    private enum Notice { case outputs, frame(DisplayOutput.ID), event(WaylandInput.Event), drag(seat: UInt32, WaylandDropTarget.Step) }

    var modeDescription: String {
        switch role {
        case .layerShell:
            return "a Wayland layer-shell surface on the bottom layer (above the wallpaper, below windows)"
        case .toplevel:
            return "a Wayland xdg-toplevel window for the WidgetHost GNOME Shell extension, which keeps it on the desktop; "
                + "without the extension it is an ordinary window"
        case .fullScreen:
            return globals.layerShell != nil ? "StandBy: a Wayland layer-shell surface on the overlay layer over each whole output"
                : "StandBy: a full-screen Wayland xdg-toplevel window on each output"
        }
    }

    var outputs: [DisplayOutput] { reported }

    var pollDescriptor: Int32 { wakeup }

    /// Connects to the compositor of `WAYLAND_DISPLAY` (or `socket`), learns its globals and
    /// outputs. Throws `DisplayLost` when there is no compositor, `Unsupported` when it lacks what
    /// `role` needs (the caller then tries another backend).
    init(role: WaylandSurfaceRole, socket: String? = nil) throws {
        guard let display = wl_display_connect(socket) else {
            throw DisplayLost("cannot connect to the Wayland compositor \(socket ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0")")
        }
        self.display = display
        self.role = role
        wakeup = widgethost_wayland_wakeup_create()
        if wakeup < 0 {
            let why = String(cString: strerror(errno))
            wl_display_disconnect(display)
            throw DisplayLost("cannot wait for the Wayland compositor: epoll: \(why)")
        }
        _ = widgethost_wayland_wakeup_watch(wakeup, wl_display_get_fd(display), 1)
        registry = wl_display_get_registry(display)
        wl_registry_add_listener(registry, registryListener, Unmanaged.passUnretained(self).toOpaque())
        // The globals, then what the outputs and seats say about themselves.
        if wl_display_roundtrip(display) < 0 || wl_display_roundtrip(display) < 0 { throw lost() }
        guard globals.compositor != nil, globals.compositorVersion >= 3, globals.shm != nil else {
            throw Unsupported(description: "the Wayland compositor offers no wl_compositor (version 3) and wl_shm")
        }
        switch role {
        case .layerShell where globals.layerShell == nil:
            throw Unsupported(description: "the Wayland compositor offers no layer-shell (zwlr_layer_shell_v1)")
        case .toplevel where globals.wmBase == nil, .fullScreen where globals.layerShell == nil && globals.wmBase == nil:
            throw Unsupported(description: "the Wayland compositor offers no xdg-shell (xdg_wm_base)")
        default: break
        }
        pending.removeAll()
        reported = currentOutputs()
    }

    deinit {
        for surface in surfaces.values { surface.destroy() }
        for target in dropTargets.values { target.destroy() }
        for seat in seats { seat.destroy() }
        for waiter in waiters { wl_callback_destroy(waiter.callback) }
        for output in waylandOutputs { output.destroy() }
        for proxy in [dataDeviceManager, globals.layerShell, globals.wmBase, globals.outputManager, globals.viewporter, globals.fractionalScale,
                      globals.shm, globals.compositor, registry].compactMap({ $0 }) {
            wl_proxy_destroy(proxy)
        }
        wl_display_disconnect(display)
        close(wakeup)
    }

    /// `DisplayLost` naming why the connection ended (the compositor's protocol error or errno).
    private func lost() -> DisplayLost {
        let error = wl_display_get_error(display)
        if error == EPROTO {
            var interface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let code = wl_display_get_protocol_error(display, &interface, &id)
            let name = interface.map { String(cString: $0.pointee.name) } ?? "?"
            return DisplayLost("the Wayland compositor ended the connection: protocol error \(code) on \(name)@\(id)")
        }
        return DisplayLost("the Wayland compositor went away (\(String(cString: strerror(error == 0 ? errno : error))))")
    }

    func dispatch() throws {
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { throw lost() }
        }
        // The loop may call this when the descriptor is quiet: read only what is there (never block).
        var ready = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        if poll(&ready, 1, 0) > 0 {
            if wl_display_read_events(display) < 0 && (errno != EAGAIN || wl_display_get_error(display) != 0) { throw lost() }
        } else {
            wl_display_cancel_read(display)
        }
        if wl_display_dispatch_pending(display) < 0 { throw lost() }
        for target in dropTargets.values { target.service() }
        if !dropSupportSaid {
            dropSupportSaid = true
            if dataDeviceManager == nil && role != .fullScreen { log("the Wayland compositor offers no wl_data_device_manager: widgets cannot be dropped from the gallery (choose them there instead)") }
        }
        deliver()
    }

    func flush() throws {
        if wl_display_flush(display) < 0 && errno != EAGAIN { throw lost() }
    }

    func setArea(_ area: LogicalRect?, on output: DisplayOutput.ID) {
        guard let area else {
            surfaces.removeValue(forKey: output)?.destroy()
            return
        }
        guard let waylandOutput = waylandOutputs.first(where: { $0.name == output }) else { return }
        if let surface = surfaces[output], !surface.closed {
            surface.move(to: area, output: waylandOutput)
        } else {
            surfaces.removeValue(forKey: output)?.destroy()
            makeSurface(on: waylandOutput, area: area, inputRects: nil)
        }
    }

    private func makeSurface(on output: WaylandOutput, area: LogicalRect, inputRects: [LogicalRect]?) {
        let surface = WaylandSurface(output: output, area: area, role: role, globals: globals)
        let id = output.name
        surface.frameWanted = { [unowned self] in pending.append(.frame(id)) }
        surface.preferredScale = { [unowned self, unowned output] scale in
            guard output.preferredScale120 != scale else { return }
            output.preferredScale120 = scale
            pending.append(.outputs)
        }
        surface.log = { [unowned self] in log($0) }
        surface.wasClosed = { [unowned self] in afterPendingEvents { [unowned self] in remake(closedOn: id) } }
        if let inputRects { surface.setInputRegion(inputRects) }
        surfaces[id] = surface
    }

    /// A layer surface the compositor closed is made again on its output once every event sent
    /// before the closing has come: unless its output's global was removed meanwhile (sway closes
    /// the surfaces of an output it disables, then removes the output), the output still shows.
    private func remake(closedOn id: DisplayOutput.ID) {
        guard let surface = surfaces[id], surface.closed else { return }
        surfaces.removeValue(forKey: id)
        surface.destroy()
        if let output = waylandOutputs.first(where: { $0.name == id }), output.isReady {
            makeSurface(on: output, area: surface.area, inputRects: surface.inputRects)
        }
    }

    /// Runs `action` when the compositor has answered a `wl_display.sync` sent now.
    private func afterPendingEvents(_ action: @escaping () -> Void) {
        guard let callback = wl_display_sync(display) else { return }
        let waiter = SyncWaiter(callback: callback)
        waiters.append(waiter)
        waiter.done = { [unowned self, unowned waiter] in
            waiters.removeAll { $0 === waiter }
            action()
        }
        wl_callback_add_listener(callback, syncListener, Unmanaged.passUnretained(waiter).toOpaque())
    }
    private var waiters: [SyncWaiter] = []

    func nextBuffer(for output: DisplayOutput.ID) -> PixelBuffer? {
        guard let surface = surfaces[output], let waylandOutput = waylandOutputs.first(where: { $0.name == output }) else { return nil }
        return surface.nextBuffer(scale: waylandOutput.scale(viewporter: globals.viewporter != nil))
    }

    func present(_ buffer: PixelBuffer, damage: [PixelRect]) {
        surfaces[buffer.output]?.present(buffer, damage: damage)
    }

    func setInputRegion(_ rects: [LogicalRect], on output: DisplayOutput.ID) {
        surfaces[output]?.setInputRegion(rects)
    }

    // MARK: - Globals and outputs

    fileprivate func global(name: UInt32, interface: String, version: UInt32) {
        func bind(_ highest: UInt32) -> OpaquePointer? {
            widgethost_wayland_bind(registry, name, interface, min(version, highest)).map(OpaquePointer.init)
        }
        switch interface {
        case "wl_compositor": globals.compositor = bind(4); globals.compositorVersion = min(version, 4)
        case "wl_shm": globals.shm = bind(1)
        case "zwlr_layer_shell_v1": globals.layerShell = bind(4); globals.layerShellVersion = min(version, 4)
        case "xdg_wm_base":
            guard let base = bind(2) else { return }
            globals.wmBase = base
            xdg_wm_base_add_listener(base, wmBaseListener, nil)
        case "wp_viewporter": globals.viewporter = bind(1)
        case "wp_fractional_scale_manager_v1": globals.fractionalScale = bind(1)
        case "zxdg_output_manager_v1":
            guard let manager = bind(3) else { return }
            globals.outputManager = manager
            for output in waylandOutputs { output.describe(with: manager) }
        case "wl_output":
            guard let proxy = bind(4) else { return }
            let output = WaylandOutput(name: name, proxy: proxy, version: min(version, 4))
            output.changed = { [unowned self] in pending.append(.outputs) }
            if let manager = globals.outputManager { output.describe(with: manager) }
            waylandOutputs.append(output)
        case "wl_seat":
            guard let proxy = bind(5) else { return }
            seats.append(WaylandInput(name: name, seat: proxy, version: min(version, 5),
                                      surfaceFor: { [unowned self] proxy in surfaces.values.first { $0.owns(proxy) } },
                                      send: { [unowned self] event in pending.append(.event(event)) }))
            makeDropTargets()
        case "wl_data_device_manager":
            guard dataDeviceManager == nil, let manager = bind(3) else { return }
            dataDeviceManager = manager
            dataDeviceVersion = min(version, 3)
            makeDropTargets()
        default: break
        }
    }

    fileprivate func globalRemoved(name: UInt32) {
        if let index = waylandOutputs.firstIndex(where: { $0.name == name }) {
            surfaces.removeValue(forKey: name)?.destroy()
            waylandOutputs.remove(at: index).destroy()
            pending.append(.outputs)
        }
        if let index = seats.firstIndex(where: { $0.name == name }) {
            dropTargets.removeValue(forKey: name)?.destroy()
            seats.remove(at: index).destroy()
        }
    }

    /// A drop target for each seat that has none, once the data device manager is bound.
    private func makeDropTargets() {
        guard let manager = dataDeviceManager else { return }
        for seat in seats where dropTargets[seat.name] == nil {
            let name = seat.name
            dropTargets[name] = WaylandDropTarget(
                manager: manager, seat: seat.seat, seatName: name, version: dataDeviceVersion,
                surfaceFor: { [unowned self] proxy in surfaces.values.first { $0.owns(proxy) } },
                send: { [unowned self] step in pending.append(.drag(seat: name, step)) },
                watch: { [unowned self] fd, add in _ = widgethost_wayland_wakeup_watch(wakeup, fd, add ? 1 : 0) },
                log: { [unowned self] in log($0) })
        }
    }

    /// The described outputs as `DisplayOutput`s; the first announced is the primary one
    /// (Wayland has no primary output; a compositor announces its first output first).
    private func currentOutputs() -> [DisplayOutput] {
        let viewporter = globals.viewporter != nil
        return waylandOutputs.filter(\.isReady).enumerated().map { index, output in
            output.displayOutput(viewporter: viewporter, isPrimary: index == 0)
        }
    }

    /// Tells the delegate what the listeners noted, in order: a changed output list (once per
    /// dispatch, with rescaled surfaces asked for every pixel), frames wanted, input; again while
    /// what the delegate did noted more.
    private func deliver() {
        var rounds = 0
        while !pending.isEmpty && rounds < 4 {
            deliverOnce()
            rounds += 1
        }
    }

    private func deliverOnce() {
        let notices = pending
        pending.removeAll()
        if notices.contains(where: { if case .outputs = $0 { return true } else { return false } }) {
            let now = currentOutputs()
            if now != reported {
                let before = Dictionary(reported.map { ($0.id, $0.scale) }, uniquingKeysWith: { a, _ in a })
                reported = now
                for output in now where before[output.id].map({ $0 != output.scale }) ?? false { surfaces[output.id]?.rescaled() }
                delegate?.displayOutputsChanged(self)
            }
        }
        var framesTold = Set<DisplayOutput.ID>()
        for notice in notices {
            switch notice {
            case .outputs: break
            case .frame(let id): if framesTold.insert(id).inserted { delegate?.displayFrameWanted(self, output: id) }
            case .event(.pointer(let event)): delegate?.displayPointer(self, event: event)
            case .event(.key(let event)): delegate?.displayKey(self, event: event)
            case .drag(let seat, let step): dropTargets[seat]?.deliver(step, backend: self, delegate: delegate as? any DisplayDropDelegate)
            }
        }
    }
}

/// A `wl_display.sync` callback waited for (`afterPendingEvents`).
private final class SyncWaiter {
    let callback: OpaquePointer
    var done: () -> Void = {}
    init(callback: OpaquePointer) { self.callback = callback }
}

nonisolated(unsafe) private let syncListener: UnsafeMutablePointer<wl_callback_listener> = {
    let listener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_callback_listener(done: { data, callback, _ in
        wl_callback_destroy(callback)
        Unmanaged<SyncWaiter>.fromOpaque(data!).takeUnretainedValue().done()
    }))
    return listener
}()

private func backend(_ data: UnsafeMutableRawPointer?) -> WaylandLayerShellBackend {
    Unmanaged<WaylandLayerShellBackend>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) private let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
    let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_registry_listener(
        global: { data, _, name, interface, version in
            backend(data).global(name: name, interface: interface.map { String(cString: $0) } ?? "", version: version)
        },
        global_remove: { data, _, name in backend(data).globalRemoved(name: name) }))
    return listener
}()

nonisolated(unsafe) private let wmBaseListener: UnsafeMutablePointer<xdg_wm_base_listener> = {
    let listener = UnsafeMutablePointer<xdg_wm_base_listener>.allocate(capacity: 1)
    listener.initialize(to: xdg_wm_base_listener(ping: { _, base, serial in xdg_wm_base_pong(base, serial) }))
    return listener
}()
