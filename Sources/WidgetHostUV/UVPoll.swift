import CLibUV

/// Readability of a file descriptor the caller owns (closed by the caller after `close()`'s
/// callback has run, i.e. in `onClosed`). Loop thread only.
public final class UVPoll: UVHandle {
    private var callback: (Int32) -> Void
    private var closed: () -> Void = {}

    /// `callback(status)` runs when `fd` is readable (status < 0: a libuv error).
    public init?(loop: UVLoop, fd: Int32, _ callback: @escaping (Int32) -> Void) {
        self.callback = callback
        super.init(size: MemoryLayout<uv_poll_t>.size)
        let p = memory.assumingMemoryBound(to: uv_poll_t.self)
        guard uv_poll_init(loop.raw, p, fd) == 0 else { discardUnattached(); return nil }
        attach()
        resume()
    }

    /// Stops watching the descriptor until `resume()` (what becomes readable meanwhile is
    /// reported after it: readability is a level, not an edge).
    public func pause() {
        guard !isClosing else { return }
        uv_poll_stop(memory.assumingMemoryBound(to: uv_poll_t.self))
    }

    /// Watches the descriptor again (after `pause()`).
    public func resume() {
        guard !isClosing else { return }
        uv_poll_start(memory.assumingMemoryBound(to: uv_poll_t.self), Int32(UV_READABLE.rawValue)) { h, status, _ in
            UVHandle.object(h, as: UVPoll.self)?.callback(status)
        }
    }

    /// Closes the handle; `then` runs once libuv no longer watches the descriptor.
    public func close(then: @escaping () -> Void) { closed = then; close() }

    public override func didClose() { callback = { _ in }; let c = closed; closed = {}; c() }
}
