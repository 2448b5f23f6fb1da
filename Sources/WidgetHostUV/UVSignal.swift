import CLibUV

/// A signal watcher: `callback` runs on the loop thread (not in the signal handler). Loop thread only.
public final class UVSignal: UVHandle {
    private var callback: (Int32) -> Void

    public init(loop: UVLoop, signal: Int32, _ callback: @escaping (Int32) -> Void) {
        self.callback = callback
        super.init(size: MemoryLayout<uv_signal_t>.size)
        let s = memory.assumingMemoryBound(to: uv_signal_t.self)
        let rc = uv_signal_init(loop.raw, s)
        precondition(rc == 0, "uv_signal_init: \(UVError.describe(rc))")
        attach()
        uv_signal_start(s, { h, signum in UVHandle.object(h, as: UVSignal.self)?.callback(signum) }, signal)
    }

    public override func didClose() { callback = { _ in } }
}
