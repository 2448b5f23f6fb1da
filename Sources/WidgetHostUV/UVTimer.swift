import CLibUV

/// A libuv timer (monotonic clock; it does not advance during suspend — use
/// `TimerFDWallClockTimer` for wall-clock dates). Loop thread only.
public final class UVTimer: UVHandle {
    private var callback: () -> Void

    public init(loop: UVLoop, _ callback: @escaping () -> Void) {
        self.callback = callback
        super.init(size: MemoryLayout<uv_timer_t>.size)
        let rc = uv_timer_init(loop.raw, timer)
        precondition(rc == 0, "uv_timer_init: \(UVError.describe(rc))")
        attach()
    }

    private var timer: UnsafeMutablePointer<uv_timer_t> { memory.assumingMemoryBound(to: uv_timer_t.self) }

    /// (Re)starts the timer: fires once after `milliseconds`.
    public func start(milliseconds: UInt64) {
        guard !isClosing else { return }
        uv_timer_start(timer, { t in UVHandle.object(t, as: UVTimer.self)?.callback() }, milliseconds, 0)
    }

    public func stop() { if !isClosing { uv_timer_stop(timer) } }

    public var isActive: Bool { !isClosing && uv_is_active(handle) != 0 }

    public override func didClose() { callback = {} }
}
