import WidgetDesktopScene

/// Which display the lean surface shows on: Wayland layer-shell when `WAYLAND_DISPLAY` is set and
/// the compositor offers `zwlr_layer_shell_v1`; else X11 through `DISPLAY` (Xwayland under GNOME),
/// saying why in one line. `WIDGETHOST_DESKTOP_WAYLAND=toplevel` asks for the `xdg_toplevel`
/// mode the GNOME Shell extension launches. `fullScreen` (StandBy) asks for surfaces over the
/// whole of each output, above every window: the layer-shell overlay layer, or a full-screen
/// X11 window. Main thread.
enum DisplayBackendChoice {
    /// The backend to run on, nil when no display can be opened (the reasons said through `log`).
    static func open(environment: [String: String], fullScreen: Bool = false, log: @escaping (String) -> Void) -> (any DisplayBackend)? {
        if let socket = environment["WAYLAND_DISPLAY"], !socket.isEmpty {
            let role: WaylandSurfaceRole = fullScreen ? .fullScreen : environment["WIDGETHOST_DESKTOP_WAYLAND"] == "toplevel" ? .toplevel : .layerShell
            do {
                let backend = try WaylandLayerShellBackend(role: role)
                backend.log = log
                return backend
            } catch {
                let x11 = environment["DISPLAY"].map { !$0.isEmpty } ?? false
                log("\(error)" + (x11 ? "; an X11 window through DISPLAY instead" : ""))
                guard x11 else { return nil }
            }
        }
        return X11DesktopBackend(fullScreen: fullScreen)
    }
}
