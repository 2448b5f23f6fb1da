import FoundationEssentials
import OpenWidgetKit
import WidgetDesktopSurface
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Arguments and start-up of `widgethost-desktop`. Main thread.
enum DesktopCommand {
    static let usage = """
    usage: widgethost-desktop [--config FILE] [--lean | --gtk] [--standby [--night]] [--gallery] [--version]

    Puts the widgets of the configuration's `desktop` section on the desktop.
      --lean     the lean surface (the default): draws the host's view stream itself
                 (Wayland layer-shell or X11, no toolkit)
      --gtk      the GTK surface (widgethost-desktop-gtk: a layer-shell surface on the bottom
                 layer under Wayland), reading pictures from out/
      --standby  StandBy, for a bedside or kiosk screen: full screen on every output, black,
                 the widgets in two stacks side by side drawn large; swipe a stack up or down
                 (or press Up / Down) for its next widget (lean surface only)
      --night    with --standby: night mode, everything in red on black
      --gallery  opens the Add Widget gallery (widgethost-edit --gallery)
    Without --lean or --gtk: WIDGETHOST_DESKTOP_SURFACE (lean or gtk), else the lean one.
    See docs/desktop.md.
    """

    /// Exit statuses: 0 after a clean stop, 1 when the display goes away or cannot be opened,
    /// 2 for bad arguments or configuration.
    static func run(_ args: [String]) -> Int32 {
        var environment = ProcessEnvironment.current()
        var configPath: String?
        var surface = SurfaceKind.chosen(environment)
        var passed: [String] = []
        var gallery = false
        var look = LeanDesktop.Look()
        var i = 0
        while i < args.count {
            switch args[i] {
            case "--help", "-h": print(usage); return 0
            case "--version": print(version); return 0
            case "--gallery": gallery = true
            case "--lean": surface = .lean
            case "--gtk": surface = .gtk
            case "--standby": look.standBy = true
            case "--night": look.night = true
            case "--config", "--out":
                guard i + 1 < args.count else { return fail("\(args[i]) needs a value") }
                if args[i] == "--config" { configPath = args[i + 1] }
                passed += [args[i], args[i + 1]]
                i += 1
            default: return fail("unknown argument \"\(args[i])\"")
            }
            i += 1
        }
        if gallery {
            // The editor of the same configuration (WIDGETHOST_EDIT_EXECUTABLE: as the surface's menu).
            let editor = environment["WIDGETHOST_EDIT_EXECUTABLE"] ?? SiblingExecutable.path("widgethost-edit")
            return exec(editor, ["--gallery"] + (configPath.map { ["--config", $0] } ?? []), what: "the gallery (it comes with widgethost-edit)")
        }
        // GNOME Wayland has no layer-shell: the extension's Wayland window, or an Xwayland desktop
        // window (the lean X11 surface on the shell's DISPLAY), said in one line.
        if let mode = GnomeSessionMode.detect(environment) {
            FileHandleFree.error(mode.line)
            // Started by the extension: the lean surface's xdg_toplevel, which the extension keeps
            // on the desktop layer (GNOME has no layer-shell).
            if mode == .extensionKeepsWaylandWindow, environment["WIDGETHOST_DESKTOP_WAYLAND"] == nil {
                environment["WIDGETHOST_DESKTOP_WAYLAND"] = "toplevel"
            }
            // Without it, an X11 desktop window through the shell's Xwayland.
            if mode == .xwaylandDesktopWindow {
                environment["WAYLAND_DISPLAY"] = nil
                setenv("GDK_BACKEND", "x11", 1)  // for the GTK surface, when --gtk runs it
            }
        }
        if look.night && !look.standBy { return fail("--night is StandBy's night mode: give --standby too") }
        if look.standBy && surface == .gtk { return fail("--standby is drawn by the lean surface only: leave out --gtk") }
        if surface == .gtk { return exec(SiblingExecutable.path("widgethost-desktop-gtk"), passed, what: "the GTK surface") }
        let loaded: DesktopSurfaceConfig
        do { loaded = try DesktopSurfaceConfig.load(explicitPath: configPath, environment: environment) } catch { return fail("\(error)") }
        return LeanDesktop.run(loaded, look: look)
    }

    /// What `--version` prints: the SDK whose trees it draws and the libraries it draws with.
    static var version: String {
        """
        widgethost-desktop \(openWidgetKitVersion)
        lean surface (Wayland layer-shell or X11): wayland-client, Xlib, \(DrawingLibraries.versions)
        GTK surface: widgethost-desktop-gtk (see its --version), run with --gtk
        """
    }

    /// Replaces this process with `program args` (same environment, same stderr and status).
    static func exec(_ program: String, _ args: [String], what: String) -> Int32 {
        let argv = ([program] + args).map { strdup($0) } + [nil]
        execv(program, argv)
        FileHandleFree.error("widgethost-desktop: cannot start \(what) at \(program): \(String(cString: strerror(errno)))")
        return 1
    }

    static func fail(_ message: String) -> Int32 {
        FileHandleFree.error("widgethost-desktop: \(message)")
        return 2
    }
}

/// Which surface runs: `--lean` / `--gtk`, else `WIDGETHOST_DESKTOP_SURFACE` (`lean` or `gtk`),
/// else the lean surface.
enum SurfaceKind {
    case lean, gtk
    static func chosen(_ environment: [String: String]) -> SurfaceKind {
        switch environment["WIDGETHOST_DESKTOP_SURFACE"] {
        case "lean": return .lean
        case "gtk": return .gtk
        default: return .lean
        }
    }
}

/// Unbuffered writes to stderr.
enum FileHandleFree {
    static func error(_ s: String) {
        let bytes = Array((s + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress!, $0.count) }
    }
}
