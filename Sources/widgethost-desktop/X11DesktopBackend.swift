import CX11
import FoundationEssentials
import WidgetDesktopScene
import WidgetDesktopSurface
import WidgetHostCore
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// The lean surface on an X11 display (Xlib, no toolkit): one desktop window per RandR monitor
/// holding that monitor's grid area — `_NET_WM_WINDOW_TYPE_DESKTOP`, sticky, below, out of task
/// bar and pager, undecorated; under a window manager that does not list desktop windows in
/// `_NET_SUPPORTED` (i3, or none) an override-redirect window lowered below every other, as
/// conky's `own_window_type = 'override'`, since such a manager floats a desktop-type window.
/// Scale from `Xft.dpi` (96 = 1), else `fallbackScale` (the layout's `scale`). Input reaches the
/// windows only inside the widgets' rectangles (an XShape input region); a fully obscured
/// window lends no buffer; an exposed one is repainted from its own buffer without the scene;
/// RandR screen changes re-read the monitors. Pointer motion is reported only with a button held
/// (edit mode's drag), so an idle pointer over the desktop costs nothing. Frames go out with
/// MIT-SHM when the server shares memory with us, else `XPutImage`, damaged rectangles only.
/// The desktop's windows take the gallery's drags (`X11DropTarget`, XDND). While a drag is under
/// way on the display (`X11DragWatch`), each output's area holds the grid's reach (the scene's
/// `dragInPossible`) and an input-only XDND-aware window covers it, stacked just above the
/// surface's window, so that the whole grid takes the drop — between widgets and past the last
/// one — while the bare desktop keeps every click when no drag is on. A drag that offers no
/// widget takes that window away at its first `XdndEnter`, so it reaches the desktop beneath.
///
/// Threading: the surface's one thread (Xlib is used without `XInitThreads`). Not `Sendable`.
final class X11DesktopBackend: DisplayBackend, DisplayEventQueue {
    weak var delegate: (any DisplayBackendDelegate)?
    private(set) var outputs: [DisplayOutput] = []
    let pollDescriptor: Int32
    let modeDescription: String
    /// Pixels per point when `Xft.dpi` is not set; changing it re-reads the outputs.
    var fallbackScale: Double = 1 {
        didSet { if fallbackScale != oldValue, dpiScale == nil { readMonitors() } }
    }
    /// True when the window manager has no desktop windows (the windows are override-redirect).
    let unmanaged: Bool

    private let display: OpaquePointer
    private let screen: Int32
    private let root: Window
    private let dpiScale: Double?
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let colormap: Colormap
    private var randrEventBase: Int32 = 0
    private var hasRandR = false
    private var useShm: Bool
    /// Monitor origins in root pixels, by output id.
    private(set) var origins: [DisplayOutput.ID: (x: Int, y: Int)] = [:]
    private var surfaces: [DisplayOutput.ID: Surface] = [:]
    /// The gallery's drags onto the desktop (not StandBy's windows).
    private lazy var dropTarget = X11DropTarget(display: display)
    /// Drags starting and ending anywhere on the display (not for StandBy).
    private lazy var dragWatch = X11DragWatch(display: display, root: root)
    /// True while a drag that may bring a widget is on: the drop windows are mapped.
    private var dragArmed = false

    /// One output's window and the buffer it is drawn from.
    private final class Surface {
        var window: Window = 0
        /// Input-only, XDND-aware, over the whole area: mapped only while a drag is on.
        var dropWindow: Window = 0
        var gc: GC?
        var x = 0, y = 0, width = 0, height = 0
        var scale = 1.0
        var image: UnsafeMutablePointer<XImage>?
        var shm = XShmSegmentInfo()
        var pixels: UnsafeMutableRawPointer?
        var stride = 0
        /// 1 once a frame was presented from the buffer, 0 while it holds nothing shown.
        var age = 0
        /// True from an `XShmPutImage` until the next `XSync`: the server may still be reading
        /// the shared buffer, so the scene must not draw into it yet.
        var shmRead = false
        var obscured = false
        var mapped = false
    }

    /// StandBy: each window covers its whole monitor, above every other (`_NET_WM_STATE_FULLSCREEN`,
    /// or raised override-redirect without a window manager's desktop support), and takes the keyboard.
    let fullScreen: Bool

    /// Opens the display named by `DISPLAY`; nil when there is none. `fullScreen`: StandBy's windows.
    init?(fullScreen: Bool = false) {
        self.fullScreen = fullScreen
        guard let display = XOpenDisplay(nil) else { return nil }
        widgethost_x11_install_handlers()
        self.display = display
        screen = widgethost_x11_default_screen(display)
        root = widgethost_x11_root(display, screen)
        pollDescriptor = widgethost_x11_connection_number(display)
        dpiScale = Self.xftDPI(display).map { $0 / 96 }
        var info = XVisualInfo()
        if XMatchVisualInfo(display, screen, 32, TrueColor, &info) != 0, let v = info.visual {
            visual = v; depth = 32   // transparent where no widget is (with a compositor)
        } else {
            visual = widgethost_x11_default_visual(display, screen); depth = widgethost_x11_default_depth(display, screen)
        }
        colormap = XCreateColormap(display, root, visual, AllocNone)
        let (supportsDesktop, wmName) = Self.windowManager(display, root: root)
        unmanaged = !supportsDesktop
        modeDescription = fullScreen
            ? "StandBy: a full-screen X11 window on each monitor" + (unmanaged ? " above all others" : " under \(wmName ?? "the window manager")")
            : unmanaged
            ? "an X11 window below all others (the window manager has no desktop windows)"
            : "an X11 desktop window under \(wmName ?? "the window manager")"
        var major: Int32 = 0, minor: Int32 = 0, pixmaps: Int32 = 0
        useShm = XShmQueryVersion(display, &major, &minor, &pixmaps) != 0 && getenv("WIDGETHOST_X11_NO_SHM") == nil
        var errorBase: Int32 = 0
        if XRRQueryExtension(display, &randrEventBase, &errorBase) != 0 {
            hasRandR = true
            XRRSelectInput(display, root, Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask))
        }
        // _NET_WORKAREA changes (a panel appears, GNOME's top bar) move the grid off the panels.
        XSelectInput(display, root, PropertyChangeMask)
        readMonitors()
        if !fullScreen { _ = dragWatch }
    }

    deinit {
        for id in Array(surfaces.keys) { destroy(id) }
        XCloseDisplay(display)
    }

    // MARK: - Outputs

    /// `Xft.dpi` from the resource database the session loaded (xrdb), if any.
    static func xftDPI(_ display: OpaquePointer) -> Double? {
        guard let text = XResourceManagerString(display) else { return nil }
        for line in String(cString: text).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.filter { $0 != " " && $0 != "\t" } }
            guard parts.count == 2, parts[0] == "Xft.dpi", let dpi = Double(parts[1]), dpi.isFinite, dpi >= 24, dpi <= 960 else { continue }
            return dpi
        }
        return nil
    }

    /// Whether the window manager lists `_NET_WM_WINDOW_TYPE_DESKTOP` in `_NET_SUPPORTED`, and
    /// its name (`_NET_SUPPORTING_WM_CHECK` → `_NET_WM_NAME`).
    static func windowManager(_ display: OpaquePointer, root: Window) -> (Bool, String?) {
        let supported = longProperty(display, root, atom(display, "_NET_SUPPORTED"), type: XA_ATOM)
        let desktop = atom(display, "_NET_WM_WINDOW_TYPE_DESKTOP")
        var name: String?
        if let check = longProperty(display, root, atom(display, "_NET_SUPPORTING_WM_CHECK"), type: XA_WINDOW).first {
            name = stringProperty(display, Window(check), atom(display, "_NET_WM_NAME"), type: atom(display, "UTF8_STRING"))
        }
        return (supported.contains(Int(desktop)), name)
    }

    private func readMonitors() {
        var next: [DisplayOutput] = []
        var nextOrigins: [DisplayOutput.ID: (x: Int, y: Int)] = [:]
        let scale = dpiScale ?? (fallbackScale.isFinite && fallbackScale >= 0.5 && fallbackScale <= 8 ? fallbackScale : 1)
        // The window manager's work area (the screen less its panels: GNOME's top bar, Xfce's
        // panel), the first desktop's; the grid's anchor and margin count from its edges.
        let area = Self.longProperty(display, root, workAreaAtom, type: XA_CARDINAL)
        // StandBy covers the whole monitor, panels included.
        let workArea = !fullScreen && area.count >= 4 && area[2] > 0 && area[3] > 0 ? (x: area[0], y: area[1], width: area[2], height: area[3]) : nil
        var count: Int32 = 0
        if hasRandR, let monitors = XRRGetMonitors(display, root, 1, &count), count > 0 {
            for i in 0..<Int(count) {
                let m = monitors[i]
                let name = XGetAtomName(display, m.name).map { p in defer { XFree(p) }; return String(cString: p) } ?? "X11-\(i)"
                let id = DisplayOutput.ID(truncatingIfNeeded: m.name)
                let r = Self.usable(x: Int(m.x), y: Int(m.y), width: Int(m.width), height: Int(m.height), workArea: workArea)
                // Its identity from its (first) output's EDID, for `desktop.output` to follow it.
                let edid = m.noutput > 0 ? edid(of: m.outputs[0]) : nil
                next.append(DisplayOutput(id: id, connector: name, make: edid?.make ?? "", model: edid?.model ?? "", serial: edid?.serial ?? "",
                                          logicalWidth: Double(r.width) / scale,
                                          logicalHeight: Double(r.height) / scale, scale: scale, isPrimary: m.primary != 0))
                nextOrigins[id] = (r.x, r.y)
            }
            XRRFreeMonitors(monitors)
        } else {
            let r = Self.usable(x: 0, y: 0, width: Int(widgethost_x11_width(display, screen)), height: Int(widgethost_x11_height(display, screen)),
                                workArea: workArea)
            next.append(DisplayOutput(id: 0, connector: "X11", logicalWidth: Double(r.width) / scale,
                                      logicalHeight: Double(r.height) / scale, scale: scale, isPrimary: true))
            nextOrigins[0] = (r.x, r.y)
        }
        let changed = next != outputs || nextOrigins.mapValues { [$0.x, $0.y] } != origins.mapValues { [$0.x, $0.y] }
        for id in surfaces.keys where !next.contains(where: { $0.id == id }) { destroy(id) }
        outputs = next
        origins = nextOrigins
        if changed { delegate?.displayOutputsChanged(self) }
    }

    /// The RandR output's `EDID` property parsed; nil when it has none (Xvfb, a virtual monitor).
    private func edid(of output: RROutput) -> MonitorEDID? {
        var actualType: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XRRGetOutputProperty(display, output, edidAtom, 0, 64, 0, 0, Atom(AnyPropertyType), &actualType, &format, &count, &after, &data) == Success,
              let data else { return nil }
        defer { XFree(data) }
        guard format == 8 else { return nil }
        return MonitorEDID(Array(UnsafeBufferPointer(start: data, count: Int(count))), manufacturers: Self.manufacturers)
    }
    private lazy var edidAtom: Atom = atom(display, "EDID")
    /// hwdata's PNP ids ("DEL" → "Dell Inc."), as wlroots names makes; read once.
    private static let manufacturers = FileIO.read("/usr/share/hwdata/pnp.ids", limit: 4 << 20).map { MonitorEDID.manufacturers(fromPNPIDs: String(decoding: $0, as: UTF8.self)) } ?? [:]

    // MARK: - Windows

    func setArea(_ area: LogicalRect?, on output: DisplayOutput.ID) {
        guard let area, let o = outputs.first(where: { $0.id == output }), let origin = origins[output] else { destroy(output); return }
        let s = o.scale
        let w = max(1, min(16_384, Int(saturating: (area.width * s).rounded(.up))))
        let h = max(1, min(16_384, Int(saturating: (area.height * s).rounded(.up))))
        let x = origin.x + Int(saturating: (area.x * s).rounded()), y = origin.y + Int(saturating: (area.y * s).rounded())
        let surface = surfaces[output] ?? Surface()
        surfaces[output] = surface
        surface.scale = s
        if surface.window == 0 {
            createWindow(surface, x: x, y: y, width: w, height: h)
        } else if (surface.x, surface.y, surface.width, surface.height) != (x, y, w, h) {
            setSizeHints(surface.window, x: x, y: y, width: w, height: h)
            XMoveResizeWindow(display, surface.window, Int32(x), Int32(y), UInt32(w), UInt32(h))
            if surface.dropWindow != 0 { XMoveResizeWindow(display, surface.dropWindow, Int32(x), Int32(y), UInt32(w), UInt32(h)) }
        }
        if surface.width != w || surface.height != h { allocateBuffer(surface, width: w, height: h) }
        (surface.x, surface.y, surface.width, surface.height) = (x, y, w, h)
        if !surface.mapped {
            XMapWindow(display, surface.window)
            if unmanaged { if fullScreen { XRaiseWindow(display, surface.window) } else { XLowerWindow(display, surface.window) } }
            surface.mapped = true
            if dragArmed { showDropWindow(surface) }
        }
    }

    /// Maps `surface`'s drop window just above the surface's top-level window (its window
    /// manager's frame, or itself when unmanaged): over the widgets, under every other window.
    private func showDropWindow(_ surface: Surface) {
        guard surface.dropWindow != 0, surface.window != 0 else { return }
        var changes = XWindowChanges()
        changes.sibling = topLevel(of: surface.window)
        changes.stack_mode = Above
        XConfigureWindow(display, surface.dropWindow, UInt32(CWSibling | CWStackMode), &changes)
        XMapWindow(display, surface.dropWindow)
    }

    /// The child of the root window that holds `window` (a window manager reparents it).
    private func topLevel(of window: Window) -> Window {
        var w = window
        for _ in 0..<16 {
            var rootReturn: Window = 0, parent: Window = 0, n: UInt32 = 0
            var children: UnsafeMutablePointer<Window>?
            guard XQueryTree(display, w, &rootReturn, &parent, &children, &n) != 0 else { return w }
            if let children { XFree(children) }
            if parent == root || parent == 0 { return w }
            w = parent
        }
        return w
    }

    /// A drag began (`true`) or ended: the drop windows shown or taken away, the scene told.
    private func setDragArmed(_ armed: Bool) {
        guard armed != dragArmed else { return }
        dragArmed = armed
        for surface in surfaces.values where surface.dropWindow != 0 {
            if armed { showDropWindow(surface) } else { XUnmapWindow(display, surface.dropWindow) }
        }
        (delegate as? any DisplayDropDelegate)?.displayDragPossible(self, armed)
    }

    private func createWindow(_ surface: Surface, x: Int, y: Int, width: Int, height: Int) {
        var attributes = XSetWindowAttributes()
        attributes.colormap = colormap
        attributes.border_pixel = 0
        attributes.background_pixel = 0
        attributes.override_redirect = unmanaged ? 1 : 0
        attributes.event_mask = ExposureMask | VisibilityChangeMask | ButtonPressMask | ButtonReleaseMask | ButtonMotionMask
            | LeaveWindowMask | KeyPressMask | StructureNotifyMask
        let mask = UInt(CWColormap | CWBorderPixel | CWBackPixel | CWOverrideRedirect | CWEventMask)
        let window = XCreateWindow(display, root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0, depth,
                                   UInt32(InputOutput), visual, mask, &attributes)
        surface.window = window
        surface.gc = XCreateGC(display, window, 0, nil)
        XStoreName(display, window, "widgethost-desktop")
        var classHint = XClassHint()
        "widgethost-desktop".withCString { name in
            classHint.res_name = UnsafeMutablePointer(mutating: name)
            classHint.res_class = UnsafeMutablePointer(mutating: name)
            XSetClassHint(display, window, &classHint)
        }
        if fullScreen {
            setAtoms(window, "_NET_WM_WINDOW_TYPE", ["_NET_WM_WINDOW_TYPE_NORMAL"])
            setAtoms(window, "_NET_WM_STATE", ["_NET_WM_STATE_FULLSCREEN", "_NET_WM_STATE_ABOVE", "_NET_WM_STATE_STICKY"])
        } else {
            setAtoms(window, "_NET_WM_WINDOW_TYPE", ["_NET_WM_WINDOW_TYPE_DESKTOP"])
            setAtoms(window, "_NET_WM_STATE", ["_NET_WM_STATE_BELOW", "_NET_WM_STATE_STICKY", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER"])
        }
        setLongs(window, atom(display, "_NET_WM_DESKTOP"), type: XA_CARDINAL, [0xFFFF_FFFF])
        // No decorations (Motif hints: flags = decorations, decorations = 0).
        let motif = atom(display, "_MOTIF_WM_HINTS")
        setLongs(window, motif, type: motif, [2, 0, 0, 0, 0])
        // No keyboard focus from the window manager (it is a desktop, not an application); StandBy
        // takes it (Up / Down turn a stack).
        if let hints = XAllocWMHints() {
            hints.pointee.flags = InputHint
            hints.pointee.input = fullScreen ? 1 : 0
            XSetWMHints(display, window, hints)
            XFree(hints)
        }
        setSizeHints(window, x: x, y: y, width: width, height: height)
        if !fullScreen {
            dropTarget.makeAware(window)
            // The drop window: override-redirect (no window manager moves or decorates it), input
            // only; a click on it means no drag is on (a source's grab takes the pointer's events).
            var dropAttributes = XSetWindowAttributes()
            dropAttributes.override_redirect = 1
            dropAttributes.event_mask = ButtonPressMask
            surface.dropWindow = XCreateWindow(display, root, Int32(x), Int32(y), UInt32(width), UInt32(height), 0, 0, UInt32(InputOnly), nil,
                                               UInt(CWOverrideRedirect | CWEventMask), &dropAttributes)
            XStoreName(display, surface.dropWindow, "widgethost-desktop drop area")
            dropTarget.makeAware(surface.dropWindow)
        }
        setInputShape(surface, [])
    }

    /// A fixed size at a place the user asked for: a window manager neither moves nor resizes it.
    private func setSizeHints(_ window: Window, x: Int, y: Int, width: Int, height: Int) {
        guard let hints = XAllocSizeHints() else { return }
        hints.pointee.flags = USPosition | USSize | PPosition | PSize | PMinSize | PMaxSize
        hints.pointee.x = Int32(x); hints.pointee.y = Int32(y)
        hints.pointee.width = Int32(width); hints.pointee.height = Int32(height)
        hints.pointee.min_width = Int32(width); hints.pointee.max_width = Int32(width)
        hints.pointee.min_height = Int32(height); hints.pointee.max_height = Int32(height)
        XSetWMNormalHints(display, window, hints)
        XFree(hints)
    }

    private func destroy(_ output: DisplayOutput.ID) {
        guard let surface = surfaces.removeValue(forKey: output) else { return }
        freeBuffer(surface)
        if let gc = surface.gc { XFreeGC(display, gc) }
        if surface.window != 0 { XDestroyWindow(display, surface.window) }
        if surface.dropWindow != 0 { XDestroyWindow(display, surface.dropWindow) }
    }

    func setInputRegion(_ rects: [LogicalRect], on output: DisplayOutput.ID) {
        guard let surface = surfaces[output] else { return }
        setInputShape(surface, rects)
    }

    private func setInputShape(_ surface: Surface, _ rects: [LogicalRect]) {
        let s = surface.scale
        var xrects = rects.map { r in
            XRectangle(x: Int16(clamping: Int(saturating: (r.x * s).rounded(.down))), y: Int16(clamping: Int(saturating: (r.y * s).rounded(.down))),
                       width: UInt16(clamping: Int(saturating: (r.width * s).rounded(.up))), height: UInt16(clamping: Int(saturating: (r.height * s).rounded(.up))))
        }
        XShapeCombineRectangles(display, surface.window, ShapeInput, 0, 0, &xrects, Int32(xrects.count), ShapeSet, Unsorted)
        // Without a compositor the transparent pixels between widgets would show black over the
        // wallpaper: the window's shape is then the input region too (a menu open: the area).
        if !compositing {
            XShapeCombineRectangles(display, surface.window, ShapeBounding, 0, 0, &xrects, Int32(xrects.count), ShapeSet, Unsorted)
        } else {
            XShapeCombineMask(display, surface.window, ShapeBounding, 0, 0, 0, ShapeSet)
        }
    }

    /// Whether a compositing manager runs on the screen (it owns `_NET_WM_CM_S<screen>`).
    private var compositing: Bool { XGetSelectionOwner(display, atom(display, "_NET_WM_CM_S\(screen)")) != 0 }

    /// Grabs the keyboard for `output`'s window while the scene's menu or edit mode wants keys
    /// (a desktop window takes no focus from the window manager), and lets it go after.
    func setKeyboardWanted(_ wanted: Bool, on output: DisplayOutput.ID) {
        // StandBy's window takes focus as a window does; no grab (Alt-Tab still works).
        guard !fullScreen, let surface = surfaces[output], surface.window != 0 else { return }
        if wanted {
            XGrabKeyboard(display, surface.window, 1, GrabModeAsync, GrabModeAsync, UInt(CurrentTime))
        } else {
            XUngrabKeyboard(display, UInt(CurrentTime))
        }
    }

    // MARK: - Buffers

    private func allocateBuffer(_ surface: Surface, width: Int, height: Int) {
        freeBuffer(surface)
        surface.age = 0
        if useShm, let image = XShmCreateImage(display, visual, UInt32(depth), ZPixmap, nil, &surface.shm, UInt32(width), UInt32(height)) {
            let bytes = Int(image.pointee.bytes_per_line) * height
            surface.shm.shmid = shmget(IPC_PRIVATE, bytes, IPC_CREAT | 0o600)
            if surface.shm.shmid >= 0, let address = shmat(surface.shm.shmid, nil, 0), address != UnsafeMutableRawPointer(bitPattern: -1) {
                surface.shm.shmaddr = address.assumingMemoryBound(to: CChar.self)
                surface.shm.readOnly = 1
                image.pointee.data = surface.shm.shmaddr
                let errors = widgethost_x11_errors()
                XShmAttach(display, &surface.shm)
                XSync(display, 0)
                shmctl(surface.shm.shmid, IPC_RMID, nil)   // freed when both sides detach
                if widgethost_x11_errors() == errors {
                    surface.image = image
                    surface.pixels = address
                    surface.stride = Int(image.pointee.bytes_per_line)
                    memset(address, 0, bytes)
                    return
                }
                shmdt(address)
            } else if surface.shm.shmid >= 0 {
                shmctl(surface.shm.shmid, IPC_RMID, nil)
            }
            widgethost_x11_destroy_image(image)
            surface.shm = XShmSegmentInfo()
            useShm = false   // a remote server: plain XPutImage from now on
        }
        let stride = width * 4
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 16)
        memset(pixels, 0, stride * height)
        surface.pixels = pixels
        surface.stride = stride
        surface.image = XCreateImage(display, visual, UInt32(depth), ZPixmap, 0, pixels.assumingMemoryBound(to: CChar.self),
                                     UInt32(width), UInt32(height), 32, Int32(stride))
    }

    private func freeBuffer(_ surface: Surface) {
        if let image = surface.image {
            if surface.shm.shmaddr != nil {
                XShmDetach(display, &surface.shm)
                XSync(display, 0)
                surface.shmRead = false
                shmdt(surface.shm.shmaddr)
            } else {
                surface.pixels?.deallocate()
            }
            widgethost_x11_destroy_image(image)
        }
        surface.image = nil
        surface.pixels = nil
        surface.shm = XShmSegmentInfo()
        surface.width = 0; surface.height = 0
    }

    func nextBuffer(for output: DisplayOutput.ID) -> PixelBuffer? {
        guard let surface = surfaces[output], let pixels = surface.pixels, !surface.obscured else { return nil }
        // The server reads a shared buffer after XShmPutImage returns: wait for it before the
        // scene writes the next frame (a round trip, only after a frame put through MIT-SHM).
        if surface.shmRead { XSync(display, 0); surface.shmRead = false }
        return PixelBuffer(output: output, pixels: pixels, width: surface.width, height: surface.height, stride: surface.stride,
                           scale: surface.scale, age: surface.age, token: Int(surface.window))
    }

    func present(_ buffer: PixelBuffer, damage: [PixelRect]) {
        guard let surface = surfaces[buffer.output], surface.pixels == buffer.pixels else { return }
        for r in damage { put(surface, r) }
        surface.age = 1
    }

    /// The largest rectangle (pixels) copied through the socket rather than through MIT-SHM: a
    /// ticking clock's time (256 × 68 at scale 2 in the system clock) goes with the request and
    /// needs no `XSync` before the next frame; 32 768 pixels is 128 KiB, a few microseconds of
    /// copying, under a Unix socket's default buffer.
    static let smallPutPixels = 32_768

    /// Copies `r` (clipped to the buffer) of the buffer to the window: a small rectangle in the
    /// request itself (`XPutImage`: the server holds no reference to the buffer after), a
    /// larger one through the shared segment (`XShmPutImage`: `nextBuffer` waits for the server
    /// before the buffer is drawn again).
    private func put(_ surface: Surface, _ r: PixelRect) {
        guard let image = surface.image, let gc = surface.gc else { return }
        let x0 = max(0, r.x), y0 = max(0, r.y)
        let x1 = min(surface.width, r.x + r.width), y1 = min(surface.height, r.y + r.height)
        guard x1 > x0, y1 > y0 else { return }
        if surface.shm.shmaddr != nil && (x1 - x0) * (y1 - y0) > Self.smallPutPixels {
            XShmPutImage(display, surface.window, gc, image, Int32(x0), Int32(y0), Int32(x0), Int32(y0), UInt32(x1 - x0), UInt32(y1 - y0), 0)
            surface.shmRead = true
        } else {
            XPutImage(display, surface.window, gc, image, Int32(x0), Int32(y0), Int32(x0), Int32(y0), UInt32(x1 - x0), UInt32(y1 - y0))
        }
    }

    // MARK: - Events

    func flush() throws { XFlush(display) }

    /// Waits until the server has handled every request sent (the frame log's "on screen").
    func sync() { XSync(display, 0) }

    var hasQueuedEvents: Bool { XEventsQueued(display, QueuedAlready) > 0 }

    func dispatch() throws {
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            handle(&event)
        }
    }

    private func handle(_ event: inout XEvent) {
        let type = event.type
        if hasRandR && (type == randrEventBase + RRScreenChangeNotify || type == randrEventBase + RRNotify) {
            XRRUpdateConfiguration(&event)
            readMonitors()
            return
        }
        if !fullScreen {
            if let began = dragWatch.handle(&event) { setDragArmed(began); return }
            if type == ClientMessage || type == SelectionNotify,
               dropTarget.handle(&event, backend: self, delegate: delegate as? any DisplayDropDelegate, locate: locate) {
                // A drag offering no widget: the drop windows go, so it reaches the desktop beneath.
                if dropTarget.refusedEnter { dragWatch.end(); setDragArmed(false) }
                return
            }
            if type == ButtonPress, surfaces.values.contains(where: { $0.dropWindow == event.xbutton.window }) {
                dragWatch.end(); setDragArmed(false)   // no drag was on after all
                return
            }
        }
        switch type {
        case PropertyNotify where event.xproperty.window == root:
            if event.xproperty.atom == workAreaAtom { readMonitors() }
        case Expose:
            let e = event.xexpose
            guard let (id, surface) = surface(of: e.window), surface.age > 0 else { return }
            _ = id
            put(surface, PixelRect(x: Int(e.x), y: Int(e.y), width: Int(e.width), height: Int(e.height)))
        case VisibilityNotify:
            let e = event.xvisibility
            guard let (id, surface) = surface(of: e.window) else { return }
            let obscured = e.state == VisibilityFullyObscured
            if surface.obscured && !obscured {
                surface.obscured = false
                delegate?.displayFrameWanted(self, output: id)
            }
            surface.obscured = obscured
        case ButtonPress, ButtonRelease:
            let e = event.xbutton
            guard let (id, surface) = surface(of: e.window) else { return }
            let button = Int(e.button)
            guard (1...3).contains(button) else { return }   // 4–7: the wheel
            delegate?.displayPointer(self, event: PointerEvent(output: id, kind: type == ButtonPress ? .press(button: button) : .release(button: button),
                                                               x: Double(e.x) / surface.scale, y: Double(e.y) / surface.scale, time: UInt32(truncatingIfNeeded: e.time)))
        case MotionNotify:   // with a button held: edit mode's drag
            let e = event.xmotion
            guard let (id, surface) = surface(of: e.window) else { return }
            delegate?.displayPointer(self, event: PointerEvent(output: id, kind: .motion, x: Double(e.x) / surface.scale,
                                                               y: Double(e.y) / surface.scale, time: UInt32(truncatingIfNeeded: e.time)))
        case LeaveNotify:
            let e = event.xcrossing
            guard let (id, surface) = surface(of: e.window) else { return }
            delegate?.displayPointer(self, event: PointerEvent(output: id, kind: .leave, x: Double(e.x) / surface.scale,
                                                               y: Double(e.y) / surface.scale, time: UInt32(truncatingIfNeeded: e.time)))
        case KeyPress:
            guard let (id, _) = surface(of: event.xkey.window) else { return }
            let symbol = XLookupKeysym(&event.xkey, 0)
            let shift = event.xkey.state & UInt32(ShiftMask) != 0
            delegate?.displayKey(self, event: KeyEvent(output: id, key: Self.key(symbol, shift: shift)))
        default:
            break
        }
    }

    static func key(_ symbol: KeySym, shift: Bool) -> KeyEvent.Key {
        switch Int32(truncatingIfNeeded: symbol) {
        case XK_Escape: return .escape
        case XK_Tab, XK_ISO_Left_Tab: return shift || symbol == KeySym(XK_ISO_Left_Tab) ? .backTab : .tab
        case XK_Return, XK_KP_Enter: return .enter
        case XK_space: return .space
        case XK_Left: return .left
        case XK_Right: return .right
        case XK_Up: return .up
        case XK_Down: return .down
        case XK_Menu: return .menu
        case XK_Delete, XK_BackSpace: return .delete
        default: return .other(UInt32(truncatingIfNeeded: symbol))
        }
    }

    /// A root-window point over `window` (one of the surface's) in its output's area points.
    private func locate(_ window: Window, _ rootX: Int, _ rootY: Int) -> (output: DisplayOutput.ID, x: Double, y: Double)? {
        guard let (id, surface) = surface(of: window) ?? surfaces.first(where: { $0.value.dropWindow == window }).map({ ($0.key, $0.value) }) else { return nil }
        var x: Int32 = 0, y: Int32 = 0, child: Window = 0
        guard XTranslateCoordinates(display, root, window, Int32(rootX), Int32(rootY), &x, &y, &child) != 0 else { return nil }
        return (id, Double(x) / surface.scale, Double(y) / surface.scale)
    }

    private func surface(of window: Window) -> (DisplayOutput.ID, Surface)? {
        surfaces.first { $0.value.window == window }.map { ($0.key, $0.value) }
    }

    // MARK: - Properties

    private func setAtoms(_ window: Window, _ property: String, _ values: [String]) {
        setLongs(window, atom(display, property), type: XA_ATOM, values.map { Int(atom(display, $0)) })
    }

    private func setLongs(_ window: Window, _ property: Atom, type: Atom, _ values: [Int]) {
        values.withUnsafeBytes { bytes in
            _ = XChangeProperty(display, window, property, type, 32, PropModeReplace,
                                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(values.count))
        }
    }

    static func atom(_ display: OpaquePointer, _ name: String) -> Atom { XInternAtom(display, name, 0) }
    /// Asked once: every property change on the root window is compared with it.
    private lazy var workAreaAtom: Atom = atom(display, "_NET_WORKAREA")
    private func atom(_ display: OpaquePointer, _ name: String) -> Atom { Self.atom(display, name) }

    /// A format-32 property's values (`long`s), empty when absent.
    /// The part of a monitor's rectangle inside the work area, or the whole monitor when they do
    /// not meet (a work area of another monitor) or none is published. Pure.
    static func usable(x: Int, y: Int, width: Int, height: Int, workArea: (x: Int, y: Int, width: Int, height: Int)?) -> (x: Int, y: Int, width: Int, height: Int) {
        guard let a = workArea else { return (x, y, width, height) }
        let left = max(x, a.x), top = max(y, a.y)
        let right = min(x + width, a.x + a.width), bottom = min(y + height, a.y + a.height)
        guard right - left > 0, bottom - top > 0 else { return (x, y, width, height) }
        return (left, top, right - left, bottom - top)
    }

    static func longProperty(_ display: OpaquePointer, _ window: Window, _ property: Atom, type: Atom) -> [Int] {
        var actualType: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, window, property, 0, 1024, 0, type, &actualType, &format, &count, &after, &data) == Success,
              let data else { return [] }
        defer { XFree(data) }
        guard format == 32 else { return [] }
        return UnsafeRawPointer(data).withMemoryRebound(to: Int.self, capacity: Int(count)) { Array(UnsafeBufferPointer(start: $0, count: Int(count))) }
    }

    static func stringProperty(_ display: OpaquePointer, _ window: Window, _ property: Atom, type: Atom) -> String? {
        var actualType: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard XGetWindowProperty(display, window, property, 0, 1024, 0, type, &actualType, &format, &count, &after, &data) == Success,
              let data else { return nil }
        defer { XFree(data) }
        guard format == 8 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self)
    }
}
