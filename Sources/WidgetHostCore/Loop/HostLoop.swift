import FoundationEssentials

/// The event loop as the core sees it: a wall clock and two kinds of timers.
///
/// Threading: every method is called on the loop thread, and every callback is delivered on it.
/// The libuv implementation lives in `WidgetHostUV`; tests use a virtual-time implementation, so
/// the scheduler's behaviour (including clock jumps) is checked without sleeping.
public protocol HostLoop: AnyObject {
    /// The current wall-clock time (`CLOCK_REALTIME`).
    var now: Date { get }
    /// A one-shot timer on the monotonic clock, for throttles, debounces and deadlines.
    func makeTimer(_ fire: @escaping () -> Void) -> any HostTimer
    /// A timer that fires when the wall clock reaches a date, also across suspend/resume;
    /// `clockChanged` is called when the wall clock is set (forward or back), after which the
    /// owner re-evaluates and re-arms.
    func makeWallClockTimer(fire: @escaping () -> Void, clockChanged: @escaping () -> Void) -> any WallClockTimer
}

/// A one-shot monotonic timer. Rescheduling replaces the pending deadline.
/// Contract: after `close()` the callback is never called again and the timer is not reused.
public protocol HostTimer: AnyObject {
    func schedule(after seconds: Double)
    func cancel()
    var isScheduled: Bool { get }
    func close()
}

/// A one-shot wall-clock timer. At most one date is armed; `disarm()` leaves nothing pending,
/// so a host with nothing due makes no wake-ups.
public protocol WallClockTimer: AnyObject {
    func arm(at date: Date)
    func disarm()
    /// The armed date, nil when disarmed.
    var armedDate: Date? { get }
    func close()
}
