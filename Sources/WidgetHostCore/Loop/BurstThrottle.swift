/// Leading-edge throttle: the first event of a burst fires at once (`action(true)`); the events
/// that follow are coalesced until one `window` passes with none, and then fire once more
/// (`action(false)`: the same burst, seen complete). A write that goes on for seconds (a 1 GB
/// file) is therefore one leading call and one trailing call, not one per window (issue 15);
/// a stream that never pauses still fires `action(true)` every `maxBurst` seconds.
///
/// Unlike a debounce, latency for an isolated change is zero. The flag says whether the call
/// starts something new (budgeted, for a container) or completes a burst already paid for.
/// Threading: loop thread only.
public final class BurstThrottle {
    public let window: Double
    public let maxBurst: Double
    private let action: (_ leading: Bool) -> Void
    private let loop: any HostLoop
    private var timer: (any HostTimer)?
    private var windowOpen = false
    /// Events since the last call.
    private var pending = false
    /// Events during the current window (the burst goes on).
    private var eventInWindow = false
    private var lastCall = 0.0

    public init(loop: any HostLoop, window: Double, maxBurst: Double = 5, action: @escaping (_ leading: Bool) -> Void) {
        self.window = window
        self.maxBurst = max(window, maxBurst)
        self.action = action
        self.loop = loop
        self.timer = nil
        self.timer = loop.makeTimer { [weak self] in self?.windowEnded() }
    }

    /// Records one event.
    public func signal() {
        if windowOpen { pending = true; eventInWindow = true; return }
        windowOpen = true
        timer?.schedule(after: window)
        call(leading: true)
    }

    private func call(leading: Bool) {
        lastCall = loop.now.timeIntervalSinceReferenceDate
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
        windowOpen = false
        guard pending else { return }
        pending = false
        call(leading: false)
    }

    public func close() { timer?.close(); timer = nil }
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
