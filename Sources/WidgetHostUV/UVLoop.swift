import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A libuv loop. Owned by one thread, which calls `run()`; every handle created on it is used
/// from that thread only (cross-thread wake-ups go through `UVAsync.send`).
public final class UVLoop {
    public let raw: UnsafeMutablePointer<uv_loop_t>

    public init() {
        raw = .allocate(capacity: 1)
        let rc = uv_loop_init(raw)
        precondition(rc == 0, "uv_loop_init: \(UVError.describe(rc))")
    }

    /// Runs until `stop()` or until no active handle is left.
    public func run() { _ = uv_run(raw, UV_RUN_DEFAULT) }

    public func stop() { uv_stop(raw) }

    /// Lets pending close callbacks run, then closes and frees the loop. Handles must be closed first.
    public func close() {
        _ = uv_run(raw, UV_RUN_DEFAULT)
        _ = uv_loop_close(raw)
        raw.deallocate()
    }

    /// Type names of the active, referenced handles (what keeps `run()` from returning).
    public func activeHandleNames() -> [String] {
        final class Box { var names: [String] = [] }
        let box = Box()
        let ctx = Unmanaged.passUnretained(box).toOpaque()
        uv_walk(raw, { h, arg in
            guard let h, let arg, uv_is_active(h) != 0, uv_has_ref(h) != 0, uv_is_closing(h) == 0 else { return }
            let b = Unmanaged<Box>.fromOpaque(arg).takeUnretainedValue()
            b.names.append(String(cString: uv_handle_type_name(h.pointee.type)))
        }, ctx)
        return box.names
    }

    /// Milliseconds of the loop's monotonic clock (cached per iteration).
    public var nowMilliseconds: UInt64 { uv_now(raw) }
}

/// libuv error codes as text.
public enum UVError {
    public static func describe(_ code: Int32) -> String { String(cString: uv_strerror(code)) }
}

/// Ignores SIGPIPE for the whole process: libuv does not, and a write to a dead worker's pipe
/// would otherwise kill the host (DESIGN §10). Call once at start.
public func ignoreSIGPIPE() { signal(SIGPIPE, SIG_IGN) }

/// Unblocks every signal in the calling thread. A signal mask is inherited across exec: a host
/// started by a parent that blocks SIGCHLD or SIGTERM (test runners, some supervisors) would
/// otherwise never see its workers exit nor its own shutdown request. Call on the loop thread
/// before the loop starts.
public func unblockAllSignals() {
    var set = sigset_t()
    sigfillset(&set)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
}
