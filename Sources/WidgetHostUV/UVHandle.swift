import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// Base of every handle wrapper: owns the C handle's memory and follows libuv's lifecycle
/// init → start → stop → close, freeing nothing before the close callback.
///
/// The wrapper retains itself through `handle->data` from a successful init until libuv's
/// close callback, so the memory libuv points at outlives every callback; callbacks find their
/// wrapper through `data` with `Unmanaged`. Threading: the loop's thread only.
/// Subclasses clear their Swift callbacks in `didClose()` to break reference cycles.
open class UVHandle {
    /// The C handle (a `uv_timer_t`, `uv_pipe_t`… laid out from offset 0).
    public let memory: UnsafeMutableRawPointer
    public private(set) var isClosing = false
    private var attached = false

    init(size: Int) {
        memory = .allocate(byteCount: size, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    }

    var handle: UnsafeMutablePointer<uv_handle_t> { memory.assumingMemoryBound(to: uv_handle_t.self) }

    /// Call right after the `uv_*_init` succeeded; from then on only `close()` frees.
    func attach() {
        attached = true
        handle.pointee.data = Unmanaged.passRetained(self).toOpaque()
    }

    /// For a failed init: nothing was registered with libuv, so the memory goes now.
    func discardUnattached() {
        precondition(!attached)
        memory.deallocate()
    }

    /// The wrapper registered in a C handle's `data`.
    static func object<T: UVHandle>(_ pointer: UnsafeMutableRawPointer?, as: T.Type) -> T? {
        guard let pointer, let data = pointer.assumingMemoryBound(to: uv_handle_t.self).pointee.data else { return nil }
        return Unmanaged<UVHandle>.fromOpaque(data).takeUnretainedValue() as? T
    }

    /// Stops the handle and closes it; memory is freed in the close callback. Idempotent.
    public func close() {
        guard attached, !isClosing else { return }
        isClosing = true
        uv_close(handle) { h in
            guard let h, let data = h.pointee.data else { return }
            h.pointee.data = nil
            let object = Unmanaged<UVHandle>.fromOpaque(data).takeRetainedValue()
            object.didClose()
            object.memory.deallocate()
        }
    }

    /// Called in the close callback, before the memory is freed.
    open func didClose() {}

    public func ref() { uv_ref(handle) }
    public func unref() { uv_unref(handle) }
}
