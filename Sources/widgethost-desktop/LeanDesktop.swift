import FoundationEssentials
import OpenWidgetKit
import WidgetConfigEditing
import WidgetDesktopAccessibility
import WidgetDesktopScene
import WidgetDesktopSurface
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Start-up of the lean surface (docs/architecture.md "The desktop program"): a display
/// backend (`DisplayBackendChoice`: Wayland layer-shell or X11), the host's view stream, the
/// scene, the desktop portal's colour scheme and the AT-SPI bridge when the session has a bus,
/// and the loop; no GTK, no render process. Main thread.
enum LeanDesktop {
    /// How the widgets are shown: on the desktop, or in StandBy (full screen, two stacks), by
    /// night in red. Value type.
    struct Look {
        var standBy = false
        var night = false
    }

    /// Runs until SIGTERM/SIGINT (0) or the display goes away or cannot be opened (1).
    static func run(_ loaded: DesktopSurfaceConfig, look: Look = Look()) -> Int32 {
        ProcessMemory.oneMallocArena()  // before the display, bus and portal connections start threads
        let log: (String) -> Void = { FileHandleFree.error("widgethost-desktop: " + $0) }
        guard let backend = DisplayBackendChoice.open(environment: loaded.environment, fullScreen: look.standBy, log: log) else {
            FileHandleFree.error("widgethost-desktop: cannot open a display (is WAYLAND_DISPLAY or DISPLAY set?)")
            return 1
        }
        let x11 = backend as? X11DesktopBackend
        let socket = loaded.controlSocket
        x11?.fallbackScale = loaded.desktop.scale
        FileHandleFree.error("widgethost-desktop: lean surface (\(x11 == nil ? "wayland-client" : "Xlib"), no GTK) on \(backend.modeDescription)")
        let actions = WidgetActions(controlSocket: socket, configPath: loaded.editPath, environment: loaded.environment,
                                    editExecutable: loaded.environment["WIDGETHOST_EDIT_EXECUTABLE"] ?? SiblingExecutable.path("widgethost-edit"), log: log)
        let scene = DesktopScene()
        if look.standBy { scene.standBy = StandByStacks() }
        scene.night = look.night
        let stream = ViewStreamClient(socketPath: socket)
        let loop = DesktopSurfaceLoop(backend: backend, stream: stream, scene: scene,
                                      actions: actions, log: log)
        loop.onLayout = { x11?.fallbackScale = $0.scale }
        loop.setKeyboardWanted = { x11?.setKeyboardWanted($0, on: $1) }
        loop.onSnapshot = { log("\($0) widget(s) from \(socket) on \(backend.modeDescription)") }
        // The first frame with every widget drawn ends the start-up: what it alone used is given back.
        loop.onFirstFullFrame = {
            ProcessMemory.trimHeap()
            ProcessMemory.pageOutOwnCode()
        }
        // Light/dark follows the desktop (the XDG portal's color-scheme), unless the layout sets
        // it: drawn here, and told to the host (a new watch) for the "system" widgets' views.
        if let scheme = PortalColorScheme.connect(environment: loaded.environment, log: log) {
            scheme.onChange = { [unowned scene, unowned loop] dark in
                scene.desktopDark = dark
                stream.colorScheme = dark ? .dark : .light
                loop.reconnectStream()
            }
            loop.sources.append(scheme)
        }
        // On Wayland a drag is told only once it enters the surface's input region: while an "Add
        // Widget" gallery is open (its bus name has an owner) the surface is in edit mode, its
        // whole grid area the input region. X11 tells a drag's start anywhere (X11DragWatch)
        // and stays as it is: edit mode there would add nothing but its marks.
        if x11 == nil, !look.standBy,
           let gallery = BusNameWatch.connect(name: WidgetGallery.busName, what: "gallery open", environment: loaded.environment, log: log) {
            gallery.onChange = { [unowned scene] open in scene.galleryOpen = open }
            loop.sources.append(gallery)
        }
        if let a11y = SurfaceAccessibility.connect(environment: loaded.environment, applicationName: "WidgetHost desktop",
                                                   version: openWidgetKitVersion, log: log) {
            a11y.inject = { [unowned loop] in loop.inject($0) }
            a11y.injectKey = { [unowned loop, unowned backend] in loop.displayKey(backend, event: $0) }
            a11y.screenOrigin = { id in x11?.origins[id].map { (Double($0.x), Double($0.y)) } }
            loop.sources.append(a11y)
        }
        loop.frameLog = FrameTimingLog.fromEnvironment(loaded.environment, warn: log)
        if loop.frameLog != nil, let x11 { loop.syncDisplay = { x11.sync() } }
        return loop.run()
    }
}
