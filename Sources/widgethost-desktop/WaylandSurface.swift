import CWayland
import WidgetDesktopScene
#if canImport(Glibc)
import Glibc
#endif

/// The compositor objects `WaylandLayerShellBackend` bound, which surfaces are made with.
struct WaylandGlobals {
    var compositor: OpaquePointer?
    var compositorVersion: UInt32 = 0
    var shm: OpaquePointer?
    var layerShell: OpaquePointer?
    var layerShellVersion: UInt32 = 0
    var wmBase: OpaquePointer?
    var outputManager: OpaquePointer?
    var viewporter: OpaquePointer?
    var fractionalScale: OpaquePointer?
}

/// The role a `WaylandSurface` has: what keeps it on the desktop.
enum WaylandSurfaceRole: Sendable {
    /// `zwlr_layer_surface_v1` on the bottom layer: above the wallpaper (swaybg, Plasma's desktop),
    /// below windows; the compositor places it on its output.
    case layerShell
    /// An `xdg_toplevel`, for a compositor without layer-shell whose shell puts the window on the
    /// desktop layer itself (GNOME, through the WidgetHost Shell extension). By itself it is an
    /// ordinary window that the window manager places.
    case toplevel
    /// StandBy: over the whole output and above every window — a layer surface on the overlay
    /// layer, or, without layer-shell, an `xdg_toplevel` asked to be full screen on its output.
    case fullScreen
}

/// One output's surface: a `wl_surface` with its role over the widgets' area of that output, a
/// viewport and fractional scale where the compositor offers them, two shm buffers, the frame
/// callback that says when the next frame may be drawn, and the input region.
///
/// A frame is drawn only when the compositor asks for one: after the first configure, and after
/// the frame callback of the last one (a surface the compositor does not show gets none), with a
/// buffer the compositor has released.
///
/// Threading: the surface's thread; its listeners run inside the backend's `dispatch()`.
final class WaylandSurface {
    let outputID: DisplayOutput.ID
    let role: WaylandSurfaceRole
    private let globals: WaylandGlobals
    private let surface: OpaquePointer
    private var layerSurface: OpaquePointer?
    private var xdgSurface: OpaquePointer?
    private var toplevel: OpaquePointer?
    private var viewport: OpaquePointer?
    private var fractional: OpaquePointer?
    private var frameCallback: OpaquePointer?
    private var buffers: WaylandShmBuffers?
    private var generation = 0
    /// Frames presented so far (for buffer ages).
    private var frameCount = 0
    /// The scene asked for a buffer and got none: tell it when one can be had.
    private var wantsFrame = false
    private var configuredSize: (width: Int, height: Int)?

    /// The widgets' area on the output, in logical points, as `setArea` gave it.
    private(set) var area: LogicalRect
    /// The surface's place on the output: `area` rounded out to whole logical points.
    private(set) var rect: (x: Int, y: Int, width: Int, height: Int)
    /// The compositor has configured the surface (a buffer may be attached).
    private(set) var configured = false
    /// The compositor closed the layer surface (its output went): it shows nothing any more.
    private(set) var closed = false
    /// The input region, in logical points of `area` (nil: the whole surface).
    private(set) var inputRects: [LogicalRect]?

    /// Called when a frame can be drawn (`displayFrameWanted`).
    var frameWanted: () -> Void = {}
    /// Called with the compositor's preferred scale for the surface, in 120ths.
    var preferredScale: (UInt32) -> Void = { _ in }
    /// Called when the compositor closed the layer surface.
    var wasClosed: () -> Void = {}
    /// Where a failure the surface survives is said (one line, no program name).
    var log: (String) -> Void = { _ in }

    /// Makes the surface of `output` over `area` and commits it without a buffer; the compositor
    /// answers with a configure.
    init(output: WaylandOutput, area: LogicalRect, role: WaylandSurfaceRole, globals: WaylandGlobals) {
        outputID = output.name
        self.role = role
        self.globals = globals
        self.area = area
        rect = Self.wholePoints(area)
        surface = wl_compositor_create_surface(globals.compositor)
        let me = Unmanaged.passUnretained(self).toOpaque()
        if let viewporter = globals.viewporter { viewport = wp_viewporter_get_viewport(viewporter, surface) }
        if let manager = globals.fractionalScale, let scale = wp_fractional_scale_manager_v1_get_fractional_scale(manager, surface) {
            fractional = scale
            wp_fractional_scale_v1_add_listener(scale, fractionalListener, me)
        }
        let layered = role == .layerShell || (role == .fullScreen && globals.layerShell != nil)
        if layered {
            let level = role == .fullScreen ? ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY : ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM
            let layer = zwlr_layer_shell_v1_get_layer_surface(globals.layerShell, surface, output.proxy,
                                                               UInt32(level.rawValue), "widgethost-desktop")!
            layerSurface = layer
            zwlr_layer_surface_v1_add_listener(layer, layerSurfaceListener, me)
            zwlr_layer_surface_v1_set_anchor(layer, UInt32(ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP.rawValue | ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT.rawValue))
            // -1: placed from the output's edges, not moved aside for panels' exclusive zones
            // (the scene's grid is in the output's coordinates).
            zwlr_layer_surface_v1_set_exclusive_zone(layer, -1)
            // Version 4's on_demand: keys reach the surface once it is clicked (edit mode, menus),
            // never taken from a window. Before it, none.
            zwlr_layer_surface_v1_set_keyboard_interactivity(layer, globals.layerShellVersion >= 4
                ? UInt32(ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND.rawValue) : 0)
        } else {
            let xdg = xdg_wm_base_get_xdg_surface(globals.wmBase, surface)!
            xdgSurface = xdg
            xdg_surface_add_listener(xdg, xdgSurfaceListener, me)
            let window = xdg_surface_get_toplevel(xdg)!
            toplevel = window
            xdg_toplevel_add_listener(window, toplevelListener, me)
            xdg_toplevel_set_app_id(window, "widgethost-desktop")
            if role == .fullScreen { xdg_toplevel_set_fullscreen(window, output.proxy) }
        }
        place(output: output)
        wl_surface_commit(surface)
    }

    /// `area` rounded out to whole logical points (a layer surface's margins and size are integers).
    static func wholePoints(_ area: LogicalRect) -> (x: Int, y: Int, width: Int, height: Int) {
        let x = Int(area.x.rounded(.down)), y = Int(area.y.rounded(.down))
        return (x, y, max(1, Int((area.x + area.width).rounded(.up)) - x), max(1, Int((area.y + area.height).rounded(.up)) - y))
    }

    /// The title of the toplevel of `connector`'s surface at `rect`, which the GNOME Shell
    /// extension reads to put the window in its place: "widgethost-desktop CONNECTOR X Y"
    /// (logical points from the output's top-left corner).
    static func toplevelTitle(connector: String, rect: (x: Int, y: Int, width: Int, height: Int)) -> String {
        "widgethost-desktop \(connector) \(rect.x) \(rect.y)"
    }

    private var connector = ""

    /// Sets the role's place and size for `rect` (committed by the caller).
    private func place(output: WaylandOutput) {
        connector = output.connectorName
        if let layer = layerSurface {
            zwlr_layer_surface_v1_set_margin(layer, Int32(rect.y), 0, 0, Int32(rect.x))
            zwlr_layer_surface_v1_set_size(layer, UInt32(rect.width), UInt32(rect.height))
        }
        if let window = toplevel, role == .fullScreen {
            // Not the desktop title: the GNOME extension must leave StandBy's window alone.
            xdg_toplevel_set_title(window, "WidgetHost StandBy")
        } else if let window = toplevel {
            xdg_toplevel_set_title(window, Self.toplevelTitle(connector: connector, rect: rect))
            xdg_toplevel_set_min_size(window, Int32(rect.width), Int32(rect.height))
            xdg_toplevel_set_max_size(window, Int32(rect.width), Int32(rect.height))
        }
    }

    /// Moves or resizes the surface to cover `area`. A new size waits for the compositor's
    /// configure before the next frame.
    func move(to area: LogicalRect, output: WaylandOutput) {
        let old = rect
        self.area = area
        rect = Self.wholePoints(area)
        guard rect != old else { return }
        place(output: output)
        if layerSurface != nil && (rect.width, rect.height) != (old.width, old.height) { configured = false }
        if let rects = inputRects { applyInputRegion(rects) }
        wl_surface_commit(surface)
        if configured { wantsFrame = true; offerFrame() }
    }

    /// A buffer for the next frame at `scale`, or nil (recording that the scene wants one) while
    /// the surface is not configured, the last frame's callback has not come, or the compositor
    /// holds both buffers.
    func nextBuffer(scale: Double) -> PixelBuffer? {
        guard configured, !closed, frameCallback == nil, let shm = globals.shm else { wantsFrame = true; return nil }
        let width = Self.pixels(rect.width, scale), height = Self.pixels(rect.height, scale)
        if let b = buffers, b.width == width, b.height == height, b.scale == scale {
        } else {
            do {
                generation += 1
                let fresh = try WaylandShmBuffers(shm: shm, width: width, height: height, scale: scale, generation: generation)
                fresh.released = { [unowned self] in self.offerFrame() }
                buffers = fresh
            } catch {
                log("\(connector): \(error)")
                return nil
            }
        }
        guard let buffer = buffers?.free(output: outputID, currentFrame: frameCount) else { wantsFrame = true; return nil }
        return buffer
    }

    /// `logical` points at `scale` in whole pixels, rounded up (a hair under a whole number stays it).
    static func pixels(_ logical: Int, _ scale: Double) -> Int { max(1, Int((Double(logical) * scale - 1e-6).rounded(.up))) }

    /// Attaches `buffer` with its damage, asks for the next frame callback and commits.
    func present(_ buffer: PixelBuffer, damage: [PixelRect]) {
        guard !closed, let wlBuffer = buffers?.take(token: buffer.token, frame: frameCount + 1) else {
            wantsFrame = true
            offerFrame()
            return
        }
        frameCount += 1
        wl_surface_attach(surface, wlBuffer, 0, 0)
        if globals.compositorVersion >= 4 {
            for r in damage {
                let x = max(0, r.x), y = max(0, r.y)
                let w = min(buffer.width, r.x + r.width) - x, h = min(buffer.height, r.y + r.height) - y
                if w > 0 && h > 0 { wl_surface_damage_buffer(surface, Int32(x), Int32(y), Int32(w), Int32(h)) }
            }
        } else {
            wl_surface_damage(surface, 0, 0, Int32.max, Int32.max)
        }
        // The buffer is area × scale pixels, shown at the area's logical size pixel for pixel: at
        // a whole scale through the buffer scale (wlroots' pixman renderer resamples a viewport's
        // 1/3 with rounding errors, blurring edges), at a fractional one through the viewport.
        let whole = buffer.scale == buffer.scale.rounded()
        if let viewport, !whole {
            wl_surface_set_buffer_scale(surface, 1)
            wp_viewport_set_destination(viewport, Int32(rect.width), Int32(rect.height))
        } else {
            if let viewport { wp_viewport_set_destination(viewport, -1, -1) }
            wl_surface_set_buffer_scale(surface, Int32(max(1, buffer.scale.rounded())))
        }
        let callback = wl_surface_frame(surface)!
        frameCallback = callback
        wl_callback_add_listener(callback, frameListener, Unmanaged.passUnretained(self).toOpaque())
        wl_surface_commit(surface)
    }

    /// Pointer and touch input reach the surface only inside `rects` (logical points of `area`).
    func setInputRegion(_ rects: [LogicalRect]) {
        inputRects = rects
        applyInputRegion(rects)
        if configured { wl_surface_commit(surface) }
    }

    private func applyInputRegion(_ rects: [LogicalRect]) {
        guard let region = wl_compositor_create_region(globals.compositor) else { return }
        for r in rects {
            let x = r.x + area.x - Double(rect.x), y = r.y + area.y - Double(rect.y)
            let left = Int(x.rounded(.down)), top = Int(y.rounded(.down))
            wl_region_add(region, Int32(left), Int32(top),
                          Int32(Int((x + r.width).rounded(.up)) - left), Int32(Int((y + r.height).rounded(.up)) - top))
        }
        wl_surface_set_input_region(surface, region)
        wl_region_destroy(region)
    }

    /// The output's scale changed: every pixel is drawn again at the new one.
    func rescaled() {
        wantsFrame = true
        offerFrame()
    }

    /// A point of the surface (logical, from its top-left corner) in logical points of `area`.
    func areaPoint(surfaceX: Double, surfaceY: Double) -> (x: Double, y: Double) {
        (surfaceX + Double(rect.x) - area.x, surfaceY + Double(rect.y) - area.y)
    }

    /// Whether `proxy` is this surface's `wl_surface`.
    func owns(_ proxy: OpaquePointer?) -> Bool { proxy == surface }

    /// Tells the scene it may draw if it wants to and a buffer can be had.
    private func offerFrame() {
        guard wantsFrame, configured, !closed, frameCallback == nil, buffers?.hasFree ?? true else { return }
        wantsFrame = false
        frameWanted()
    }

    fileprivate func configure(serial: UInt32, width: Int, height: Int) {
        if let layer = layerSurface { zwlr_layer_surface_v1_ack_configure(layer, serial) }
        if let xdg = xdgSurface { xdg_surface_ack_configure(xdg, serial) }
        let size = (width, height)
        let first = !configured || configuredSize.map { $0 != size } ?? true
        configured = true
        configuredSize = size
        if first { wantsFrame = true; offerFrame() }
    }

    fileprivate func frameDone() {
        if let callback = frameCallback { wl_callback_destroy(callback) }
        frameCallback = nil
        offerFrame()
    }

    fileprivate func layerClosed() {
        closed = true
        wasClosed()
    }

    /// Destroys the surface and everything made for it.
    func destroy() {
        if let callback = frameCallback { wl_callback_destroy(callback); frameCallback = nil }
        buffers = nil
        if let viewport { wp_viewport_destroy(viewport); self.viewport = nil }
        if let fractional { wp_fractional_scale_v1_destroy(fractional); self.fractional = nil }
        if let layer = layerSurface { zwlr_layer_surface_v1_destroy(layer); layerSurface = nil }
        if let window = toplevel { xdg_toplevel_destroy(window); toplevel = nil }
        if let xdg = xdgSurface { xdg_surface_destroy(xdg); xdgSurface = nil }
        wl_surface_destroy(surface)
        closed = true
    }
}

private func owner(_ data: UnsafeMutableRawPointer?) -> WaylandSurface {
    Unmanaged<WaylandSurface>.fromOpaque(data!).takeUnretainedValue()
}

nonisolated(unsafe) private let layerSurfaceListener: UnsafeMutablePointer<zwlr_layer_surface_v1_listener> = {
    let listener = UnsafeMutablePointer<zwlr_layer_surface_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: zwlr_layer_surface_v1_listener(
        configure: { data, _, serial, width, height in owner(data).configure(serial: serial, width: Int(width), height: Int(height)) },
        closed: { data, _ in owner(data).layerClosed() }))
    return listener
}()

nonisolated(unsafe) private let xdgSurfaceListener: UnsafeMutablePointer<xdg_surface_listener> = {
    let listener = UnsafeMutablePointer<xdg_surface_listener>.allocate(capacity: 1)
    listener.initialize(to: xdg_surface_listener(configure: { data, _, serial in
        let s = owner(data)
        s.configure(serial: serial, width: s.rect.width, height: s.rect.height)
    }))
    return listener
}()

nonisolated(unsafe) private let toplevelListener: UnsafeMutablePointer<xdg_toplevel_listener> = {
    let listener = UnsafeMutablePointer<xdg_toplevel_listener>.allocate(capacity: 1)
    // The window's size is the area's whatever the window manager suggests, and it is not closed
    // by the window manager's request: the desktop's widgets stay until the surface ends.
    listener.initialize(to: xdg_toplevel_listener(
        configure: { _, _, _, _, _ in },
        close: { _, _ in },
        configure_bounds: { _, _, _, _ in },
        wm_capabilities: { _, _, _ in }))
    return listener
}()

nonisolated(unsafe) private let fractionalListener: UnsafeMutablePointer<wp_fractional_scale_v1_listener> = {
    let listener = UnsafeMutablePointer<wp_fractional_scale_v1_listener>.allocate(capacity: 1)
    listener.initialize(to: wp_fractional_scale_v1_listener(preferred_scale: { data, _, scale in owner(data).preferredScale(scale) }))
    return listener
}()

nonisolated(unsafe) private let frameListener: UnsafeMutablePointer<wl_callback_listener> = {
    let listener = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)
    listener.initialize(to: wl_callback_listener(done: { data, _, _ in owner(data).frameDone() }))
    return listener
}()
