import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A pipe stream (one end of a child's stdin/stdout/stderr). Loop thread only.
///
/// Reads: `onData` with each chunk, `onEnd` once at EOF or error. Writes: the bytes are copied
/// into a request that lives until libuv's write callback, so the caller's buffer may go at once;
/// a failed write (EPIPE from a dead reader) is reported to `onWriteError`, never as SIGPIPE.
public final class UVPipe: UVHandle {
    public var onData: ([UInt8]) -> Void = { _ in }
    public var onEnd: () -> Void = {}
    public var onWriteError: (Int32) -> Void = { _ in }
    /// Called after each write that completed (its bytes went to the kernel).
    public var onWriteCompleted: () -> Void = {}

    public init(loop: UVLoop) {
        super.init(size: MemoryLayout<uv_pipe_t>.size)
        let rc = uv_pipe_init(loop.raw, memory.assumingMemoryBound(to: uv_pipe_t.self), 0)
        precondition(rc == 0, "uv_pipe_init: \(UVError.describe(rc))")
        attach()
    }

    var stream: UnsafeMutablePointer<uv_stream_t> { memory.assumingMemoryBound(to: uv_stream_t.self) }

    public func startReading() {
        guard !isClosing else { return }
        uv_read_start(stream, { _, suggested, buf in
            buf?.pointee = uv_buf_init(malloc(suggested)?.assumingMemoryBound(to: CChar.self), UInt32(suggested))
        }, { s, nread, buf in
            defer { free(buf?.pointee.base) }
            guard let pipe = UVHandle.object(s, as: UVPipe.self) else { return }
            if nread > 0, let base = buf?.pointee.base {
                let bytes = UnsafeRawBufferPointer(start: base, count: nread)
                pipe.onData(Array(bytes))
            } else if nread < 0 {
                uv_read_stop(s)
                let end = pipe.onEnd
                pipe.onEnd = {}
                end()
            }
        })
    }

    /// The pid of the process at the other end of this Unix socket when it connected
    /// (`SO_PEERCRED`), 0 when the kernel cannot name it in this PID namespace, nil when this is
    /// not a connected Unix socket.
    public func peerProcessID() -> Int32? {
        var fd: uv_os_fd_t = -1
        guard !isClosing, uv_fileno(memory.assumingMemoryBound(to: uv_handle_t.self), &fd) == 0 else { return nil }
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (Glibc imports it only with _GNU_SOURCE)
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials.pid
    }

    /// Stops reading until `startReading()` (the writer blocks once the pipe is full).
    public func stopReading() {
        guard !isClosing else { return }
        uv_read_stop(stream)
    }

    /// Queues `bytes` for writing.
    public func write(_ bytes: [UInt8]) {
        guard !isClosing, !bytes.isEmpty else { return }
        // One allocation: the uv_write_t followed by the bytes.
        let reqSize = (MemoryLayout<uv_write_t>.size + 15) & ~15
        let block = UnsafeMutableRawPointer.allocate(byteCount: reqSize + bytes.count, alignment: 16)
        let req = block.assumingMemoryBound(to: uv_write_t.self)
        let data = (block + reqSize).assumingMemoryBound(to: CChar.self)
        bytes.withUnsafeBytes { src in
            UnsafeMutableRawPointer(data).copyMemory(from: src.baseAddress!, byteCount: src.count)
        }
        req.pointee.data = Unmanaged.passRetained(self).toOpaque()
        var buf = uv_buf_init(data, UInt32(bytes.count))
        let rc = uv_write(req, stream, &buf, 1) { req, status in
            guard let req else { return }
            let pipe = Unmanaged<UVPipe>.fromOpaque(req.pointee.data).takeRetainedValue()
            UnsafeMutableRawPointer(req).deallocate()
            if status < 0 { pipe.onWriteError(status) } else { pipe.onWriteCompleted() }
        }
        if rc < 0 {
            Unmanaged<UVPipe>.fromOpaque(req.pointee.data).release()
            block.deallocate()
            onWriteError(rc)
        }
    }

    /// Bytes queued by `write` that the kernel has not taken yet (0 when every write went at once).
    public var unwrittenBytes: Int { isClosing ? 0 : Int(uv_stream_get_write_queue_size(stream)) }

    public override func didClose() { onData = { _ in }; onEnd = {}; onWriteError = { _ in }; onWriteCompleted = {} }
}
