import CGtk
import FoundationEssentials
import OpenWidgetKit
import WidgetConfigEditing
import WidgetDesktopSurface
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The desktop surface: one undecorated window below everything, holding the widgets' pictures
/// on the Home Screen grid (`DesktopGrid`), redrawn when a picture file changes
/// (`OutDirectoryWatch`), clickable (`PictureRegions` → the host's control socket). A stale
/// widget is dimmed with a "stale" mark; while no host runs (`HostProcessWatch`) every widget is
/// dimmed and marked "not running". Wayland: a layer-shell surface on the bottom layer (above
/// the wallpaper — swaybg, Plasma's desktop — and below windows; on the background layer they
/// covered it);
/// X11: a `_NET_WM_WINDOW_TYPE_DESKTOP` window, sticky, kept below, out of the task bar.
/// A gallery tile dropped on it (`GtkDropTarget`) is added where it was dropped on the grid
/// (`WidgetActions.dropDestination`, `addDropped`: one edit of config.json).
///
/// Threading: GTK's main thread only; callbacks reach it through `Unmanaged` user data.
final class DesktopSurface {
    private let outDirectory: String
    /// The config's `desktop` section: read at start, and again after a drop added a widget.
    private var desktop: DesktopConfig
    private let controlSocket: String
    /// The edits a drop makes (nil: drops are not taken).
    private let actions: WidgetActions?
    private var dropTarget: GtkDropTarget?
    private var pictures: [String: WidgetPicture] = [:]
    private var grid = DesktopGrid(widgets: [])
    private let window: UnsafeMutablePointer<GtkWidget>
    private let area: UnsafeMutablePointer<GtkWidget>
    private var outWatch: OutDirectoryWatch?
    private var hostWatch: HostProcessWatch?
    private var status: Int32 = 0
    /// X11 under a window manager without desktop windows (i3, or none): an override-redirect
    /// window lowered below every other, as conky's `own_window_type = 'override'`, since such a
    /// manager floats a desktop-type window above the others.
    private let unmanaged: Bool

    init?(outDirectory: String, desktop: DesktopConfig, controlSocket: String, actions: WidgetActions? = nil) {
        self.outDirectory = outDirectory
        self.desktop = desktop
        self.controlSocket = controlSocket
        self.actions = actions
        widgethost_report_lost_wayland_connection()   // GDK exits 1 after logging why: say it our way
        // The surface draws with Cairo only. Without this, GDK's X11 backend probes GLX for its
        // visuals and maps Mesa's software driver and libLLVM: 29 of the surface's 55 MB PSS
        // under Xvfb (docs/architecture.md, "The desktop program"). A user's own GDK_GL stays.
        setenv("GDK_GL", "disable", 0)
        guard gtk_init_check(nil, nil) != 0 else {
            FileHandleFree.error("widgethost-desktop: cannot open a display (is DISPLAY or WAYLAND_DISPLAY set?)")
            return nil
        }
        unmanaged = gdk_display_get_default().map { widgethost_x11_lacks_desktop_windows($0) != 0 } ?? false
        window = gtk_window_new(unmanaged ? GTK_WINDOW_POPUP : GTK_WINDOW_TOPLEVEL)
        area = gtk_drawing_area_new()
        gtk_window_set_title(cast(window), "widgethost-desktop")
        gtk_container_add(cast(window), area)
        gtk_widget_add_events(area, Int32(GDK_BUTTON_PRESS_MASK.rawValue))
        if let screen = gtk_widget_get_screen(window), let visual = gdk_screen_get_rgba_visual(screen) {
            gtk_widget_set_visual(window, visual)   // transparent where no widget is (with a compositor)
        }
        gtk_widget_set_app_paintable(window, 1)
        let me = Unmanaged.passUnretained(self).toOpaque()
        let draw: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean = { _, cr, data in
            guard let cr, let data else { return 0 }
            Unmanaged<DesktopSurface>.fromOpaque(data).takeUnretainedValue().draw(cr)
            return 1
        }
        widgethost_signal_connect(area, "draw", unsafeBitCast(draw, to: GCallback.self), me)
        let press: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventButton>?, UnsafeMutableRawPointer?) -> gboolean = { _, event, data in
            guard let event, let data else { return 0 }
            Unmanaged<DesktopSurface>.fromOpaque(data).takeUnretainedValue()
                .click(x: event.pointee.x, y: event.pointee.y, button: event.pointee.button)
            return 1
        }
        widgethost_signal_connect(area, "button-press-event", unsafeBitCast(press, to: GCallback.self), me)
        let destroyed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in gtk_main_quit() }
        widgethost_signal_connect(window, "destroy", unsafeBitCast(destroyed, to: GCallback.self), nil)
        if let display = gdk_display_get_default() {
            widgethost_x11_report_lost_connection(display)   // GDK's own exits 1 silently
            let closed: @convention(c) (OpaquePointer?, gboolean, UnsafeMutableRawPointer?) -> Void = { _, _, data in
                guard let data else { return }
                Unmanaged<DesktopSurface>.fromOpaque(data).takeUnretainedValue().displayClosed()
            }
            widgethost_signal_connect(UnsafeMutableRawPointer(display), "closed", unsafeBitCast(closed, to: GCallback.self), me)
        }
        if actions != nil {
            dropTarget = GtkDropTarget(on: area) { [unowned self] x, y, payload in self.drop(x: x, y: y, payload: payload) }
        }
        let stop: GSourceFunc = { _ in gtk_main_quit(); return 1 }
        g_unix_signal_add(SIGTERM, stop, nil)
        g_unix_signal_add(SIGINT, stop, nil)
    }

    /// Shows the surface and runs GTK's loop until SIGTERM/SIGINT (0) or the display goes (1).
    func run() -> Int32 {
        try? FileIO.makeDirectories(outDirectory)
        outWatch = OutDirectoryWatch(directory: outDirectory) { [weak self] name in self?.fileChanged(name) }
        if outWatch == nil {
            FileHandleFree.error("widgethost-desktop: cannot watch \(outDirectory): \(String(cString: strerror(errno)))")
            return 1
        }
        hostWatch = HostProcessWatch(directory: outDirectory) { [weak self] running in
            if !running { FileHandleFree.error("widgethost-desktop: no host is writing \(self?.outDirectory ?? ""): widgets are shown as not running") }
            self?.redraw()
        }
        refreshWidgetSet()
        place()
        gtk_widget_show_all(window)
        if unmanaged, let w = gtk_widget_get_window(window) { gdk_window_lower(w) }
        let surface = isLayerShell ? "a layer-shell surface on the bottom layer"
            : unmanaged ? "a window below all others (the window manager has no desktop windows)" : "a desktop window"
        FileHandleFree.error("widgethost-desktop: \(grid.items.count) widget(s) from \(outDirectory) on \(surface)")
        reportMissing()
        gtk_main()
        return status
    }

    // MARK: - Files

    private func fileChanged(_ name: String) {
        if name == HostPresence.fileName { hostWatch?.rearm(); return }
        let id: String
        if name.hasSuffix(".regions.json") { id = String(name.dropLast(13)) }
        else if name.hasSuffix(".png") { id = String(name.dropLast(4)) }
        else if name.hasSuffix(".json") { id = String(name.dropLast(5)) }
        else { return }
        if let p = pictures[id] {
            let hadFamily = p.family
            if p.reload(in: outDirectory, name: name) {
                if p.family != hadFamily { relayout() } else { redraw() }
            }
        } else if desktop.widgets.isEmpty && name.hasSuffix(".png") {
            refreshWidgetSet()
        }
    }

    /// The widgets shown: the configured ids, or every widget with a picture in `out/`.
    private func refreshWidgetSet() {
        let ids = desktop.widgets.isEmpty
            ? (FileIO.list(outDirectory) ?? []).filter { $0.hasSuffix(".png") && !$0.hasPrefix(".") }.map { String($0.dropLast(4)) }.sorted()
            : desktop.widgets
        for id in ids where pictures[id] == nil {
            let p = WidgetPicture(id: id)
            p.reload(in: outDirectory)
            pictures[id] = p
        }
        relayout()
    }

    /// Says why a widget the surface should show is not on the grid (yet): it appears once the
    /// host has drawn it.
    private func reportMissing() {
        let shown = Set(grid.items.map(\.id))
        if desktop.widgets.isEmpty {
            if shown.isEmpty {
                FileHandleFree.error("widgethost-desktop: no picture in \(outDirectory) yet: a widget shows once the host draws it (\"png\" among its outputs)")
            }
            return
        }
        for id in desktop.widgets where !shown.contains(id) {
            let why = pictures[id]?.pixbuf == nil ? "no picture \(id).png yet" : "its family is not known yet (no \(id).json or \(id).regions.json)"
            FileHandleFree.error("widgethost-desktop: \(id) is not shown: \(why) in \(outDirectory); it shows once the host writes it")
        }
    }

    private func relayout() {
        let order = desktop.widgets.isEmpty ? pictures.keys.sorted() : desktop.widgets
        grid = DesktopGrid(widgets: order.compactMap { id in pictures[id]?.family.map { (id, $0) } },
                           columns: desktop.columns, gap: desktop.gap)
        let w = Int32(max(1, (grid.width * desktop.scale).rounded(.up)))
        let h = Int32(max(1, (grid.height * desktop.scale).rounded(.up)))
        gtk_widget_set_size_request(area, w, h)
        gtk_window_resize(cast(window), w, h)
        if !isLayerShell { place() }
        redraw()
    }

    private func redraw() { gtk_widget_queue_draw(area) }

    // MARK: - Placement

    private lazy var isLayerShell: Bool = {
        guard let display = gdk_display_get_default() else { return false }
        return widgethost_is_wayland(display) != 0 && gtk_layer_is_supported() != 0
    }()

    private func place() {
        let win: UnsafeMutablePointer<GtkWindow> = cast(window)
        let top = desktop.anchor == .topLeft || desktop.anchor == .topRight
        let left = desktop.anchor == .topLeft || desktop.anchor == .bottomLeft
        let margin = Int32((desktop.margin * desktop.scale).rounded())
        if isLayerShell {
            if gtk_layer_is_layer_window(win) == 0 {
                gtk_layer_init_for_window(win)
                gtk_layer_set_layer(win, GTK_LAYER_SHELL_LAYER_BOTTOM)
                gtk_layer_set_namespace(win, "widgethost")
                gtk_layer_set_keyboard_mode(win, GTK_LAYER_SHELL_KEYBOARD_MODE_NONE)
            }
            gtk_layer_set_anchor(win, top ? GTK_LAYER_SHELL_EDGE_TOP : GTK_LAYER_SHELL_EDGE_BOTTOM, 1)
            gtk_layer_set_anchor(win, left ? GTK_LAYER_SHELL_EDGE_LEFT : GTK_LAYER_SHELL_EDGE_RIGHT, 1)
            gtk_layer_set_margin(win, top ? GTK_LAYER_SHELL_EDGE_TOP : GTK_LAYER_SHELL_EDGE_BOTTOM, margin)
            gtk_layer_set_margin(win, left ? GTK_LAYER_SHELL_EDGE_LEFT : GTK_LAYER_SHELL_EDGE_RIGHT, margin)
            return
        }
        gtk_window_set_type_hint(win, GDK_WINDOW_TYPE_HINT_DESKTOP)
        gtk_window_set_decorated(win, 0)
        gtk_window_set_resizable(win, 0)
        gtk_window_set_skip_taskbar_hint(win, 1)
        gtk_window_set_skip_pager_hint(win, 1)
        gtk_window_set_keep_below(win, 1)
        gtk_window_stick(win)
        gtk_window_set_accept_focus(win, 0)
        guard let display = gdk_display_get_default(),
              let monitor = gdk_display_get_primary_monitor(display) ?? gdk_display_get_monitor(display, 0) else { return }
        var area = GdkRectangle()
        gdk_monitor_get_workarea(monitor, &area)
        let w = Int32((grid.width * desktop.scale).rounded(.up)), h = Int32((grid.height * desktop.scale).rounded(.up))
        let x = left ? area.x + margin : area.x + area.width - margin - w
        let y = top ? area.y + margin : area.y + area.height - margin - h
        gtk_window_move(win, x, y)
    }

    // MARK: - Drawing

    private func draw(_ cr: OpaquePointer) {
        // Drawn, the window is viewable where the window manager put it: GDK's idea of its
        // position, which GTK's drop target goes by, is made right (widgethost_x11_sync_toplevel_position).
        if !isLayerShell, !unmanaged, let w = gtk_widget_get_window(window) { _ = widgethost_x11_sync_toplevel_position(w) }
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(cr, 0, 0, 0, 0)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        let hostRunning = hostWatch?.running ?? false
        let s = desktop.scale
        for item in grid.items {
            guard let p = pictures[item.id], let pixbuf = p.pixbuf else { continue }
            let dim = p.stale || !hostRunning
            cairo_save(cr)
            cairo_translate(cr, item.x * s, item.y * s)
            let k = s / p.scale
            cairo_scale(cr, k, k)
            gdk_cairo_set_source_pixbuf(cr, pixbuf, 0, 0)
            cairo_paint_with_alpha(cr, dim ? 0.45 : 1)
            cairo_restore(cr)
            if dim { mark(cr, item: item, text: hostRunning ? "stale" : "not running") }
        }
    }

    /// A small dark pill with `text` in the widget's top-left corner.
    private func mark(_ cr: OpaquePointer, item: DesktopGrid.Item, text: String) {
        let s = desktop.scale
        cairo_save(cr)
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, 11 * s)
        var ext = cairo_text_extents_t()
        cairo_text_extents(cr, text, &ext)
        let pad = 6 * s, h = 18 * s
        let x = item.x * s + 8 * s, y = item.y * s + 8 * s, w = ext.x_advance + 2 * pad
        let r = h / 2
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -Double.pi / 2, Double.pi / 2)
        cairo_arc(cr, x + r, y + r, r, Double.pi / 2, 3 * Double.pi / 2)
        cairo_close_path(cr)
        cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.85)
        cairo_fill(cr)
        cairo_set_source_rgba(cr, 1, 1, 1, 1)
        cairo_move_to(cr, x + pad, y + h / 2 - ext.y_bearing - ext.height / 2)
        cairo_show_text(cr, text)
        cairo_restore(cr)
    }

    // MARK: - Clicks

    /// A press at window point (`x`, `y`): a control's region runs its intent, anywhere else
    /// opens the widget's URL (the host's opener; button 3 asks for the URL).
    private func click(x: Double, y: Double, button: UInt32) {
        let s = desktop.scale
        guard let item = grid.item(atX: x / s, y: y / s), let p = pictures[item.id] else { return }
        let px = (x / s - item.x) * p.scale, py = (y / s - item.y) * p.scale
        let region = p.regions?.hit(x: px, y: py)
        let request: ControlRequest
        if button == 1, let target = region?.target {
            request = ControlRequest(op: .click, id: item.id, button: 1, target: target)
        } else {
            request = ControlRequest(op: .click, id: item.id, button: 3)
        }
        do {
            let r = try ControlSocketClient.send(request, to: controlSocket, timeout: 2)
            FileHandleFree.error("widgethost-desktop: click on \(item.id) at \(Self.wholePixel(px)),\(Self.wholePixel(py)): "
                                 + (r.ok ? r.message ?? "done" : r.error ?? "refused"))
        } catch {
            FileHandleFree.error("widgethost-desktop: click on \(item.id): \(error)")
        }
    }

    // MARK: - Drops

    /// A gallery tile dropped at window point (`x`, `y`): added at that place of the grid, in
    /// one edit; a payload that cannot be read is logged and changes nothing.
    private func drop(x: Double, y: Double, payload: [UInt8]) -> Bool {
        guard let actions else { return false }
        var destination: GridDestination?
        if let p = try? WidgetDragPayload(bytes: payload), let family = WidgetFamily(rawValue: p.placement.family) {
            let order = desktop.widgets.isEmpty ? pictures.keys.sorted() : desktop.widgets
            destination = WidgetActions.dropDestination(adding: family, x: x / desktop.scale, y: y / desktop.scale, order: order,
                                                        families: pictures.compactMapValues(\.family), desktop: desktop)
        }
        guard actions.addDropped(payload, at: destination) else { return false }
        // The new widget's place: the grid as the edited config has it (its picture shows once
        // the host, which applies the change, draws it).
        if let edited = try? DesktopSurfaceConfig.load(explicitPath: actions.configPath, environment: actions.environment) {
            desktop = edited.desktop
            refreshWidgetSet()
        }
        return true
    }

    /// `x` as whole pixels for a log line (`WidgetActions.wholePixel`: never traps).
    static func wholePixel(_ x: Double) -> String { WidgetActions.wholePixel(x) }

    private func displayClosed() {
        FileHandleFree.error("widgethost-desktop: the display went away; stopping")
        status = 1
        gtk_main_quit()
    }
}

/// GTK's "casts" between widget types (`GTK_WINDOW(w)`), which Swift cannot see as macros.
func cast<T>(_ p: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(p).assumingMemoryBound(to: T.self)
}
