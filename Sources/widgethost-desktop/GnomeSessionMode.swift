/// Which kind of window the surface can have in a GNOME Wayland session, decided from the
/// environment alone before any display is opened. GNOME has no layer-shell: a native Wayland
/// window is kept on the desktop only when the WidgetHost GNOME Shell extension started the
/// surface (as a `Meta.WaylandClient`, with `WIDGETHOST_GNOME_EXTENSION` set); otherwise the
/// surface is an Xwayland desktop window when `DISPLAY` is there, which mutter stacks below every
/// window. Outside GNOME Wayland there is nothing to decide (`nil`).
///
/// Call it once at start, before the toolkit or backend picks a display:
///
///     if let mode = GnomeSessionMode.detect(ProcessEnvironment.current()) {
///         FileHandleFree.error(mode.line)
///         if mode == .xwaylandDesktopWindow { /* open DISPLAY (GTK: setenv("GDK_BACKEND", "x11", 1)) */ }
///     }
///
/// A value type; pure.
enum GnomeSessionMode: Equatable {
    /// Started by the extension: a Wayland window the extension keeps on the desktop layer.
    case extensionKeepsWaylandWindow
    /// No extension, `DISPLAY` set: an X11 desktop-type window through Xwayland.
    case xwaylandDesktopWindow
    /// No extension and no Xwayland: an ordinary Wayland window, placed, stacked and listed by
    /// mutter like any application's.
    case ordinaryWaylandWindow

    static let extensionUUID = "widgethost-desktop@widgethost.github.io"
    /// Set by the extension in the environment of the surface it starts.
    static let extensionMarker = "WIDGETHOST_GNOME_EXTENSION"

    /// The mode for `environment`, nil when this is not a GNOME Wayland session.
    static func detect(_ environment: [String: String]) -> GnomeSessionMode? {
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").map { $0.lowercased() }
        let wayland = !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_SOCKET"] ?? "").isEmpty
        guard desktops.contains("gnome"), wayland else { return nil }
        if !(environment[extensionMarker] ?? "").isEmpty { return .extensionKeepsWaylandWindow }
        return (environment["DISPLAY"] ?? "").isEmpty ? .ordinaryWaylandWindow : .xwaylandDesktopWindow
    }

    /// The one line saying which mode runs and how to get the other.
    var line: String {
        let enable = "scripts/install.sh --user, log out and in, then gnome-extensions enable \(Self.extensionUUID)"
        switch self {
        case .extensionKeepsWaylandWindow:
            return "widgethost-desktop: GNOME Wayland: a Wayland window kept on the desktop by the WidgetHost GNOME Shell extension "
                + "(disable it with gnome-extensions disable \(Self.extensionUUID); started alone, the surface is an Xwayland desktop window)"
        case .xwaylandDesktopWindow:
            return "widgethost-desktop: GNOME Wayland without the WidgetHost GNOME Shell extension: an Xwayland desktop window "
                + "(for a native Wayland one kept on the desktop: \(enable); the extension then starts the surface itself)"
        case .ordinaryWaylandWindow:
            return "widgethost-desktop: GNOME Wayland without the WidgetHost GNOME Shell extension and without Xwayland (no DISPLAY): "
                + "an ordinary window, not on the desktop (for one kept on the desktop: \(enable))"
        }
    }
}
