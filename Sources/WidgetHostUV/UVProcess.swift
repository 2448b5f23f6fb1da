import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `uv_spawn`, with its stdin, stdout and stderr as pipes.
/// `onExit(status, signal)` runs once on the loop thread, when the process itself has exited
/// (whatever its children still hold open); the handle is closed after it. With `ownGroup` the
/// child starts a session of its own (`UV_PROCESS_DETACHED`: `setsid()`), so it and everything
/// it starts can be signalled together with `killGroup`. Loop thread only.
public final class UVProcess: UVHandle {
    public let stdinPipe: UVPipe
    public let stdoutPipe: UVPipe
    public let stderrPipe: UVPipe
    public private(set) var pid: Int32 = 0
    private var onExit: (Int64, Int32) -> Void

    /// Spawns `executable` with `arguments` (argv[1...]) and exactly `environment`; argv[0] is
    /// `argv0`, or the executable. `passing` descriptors of this process become the child's 3, 4…
    /// On failure the pipes and handle are closed and the libuv error is thrown as text.
    public init(loop: UVLoop, executable: String, argv0: String? = nil, arguments: [String], environment: [String: String], ownGroup: Bool = false,
                passing: [Int32] = [], onExit: @escaping (_ status: Int64, _ signal: Int32) -> Void) throws(SpawnError) {
        self.onExit = onExit
        stdinPipe = UVPipe(loop: loop)
        stdoutPipe = UVPipe(loop: loop)
        stderrPipe = UVPipe(loop: loop)
        super.init(size: MemoryLayout<uv_process_t>.size)
        let proc = memory.assumingMemoryBound(to: uv_process_t.self)

        var stdio = [uv_stdio_container_t](repeating: uv_stdio_container_t(), count: 3)
        stdio[0].flags = uv_stdio_flags(UV_CREATE_PIPE.rawValue | UV_READABLE_PIPE.rawValue)
        stdio[0].data.stream = stdinPipe.stream
        stdio[1].flags = uv_stdio_flags(UV_CREATE_PIPE.rawValue | UV_WRITABLE_PIPE.rawValue)
        stdio[1].data.stream = stdoutPipe.stream
        stdio[2].flags = uv_stdio_flags(UV_CREATE_PIPE.rawValue | UV_WRITABLE_PIPE.rawValue)
        stdio[2].data.stream = stderrPipe.stream
        for fd in passing {
            var extra = uv_stdio_container_t()
            extra.flags = UV_INHERIT_FD
            extra.data.fd = fd
            stdio.append(extra)
        }

        let argv = ([argv0 ?? executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { argv.forEach { free($0) }; envp.forEach { free($0) } }
        let file = strdup(executable)
        defer { free(file) }

        var options = uv_process_options_t()
        options.exit_cb = { p, status, signal in
            guard let process = UVHandle.object(p, as: UVProcess.self) else { return }
            let cb = process.onExit
            process.onExit = { _, _ in }
            cb(status, signal)
            process.close()
        }
        options.file = UnsafePointer(file)
        if ownGroup { options.flags = UInt32(UV_PROCESS_DETACHED.rawValue) }
        let rc: Int32 = argv.withUnsafeBufferPointer { a in
            envp.withUnsafeBufferPointer { e in
                stdio.withUnsafeMutableBufferPointer { s in
                    options.args = UnsafeMutablePointer(mutating: a.baseAddress!)
                    options.env = UnsafeMutablePointer(mutating: e.baseAddress!)
                    options.stdio_count = Int32(s.count)
                    options.stdio = s.baseAddress
                    return uv_spawn(loop.raw, proc, &options)
                }
            }
        }
        // Whether or not uv_spawn succeeded, the handle was initialised and must be closed.
        attach()
        if rc != 0 {
            self.onExit = { _, _ in }
            close()
            stdinPipe.close(); stdoutPipe.close(); stderrPipe.close()
            throw SpawnError(description: "cannot start \(executable): \(UVError.describe(rc))")
        }
        pid = proc.pointee.pid
    }

    public struct SpawnError: Error, CustomStringConvertible { public let description: String }

    /// Sends a signal (no-op once the process has exited).
    public func kill(_ signal: Int32) {
        guard !isClosing else { return }
        _ = uv_process_kill(memory.assumingMemoryBound(to: uv_process_t.self), signal)
    }

    /// Sends a signal to the process group the child leads (it and whatever it forked, even after
    /// the child itself has exited). Only for a process started with `ownGroup`: its pid is its
    /// group's id, and Linux never reuses a pid while a group of that id still has members.
    public func killGroup(_ signal: Int32) {
        guard pid > 0 else { return }
        _ = Glibc.kill(-pid, signal)
    }

    public override func didClose() { onExit = { _, _ in } }
}
