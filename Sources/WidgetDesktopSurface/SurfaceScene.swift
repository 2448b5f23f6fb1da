import FoundationEssentials
import OpenWidgetKit
import WidgetDesktopScene
import WidgetHostCore

/// What the surface's loop needs of a scene: the streamed widgets, placed on an output's grid,
/// drawn into a lent `PixelBuffer` with the damage since the frame it holds, ticked at live
/// dates, hit by clicks. `RenderedPictureScene` is the one the surface runs until
/// `WidgetDesktopScene.DesktopScene` (h-scene) takes its place behind this protocol.
///
/// Threading: the surface's one thread. Not `Sendable`.
public protocol SurfaceScene: AnyObject {
    /// Takes one message of the view stream. Returns whether anything shown may have changed.
    @discardableResult func apply(_ message: DesktopViewMessage) -> Bool
    /// The `desktop` layout of the last snapshot (nil before the first).
    var layout: DesktopViewMessage.Layout? { get }
    /// False while no host streams: every widget is dimmed and marked "not running".
    var hostRunning: Bool { get set }
    /// Where the widgets go on `output` (its logical points) and the rectangles that take
    /// input (the area's own points); nil: nothing on that output.
    func placement(on output: DisplayOutput, among outputs: [DisplayOutput]) -> ScenePlacement?
    /// Draws `buffer` (of `output`, placed as `placement` said) at `now`: everything when its
    /// `age` is not 1, else only what changed since the last frame of that output. Returns the
    /// damaged buffer pixels (empty: nothing to present).
    func draw(_ buffer: PixelBuffer, placement: ScenePlacement, now: Date) -> [PixelRect]
    /// Whether `placement`'s output has something to draw that it has not drawn (after `apply`,
    /// a tick, a change of `hostRunning`, a new placement).
    func needsFrame(_ placement: ScenePlacement) -> Bool
    /// The next wall-clock instant a live date on screen changes its text; nil: none shown.
    func nextTick(after now: Date) -> Date?
    /// Marks the widgets whose live dates changed at `now` for redrawing.
    func tick(now: Date)
    /// The widget and control at a logical point of `placement`'s area.
    func hit(x: Double, y: Double, placement: ScenePlacement, now: Date) -> SceneHit?
}

/// A grid placed on one output. Value type.
public struct ScenePlacement: Equatable, Sendable {
    public var output: DisplayOutput.ID
    public var scale: Double
    /// The widgets' bounding box in the output's logical points.
    public var area: LogicalRect
    /// Each widget's rectangle, area-relative points.
    public var items: [DesktopGrid.Item]
    public var inputRects: [LogicalRect] { items.map { LogicalRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) } }
    public init(output: DisplayOutput.ID, scale: Double, area: LogicalRect, items: [DesktopGrid.Item]) {
        self.output = output; self.scale = scale; self.area = area; self.items = items
    }
}

/// What a click hit. Value type.
public struct SceneHit: Equatable, Sendable {
    public var widget: String
    /// The `Button(intent:)` / `Toggle` id under the point (the control socket's click target).
    public var target: String?
    /// The point in the widget's picture pixels (for the log line).
    public var pixelX: Double
    public var pixelY: Double
    public init(widget: String, target: String?, pixelX: Double, pixelY: Double) {
        self.widget = widget; self.target = target; self.pixelX = pixelX; self.pixelY = pixelY
    }
}
