/// Leading-edge throttle: the first event of a burst fires at once (`action(true)`); the events
/// that follow are coalesced until one `window` passes with none, and then fire once more
/// (`action(false)`: the same burst, seen complete). A write that goes on for seconds (a 1 GB
/// file) is therefore one leading call and one trailing call, not one per window (issue 15);
/// a stream that never pauses still fires `action(true)` every `maxBurst` seconds.
///
/// Unlike a debounce, latency for an isolated change is zero. The flag says whether the call
/// starts something new (budgeted, for a container) or completes a burst already paid for.
///
/// Covered events: a call's work is taken to see every event signalled until the end of the loop
/// iteration it ran in (a zero-delay timer). For a container this is exact: the reload round's
/// requests leave for the worker at the end of the iteration (`WorkerConnection` implementations
/// gather them), so the plugin reads the folder after every change the host had read by then.
/// Such an event neither asks for the trailing call nor extends the burst; only an event after
/// that does (the worker may have read the folder before it happened). A burst the host reads in
/// one go (one inotify read) is one reload, not two (issue 16).
///
/// No timer runs for an isolated event: the window after a leading call is a remembered date,
/// and its timer is armed only when an event falls into it (no wake-up `window` later for
/// nothing). Dates are wall-clock (`HostLoop.now`); one earlier than the window's start (the
/// clock was set back) closes the window.
/// Threading: loop thread only.
public final class BurstThrottle {
    public let window: Double
    public let maxBurst: Double
    private let action: (_ leading: Bool) -> Void
    private let loop: any HostLoop
    /// The end of the current window; armed only once an uncovered event falls into it.
    private var timer: (any HostTimer)?
    /// The end of the loop iteration of the last call.
    private var coverTimer: (any HostTimer)?
    /// From a call to the end of its loop iteration: the call's work has not left yet.
    private var covering = false
    /// When the current window started (the last leading call); nil when none is open.
    private var windowStart: Double?
    /// An event the last call's work may not have seen: a trailing call is owed.
    private var pending = false
    /// An uncovered event during the current window (the burst goes on).
    private var eventInWindow = false
    private var lastCall = 0.0

    public init(loop: any HostLoop, window: Double, maxBurst: Double = 5, action: @escaping (_ leading: Bool) -> Void) {
        self.window = window
        self.maxBurst = max(window, maxBurst)
        self.action = action
        self.loop = loop
        self.timer = nil
        self.timer = loop.makeTimer { [weak self] in self?.windowEnded() }
        self.coverTimer = loop.makeTimer { [weak self] in self?.covering = false }
    }

    /// Records one event.
    public func signal() {
        if covering { return }
        if timer?.isScheduled == true { pending = true; eventInWindow = true; return }
        let now = loop.now.timeIntervalSinceReferenceDate
        if let start = windowStart, now >= start, now < start + window {
            pending = true
            eventInWindow = true
            timer?.schedule(after: start + window - now)
            return
        }
        windowStart = now
        call(leading: true)
    }

    private func call(leading: Bool) {
        lastCall = loop.now.timeIntervalSinceReferenceDate
        covering = true
        coverTimer?.schedule(after: 0)
        action(leading)
    }

    private func windowEnded() {
        if eventInWindow {
            // Still bursting: wait for a quiet window, unless it has gone on for maxBurst.
            eventInWindow = false
            timer?.schedule(after: window)
            if loop.now.timeIntervalSinceReferenceDate - lastCall >= maxBurst { pending = false; call(leading: true) }
            return
        }
        windowStart = nil
        guard pending else { return }
        pending = false
        call(leading: false)
    }

    public func close() { timer?.close(); timer = nil; coverTimer?.close(); coverTimer = nil }
}

/// Trailing-edge debounce: fires once, `delay` after the last event. For the plugin folder,
/// where acting on a half-copied file is worse than waiting. Threading: loop thread only.
public final class Debouncer {
    public let delay: Double
    private let action: () -> Void
    private var timer: (any HostTimer)?

    public init(loop: any HostLoop, delay: Double, action: @escaping () -> Void) {
        self.delay = delay
        self.action = action
        self.timer = loop.makeTimer { [weak self] in self?.action() }
    }

    public func signal() { timer?.schedule(after: delay) }
    public func close() { timer?.close(); timer = nil }
}
