import CLibUV

/// Wakes the loop from another thread: `send()` may be called from any thread; `callback` runs
/// on the loop thread (several sends may coalesce into one call). The only thread-safe wrapper.
public final class UVAsync: UVHandle, @unchecked Sendable {
    private var callback: () -> Void

    public init(loop: UVLoop, _ callback: @escaping () -> Void) {
        self.callback = callback
        super.init(size: MemoryLayout<uv_async_t>.size)
        let a = memory.assumingMemoryBound(to: uv_async_t.self)
        let rc = uv_async_init(loop.raw, a, { h in UVHandle.object(h, as: UVAsync.self)?.callback() })
        precondition(rc == 0, "uv_async_init: \(UVError.describe(rc))")
        attach()
    }

    /// Thread-safe.
    public func send() { _ = uv_async_send(memory.assumingMemoryBound(to: uv_async_t.self)) }

    public override func didClose() { callback = {} }
}
