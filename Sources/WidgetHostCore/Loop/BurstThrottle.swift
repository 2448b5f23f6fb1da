/// Leading-edge throttle: the first event of a burst fires at once; events during the following
/// window are coalesced into one trailing call at the end of the window (which opens a new window).
///
/// Unlike a debounce, latency for an isolated change is zero and a continuous stream still fires
/// once per window. Threading: loop thread only.
public final class BurstThrottle {
    public let window: Double
    private let action: () -> Void
    private var timer: (any HostTimer)?
    private var windowOpen = false
    private var pending = false

    public init(loop: any HostLoop, window: Double, action: @escaping () -> Void) {
        self.window = window
        self.action = action
        self.timer = nil
        self.timer = loop.makeTimer { [weak self] in self?.windowEnded() }
    }

    /// Records one event.
    public func signal() {
        if windowOpen { pending = true; return }
        windowOpen = true
        timer?.schedule(after: window)
        action()
    }

    private func windowEnded() {
        guard pending else { windowOpen = false; return }
        pending = false
        timer?.schedule(after: window)
        action()
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
