import FoundationEssentials
import WidgetDesktopSurface
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Start-up of the lean surface (docs/architecture.md "The desktop program"): a display
/// backend (`DisplayBackendChoice`: Wayland layer-shell or X11), the host's view stream, the
/// scene and the loop; no GTK, no render process. Main thread.
enum LeanDesktop {
    /// Runs until SIGTERM/SIGINT (0) or the display goes away or cannot be opened (1).
    static func run(controlSocket: String, configPath: String, environment: [String: String], fallbackScale: Double) -> Int32 {
        let log: (String) -> Void = { FileHandleFree.error("widgethost-desktop: " + $0) }
        guard let backend = DisplayBackendChoice.open(environment: environment, log: log) else {
            FileHandleFree.error("widgethost-desktop: cannot open a display (is WAYLAND_DISPLAY or DISPLAY set?)")
            return 1
        }
        let x11 = backend as? X11DesktopBackend
        x11?.fallbackScale = fallbackScale
        FileHandleFree.error("widgethost-desktop: lean surface (\(x11 == nil ? "wayland-client" : "Xlib"), no GTK) on \(backend.modeDescription)")
        let scene = RenderedPictureScene()
        scene.log = log
        let actions = WidgetActions(controlSocket: controlSocket, configPath: configPath, environment: environment,
                                    editExecutable: siblingExecutable("widgethost-edit"), log: log)
        let loop = DesktopSurfaceLoop(backend: backend, stream: ViewStreamClient(socketPath: controlSocket), scene: scene,
                                      actions: actions, log: log)
        loop.onLayout = { x11?.fallbackScale = $0.scale }
        loop.onSnapshot = { log("\($0) widget(s) from \(controlSocket) on \(backend.modeDescription)") }
        return loop.run()
    }

    /// `name` in this executable's directory.
    static func siblingExecutable(_ name: String) -> String {
        var buf = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buf, buf.count - 1)
        guard n > 0 else { return name }
        return String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self).deletingLastPathComponent + "/" + name
    }

    /// `widgethost-desktop --gallery`: becomes `widgethost-edit --gallery`.
    static func execGallery() -> Int32 {
        let editor = siblingExecutable("widgethost-edit")
        let argv = [strdup(editor), strdup("--gallery"), nil]
        execv(editor, argv)
        FileHandleFree.error("widgethost-desktop: cannot start \(editor): \(String(cString: strerror(errno))) (it comes with widgethost-edit)")
        return 1
    }
}
