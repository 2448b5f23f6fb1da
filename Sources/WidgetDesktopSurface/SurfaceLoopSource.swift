import WidgetDesktopScene

/// Another connection the lean surface's one loop serves besides the display and the host's
/// stream (the AT-SPI bridge, `WidgetDesktopAccessibility`): `DesktopSurfaceLoop` polls its
/// descriptor, calls `dispatch()` when it is readable, and `sceneRefreshed` once per round
/// after the scene was brought up to date and drawn, before it waits again. Input the source
/// wants to give the scene goes through `DesktopSurfaceLoop.inject`, so it takes the path a
/// pointer's does.
///
/// Threading: the surface's one thread; every call comes from `DesktopSurfaceLoop.run()`.
public protocol SurfaceLoopSource: AnyObject {
    /// The descriptor to poll for reading, or -1 (none now: it is not polled).
    var pollDescriptor: Int32 { get }
    /// The descriptor is readable.
    func dispatch()
    /// The scene as it is now on `outputs`, drawn; the last call before the loop waits.
    func sceneRefreshed(_ scene: DesktopScene, outputs: [DisplayOutput])
}
