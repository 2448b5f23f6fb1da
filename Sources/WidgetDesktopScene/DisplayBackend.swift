/// Where the desktop surface shows widgets: one connection to a display server — a Wayland
/// compositor with layer-shell, GNOME through its Shell extension, or an X11 display — with one
/// surface per output (docs/architecture.md "The desktop program"). One file per kind of display
/// implements it in `widgethost-desktop`; the scene draws into the buffers it lends.
///
/// Threading: a backend belongs to the surface's one thread. Every method is called on it, and
/// every delegate callback happens inside `dispatch()` on it. Not `Sendable`.
public protocol DisplayBackend: AnyObject {
    /// One line for the user saying which mode the surface runs in and, where there is a better
    /// one, how to get it ("Wayland layer-shell, bottom layer", "X11 desktop window under
    /// openbox", "Xwayland desktop window: enable the WidgetHost GNOME extension for a native
    /// one"). Never claims a desktop window the backend does not have.
    var modeDescription: String { get }
    /// Told about outputs, frames and input; held weakly.
    var delegate: (any DisplayBackendDelegate)? { get set }
    /// The outputs connected now, in the display server's order.
    var outputs: [DisplayOutput] { get }
    /// The descriptor the surface's loop polls for reading; `dispatch()` when it is readable.
    var pollDescriptor: Int32 { get }
    /// Reads and handles every event waiting; delegate callbacks happen here. Throws
    /// `DisplayLost` when the display server has gone (the surface then exits with one line).
    func dispatch() throws
    /// Sends requests queued by the calls since the last flush; call before polling.
    func flush() throws
    /// Puts the surface of `output` over `area` (logical points of that output: the widgets'
    /// bounding box), or removes it when `area` is nil. Buffers of that output are
    /// `area × output.scale` pixels (rounded up) from the next `nextBuffer` on.
    func setArea(_ area: LogicalRect?, on output: DisplayOutput.ID)
    /// A buffer to draw the next frame of `output` into; nil while none is free or the output's
    /// surface is not shown (Wayland: no frame callback yet; X11: fully obscured) — the backend
    /// calls `frameWanted` when it is worth asking again.
    func nextBuffer(for output: DisplayOutput.ID) -> PixelBuffer?
    /// Shows `buffer` (from `nextBuffer`) on its output. `damage` (buffer pixels) is what
    /// changed since the frame the buffer held (see `PixelBuffer.age`).
    func present(_ buffer: PixelBuffer, damage: [PixelRect])
    /// Pointer and touch input reach the surface only inside `rects` (logical points of the
    /// surface's area); elsewhere it reaches the desktop beneath (its icons, its menu).
    func setInputRegion(_ rects: [LogicalRect], on output: DisplayOutput.ID)
}

/// What a `DisplayBackend` tells the surface. Called on the surface's thread, inside `dispatch()`.
public protocol DisplayBackendDelegate: AnyObject {
    /// An output was added, removed, resized or rescaled: `outputs` is the new list.
    func displayOutputsChanged(_ backend: any DisplayBackend)
    /// `output` can take a new frame now (a frame callback came, a buffer was released, the
    /// surface became visible or was exposed and needs every pixel again).
    func displayFrameWanted(_ backend: any DisplayBackend, output: DisplayOutput.ID)
    /// A pointer or touch event inside the input region.
    func displayPointer(_ backend: any DisplayBackend, event: PointerEvent)
    /// A key pressed while the surface has keyboard focus (edit mode, menus).
    func displayKey(_ backend: any DisplayBackend, event: KeyEvent)
}

/// The display server went away (compositor exited, X connection lost). Value type.
public struct DisplayLost: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One monitor as the display server describes it. Value type.
public struct DisplayOutput: Equatable, Sendable {
    /// The backend's handle for this output, stable while it stays connected.
    public typealias ID = UInt32
    public var id: ID
    /// Connector name: "HEADLESS-1", "DP-1", "eDP-1" (RandR output name on X11).
    public var connector: String
    /// The monitor's identity, kept with its widgets' placement (empty when not told).
    public var make: String
    public var model: String
    public var serial: String
    /// Size in logical points (pixels ÷ scale).
    public var logicalWidth: Double
    public var logicalHeight: Double
    /// Pixels per logical point, fractional included (1, 1.25, 1.5, 2, 3).
    public var scale: Double
    public var isPrimary: Bool

    public init(id: ID, connector: String, make: String = "", model: String = "", serial: String = "",
                logicalWidth: Double, logicalHeight: Double, scale: Double, isPrimary: Bool = false) {
        self.id = id; self.connector = connector; self.make = make; self.model = model; self.serial = serial
        self.logicalWidth = logicalWidth; self.logicalHeight = logicalHeight; self.scale = scale; self.isPrimary = isPrimary
    }
}

/// Memory a backend lends for one frame: `height` rows of `stride` bytes, each pixel 32-bit
/// premultiplied ARGB in native byte order (Cairo's `CAIRO_FORMAT_ARGB32`, Wayland's
/// `WL_SHM_FORMAT_ARGB8888`). Valid until it is passed to `present`.
public struct PixelBuffer: @unchecked Sendable {
    public var output: DisplayOutput.ID
    public var pixels: UnsafeMutableRawPointer
    public var width: Int
    public var height: Int
    public var stride: Int
    /// Pixels per logical point.
    public var scale: Double
    /// Which earlier frame the buffer still holds: 1 = the last one presented on this output,
    /// 2 = the one before, …; 0 = nothing usable (draw every pixel).
    public var age: Int
    /// The backend's own handle for the buffer.
    public var token: Int

    public init(output: DisplayOutput.ID, pixels: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int,
                scale: Double, age: Int, token: Int) {
        self.output = output; self.pixels = pixels; self.width = width; self.height = height; self.stride = stride
        self.scale = scale; self.age = age; self.token = token
    }
}

/// A rectangle in buffer pixels. Value type.
public struct PixelRect: Equatable, Hashable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int
    public init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
}

/// A rectangle in logical points. Value type.
public struct LogicalRect: Equatable, Hashable, Sendable {
    public var x: Double, y: Double, width: Double, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) { self.x = x; self.y = y; self.width = width; self.height = height }
}

/// Pointer or touch input at a logical point of an output's surface area. Value type.
public struct PointerEvent: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Button 1 left, 2 middle, 3 right (a touch is button 1).
        case press(button: Int)
        case release(button: Int)
        case motion
        /// The pointer left the surface.
        case leave
    }
    public var output: DisplayOutput.ID
    public var kind: Kind
    /// Position in logical points from the surface area's top-left corner.
    public var x: Double
    public var y: Double
    /// Milliseconds, from the display server's clock (for long presses and double clicks).
    public var time: UInt32
    public init(output: DisplayOutput.ID, kind: Kind, x: Double, y: Double, time: UInt32) {
        self.output = output; self.kind = kind; self.x = x; self.y = y; self.time = time
    }
}

/// A key press while the surface has keyboard focus. Value type.
public struct KeyEvent: Equatable, Sendable {
    public enum Key: Equatable, Sendable { case escape, tab, backTab, enter, space, left, right, up, down, menu, delete, other(UInt32) }
    public var output: DisplayOutput.ID
    public var key: Key
    public init(output: DisplayOutput.ID, key: Key) { self.output = output; self.key = key }
}
