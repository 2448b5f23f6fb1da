import FoundationEssentials
import WidgetHostCore

/// The core's `HostLoop` on a libuv loop: `now` is the realtime clock, timers are `uv_timer`s,
/// the wall-clock timer is a timerfd. Loop thread only.
public final class UVHostLoop: HostLoop {
    public let loop: UVLoop
    public init(loop: UVLoop) { self.loop = loop }

    public var now: Date { Date() }

    public func makeTimer(_ fire: @escaping () -> Void) -> any HostTimer { UVHostTimer(loop: loop, fire) }

    public func makeWallClockTimer(fire: @escaping () -> Void, clockChanged: @escaping () -> Void) -> any WallClockTimer {
        TimerFDWallClockTimer(loop: loop, fire: fire, clockChanged: clockChanged)
    }
}

/// `HostTimer` over a `UVTimer`. Loop thread only.
final class UVHostTimer: HostTimer {
    private var timer: UVTimer?
    init(loop: UVLoop, _ fire: @escaping () -> Void) { timer = UVTimer(loop: loop, fire) }
    func schedule(after seconds: Double) { timer?.start(milliseconds: UInt64(max(0, seconds * 1000).rounded(.up))) }
    func cancel() { timer?.stop() }
    var isScheduled: Bool { timer?.isActive ?? false }
    func close() { timer?.close(); timer = nil }
}
