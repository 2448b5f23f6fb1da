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
///
/// Held source: with a `source` set, the first event of an open window — a change (`signal()`)
/// or only activity (`noteActivity()`: a writer's temp file, no change yet) — arms the window's
/// timer and holds the source; the rest of the burst waits in the source (the kernel's inotify
/// queue) instead of waking the loop. At the window's end the source is drained in one go (its
/// events count as events of that window), and resumed once a window passed with no change.
/// An isolated change holds nothing and arms no timer. Activity alone owes no call.
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
    /// Where the events come from, when it can keep them back (see the type's comment).
    public var source: (any HoldableEventSource)? {
        willSet { if holding, newValue !== source { source?.resume(); holding = false } }
    }
    /// The source is held (until the window closes).
    public private(set) var holding = false
    /// Inside `drain()`: the events delivered belong to the window that is ending.
    private var draining = false

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
        if draining { pending = true; eventInWindow = true; return }
        if covering { return }
        if timer?.isScheduled == true { pending = true; eventInWindow = true; hold(); return }
        if armInOpenWindow() {
            pending = true
            eventInWindow = true
            return
        }
        windowStart = loop.now.timeIntervalSinceReferenceDate
        call(leading: true)
    }

    /// Records activity that is no change yet (a writer's temp file, whose rename will be the
    /// change): inside an open window it holds the source until the window's end, so the burst
    /// it belongs to goes on without waking the loop. Owes no call; without a source, a no-op.
    public func noteActivity() {
        guard source != nil, !draining, !covering, !holding else { return }
        if timer?.isScheduled == true { hold(); return }
        _ = armInOpenWindow()
    }

    /// When a window is open now: its timer armed for its end, the source held; true.
    private func armInOpenWindow() -> Bool {
        let now = loop.now.timeIntervalSinceReferenceDate
        guard let start = windowStart, now >= start, now < start + window else { return false }
        timer?.schedule(after: start + window - now)
        hold()
        return true
    }

    private func hold() {
        guard !holding, let source else { return }
        holding = true
        source.hold()
    }

    private func release() {
        guard holding else { return }
        holding = false
        source?.resume()
    }

    private func call(leading: Bool) {
        lastCall = loop.now.timeIntervalSinceReferenceDate
        covering = true
        coverTimer?.schedule(after: 0)
        action(leading)
    }

    private func windowEnded() {
        if holding, let source {
            draining = true
            source.drain()
            draining = false
        }
        if eventInWindow {
            // Still bursting: wait for a quiet window, unless it has gone on for maxBurst.
            eventInWindow = false
            timer?.schedule(after: window)
            if loop.now.timeIntervalSinceReferenceDate - lastCall >= maxBurst { pending = false; call(leading: true) }
            return
        }
        windowStart = nil
        release()
        guard pending else { return }
        pending = false
        call(leading: false)
    }

    /// Stops the timers; a held source is resumed (it outlives the throttle).
    public func close() {
        release()
        source = nil
        timer?.close(); timer = nil; coverTimer?.close(); coverTimer = nil
    }
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
