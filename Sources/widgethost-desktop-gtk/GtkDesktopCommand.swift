import CGtk
import FoundationEssentials
import OpenWidgetKit
import WidgetDesktopSurface
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Arguments, configuration and start-up of `widgethost-desktop-gtk`, the GTK surface that
/// `widgethost-desktop --gtk` runs.
/// Main thread.
enum GtkDesktopCommand {
    static let usage = """
    usage: widgethost-desktop-gtk [--config FILE] [--out DIR] [--version]

    Puts the widgets of the configuration's `desktop` section on the desktop: a layer-shell
    surface on the background layer under Wayland, a desktop-type window under X11. Pictures are
    read from the host's out/ directory (outputs "png"); clicks run the widget's controls through
    the host's control socket. See docs/desktop.md.
    """

    /// Exit statuses: 0 after a clean stop, 1 when the display goes away or cannot be opened,
    /// 2 for bad arguments or configuration.
    static func run(_ args: [String]) -> Int32 {
        var configPath: String?, outOverride: String?
        var i = 0
        while i < args.count {
            switch args[i] {
            case "--help", "-h": print(usage); return 0
            case "--version": print(version); return 0
            case "--config", "--out":
                guard i + 1 < args.count else { return fail("\(args[i]) needs a value") }
                if args[i] == "--config" { configPath = args[i + 1] } else { outOverride = args[i + 1] }
                i += 1
            default: return fail("unknown argument \"\(args[i])\"")
            }
            i += 1
        }
        let loaded: DesktopSurfaceConfig
        do { loaded = try DesktopSurfaceConfig.load(explicitPath: configPath) } catch { return fail("\(error)") }
        let config = loaded.config, environment = loaded.environment
        let desktop = config.desktop ?? DesktopConfig()
        for id in desktop.widgets {
            if let w = config.widgets?.first(where: { $0.id == id }), !w.outputs.contains(.png) {
                FileHandleFree.error("widgethost-desktop: \(id) has no \"png\" among its outputs (\(w.outputs.map(\.rawValue).joined(separator: ", "))): "
                                     + "the host draws no picture of it to show")
            }
        }
        let out = outOverride.map(DesktopSurfaceConfig.absolute) ?? config.paths.out
        let socket = ControlSocketPath.resolve(config.paths, environment: environment)
        // Drops from the gallery edit the config the surface was started with.
        let actions = WidgetActions(controlSocket: socket, configPath: loaded.editPath, environment: environment, editExecutable: "",
                                    log: { FileHandleFree.error("widgethost-desktop: " + $0) })
        guard let surface = DesktopSurface(outDirectory: out, desktop: desktop, controlSocket: socket, actions: actions) else { return 1 }
        return surface.run()
    }

    /// What `--version` prints: the SDK version it reads outputs of, and the GTK and
    /// gtk-layer-shell it runs on.
    static var version: String {
        """
        widgethost-desktop-gtk \(openWidgetKitVersion)
        GTK \(gtk_get_major_version()).\(gtk_get_minor_version()).\(gtk_get_micro_version()), \
        gtk-layer-shell \(gtk_layer_get_major_version()).\(gtk_layer_get_minor_version()).\(gtk_layer_get_micro_version())
        """
    }

    static func fail(_ message: String) -> Int32 {
        FileHandleFree.error("widgethost-desktop: \(message)")
        return 2
    }

}

/// Unbuffered writes to stderr.
enum FileHandleFree {
    static func error(_ s: String) {
        let bytes = Array((s + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress!, $0.count) }
    }
}
