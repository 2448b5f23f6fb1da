import CGtk
import FoundationEssentials
import OpenWidgetKit
import WidgetDesktopSurface
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Arguments, configuration and start-up of `widgethost-desktop`. Main thread.
enum DesktopCommand {
    static let usage = """
    usage: widgethost-desktop [--config FILE] [--out DIR] [--lean | --gtk] [--gallery] [--version]

    Puts the widgets of the configuration's `desktop` section on the desktop: a layer-shell
    surface on the background layer under Wayland, a desktop-type window under X11. Pictures are
    read from the host's out/ directory (outputs "png"); clicks run the widget's controls through
    the host's control socket. See docs/desktop.md.

    --lean    the lean surface (X11: Xlib, no GTK): draws the host's view stream itself
    --gtk     the GTK surface, reading pictures from out/
    --gallery opens the Add Widget gallery (widgethost-edit --gallery)
    """

    /// Exit statuses: 0 after a clean stop, 1 when the display goes away or cannot be opened,
    /// 2 for bad arguments or configuration.
    static func run(_ args: [String]) -> Int32 {
        var configPath: String?, outOverride: String?
        var surface = SurfaceKind.chosen(ProcessEnvironment.current())
        var i = 0
        while i < args.count {
            switch args[i] {
            case "--help", "-h": print(usage); return 0
            case "--version": print(version); return 0
            case "--gallery": return LeanDesktop.execGallery()
            case "--lean": surface = .lean
            case "--gtk": surface = .gtk
            case "--config", "--out":
                guard i + 1 < args.count else { return fail("\(args[i]) needs a value") }
                if args[i] == "--config" { configPath = args[i + 1] } else { outOverride = args[i + 1] }
                i += 1
            default: return fail("unknown argument \"\(args[i])\"")
            }
            i += 1
        }
        let environment = ProcessEnvironment.current()
        let path: String? = configPath.map(absolute) ?? {
            let d = HostPaths.defaultConfigFile(environment)
            return FileIO.exists(d) ? d : nil
        }()
        let config: HostConfig
        do {
            if let path {
                let data = try FileIO.readRegularFile(path)
                config = try ConfigParser.parse(data, baseDirectory: path.deletingLastPathComponent, environment: environment)
            } else {
                config = try ConfigParser.parse(Data(), baseDirectory: "/", environment: environment)
            }
        } catch {
            return fail("\(path ?? "(defaults)"): \(error)")
        }
        let desktop = config.desktop ?? DesktopConfig()
        let socket = ControlSocketPath.resolve(config.paths, environment: environment)
        if surface == .lean {
            return LeanDesktop.run(controlSocket: socket, configPath: path ?? HostPaths.defaultConfigFile(environment),
                                   environment: environment, fallbackScale: desktop.scale)
        }
        for id in desktop.widgets {
            if let w = config.widgets?.first(where: { $0.id == id }), !w.outputs.contains(.png) {
                FileHandleFree.error("widgethost-desktop: \(id) has no \"png\" among its outputs (\(w.outputs.map(\.rawValue).joined(separator: ", "))): "
                                     + "the host draws no picture of it to show")
            }
        }
        let out = outOverride.map(absolute) ?? config.paths.out
        guard let surface = DesktopSurface(outDirectory: out, desktop: desktop, controlSocket: socket) else { return 1 }
        return surface.run()
    }

    /// What `--version` prints: the SDK version whose trees it draws, the libraries of the lean
    /// surface, and the GTK and gtk-layer-shell of the GTK surface it still carries.
    static var version: String {
        """
        widgethost-desktop \(openWidgetKitVersion)
        lean surface (X11): Xlib, \(DrawingLibraries.versions)
        GTK surface (Wayland until the lean one has a Wayland backend): GTK \(gtk_get_major_version()).\(gtk_get_minor_version()).\(gtk_get_micro_version()), \
        gtk-layer-shell \(gtk_layer_get_major_version()).\(gtk_layer_get_minor_version()).\(gtk_layer_get_micro_version())
        """
    }

    static func fail(_ message: String) -> Int32 {
        FileHandleFree.error("widgethost-desktop: \(message)")
        return 2
    }

    static func absolute(_ p: String) -> String {
        if p.hasPrefix("/") { return p }
        var buf = [CChar](repeating: 0, count: 4096)
        return (getcwd(&buf, buf.count).map { String(cString: $0) } ?? ".") + "/" + p
    }
}

/// Which surface runs: the lean one (Xlib, the host's view stream) or the GTK one (pictures
/// from out/), by `--lean` / `--gtk`, else `WIDGETHOST_DESKTOP_SURFACE` (`lean` or `gtk`), else GTK
/// until the lean surface has a Wayland backend and the host's view stream is merged.
enum SurfaceKind {
    case lean, gtk
    static func chosen(_ environment: [String: String]) -> SurfaceKind {
        environment["WIDGETHOST_DESKTOP_SURFACE"] == "lean" ? .lean : .gtk
    }
}

/// Unbuffered writes to stderr.
enum FileHandleFree {
    static func error(_ s: String) {
        let bytes = Array((s + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress!, $0.count) }
    }
}
