import FoundationEssentials
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// A worker process driven synchronously: spawn, send a request, wait for its response.
/// For `preview`, `validate` and tests; the daemon uses the libuv `WorkerProcess` instead.
///
/// The worker's stderr goes to an unlinked temporary file, so a chatty plugin can never block
/// on a full pipe, and its last line is the failure reason when the worker dies.
/// Not thread-safe: one caller at a time.
public final class BlockingWorkerClient {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public let pluginPath: String
    /// The worker's pid (it leads its own process group).
    public let pid: pid_t
    private let toWorker: Int32
    private let fromWorker: Int32
    private let stderrFile: Int32
    private var decoder = FrameDecoder()
    private var pendingFrames: [Data] = []
    private var exited: Int32?

    /// Spawns `executable worker --plugin pluginPath [arguments…]` (`executable` defaults to
    /// `widgethost-worker`, `WorkerExecutable`; `arguments` are the worker's limit options, e.g.
    /// `--memory-mb 128`).
    /// Ignores SIGPIPE in this process: a write to a worker that died must fail with EPIPE and be
    /// reported (`request` throws, naming the signal), not kill the caller silently.
    public init(pluginPath: String, executable: String = WorkerExecutable.path(), environment: [String: String] = [:],
                arguments: [String] = []) throws {
        signal(SIGPIPE, SIG_IGN)
        self.pluginPath = pluginPath
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0]
        guard pipe(&inPipe) == 0, pipe(&outPipe) == 0 else {
            throw Failure(description: "pipe: \(String(cString: strerror(errno)))")
        }
        for fd in inPipe + outPipe { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var template = Array("/tmp/widgethost-worker-stderr-XXXXXX".utf8CString)
        let errFD = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard errFD >= 0 else { throw Failure(description: "mkostemp: \(String(cString: strerror(errno)))") }
        _ = fcntl(errFD, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errFD, 2)
        // A session (and process group) of its own, killed as a group: a plugin that forks
        // leaves nothing behind (as WorkerProcess does in the daemon).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, 0x80 /* POSIX_SPAWN_SETSID (glibc 2.26+), not imported */)

        var env = ProcessEnvironment.current()
        env["SWIFT_BACKTRACE"] = "enable=no"
        for (k, v) in environment { env[k] = v }
        let argv = [executable, "worker", "--plugin", pluginPath] + arguments
        var child: pid_t = 0
        let status = withCStrings(argv) { cArgv in
            withCStrings(env.map { "\($0.key)=\($0.value)" }) { cEnv in
                posix_spawn(&child, executable, &actions, &attributes, cArgv, cEnv)
            }
        }
        close(inPipe[0]); close(outPipe[1])
        guard status == 0 else {
            close(inPipe[1]); close(outPipe[0]); close(errFD)
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
        }
        pid = child
        toWorker = inPipe[1]
        fromWorker = outPipe[0]
        stderrFile = errFD
    }

    /// The worker's group (whatever it started) is killed only while the worker is not yet
    /// reaped: a reaped pid is free for the system to give to another process, which may lead a
    /// group of its own, and `kill(-pid)` would kill that group. `deathFailure` kills the group
    /// before it reaps for the same reason.
    deinit {
        close(toWorker)
        if exited == nil {
            kill(-pid, SIGKILL)  // the worker and whatever it started
            kill(pid, SIGKILL)
            var st: Int32 = 0
            waitpid(pid, &st, 0)
        }
        close(fromWorker)
        close(stderrFile)
    }

    /// Sends `request` and returns the plugin's response; throws with the worker's last stderr
    /// line when it exits or answers with bytes that are not a response.
    /// With a `timeout` (seconds), a worker that has not answered by then is killed (SIGKILL),
    /// as the daemon does past `requestTimeoutSeconds`, and the call throws.
    public func request(_ request: WireRequest, timeout: Double? = nil) throws -> WireResponse {
        let payload = WireCodec.encodeRequest(request)
        let frame = Framing.frame(payload)
        guard Self.writeWithoutSIGPIPE(toWorker, frame) else { throw deathFailure() }
        let data = try nextFrame(deadline: timeout.map { Self.monotonicSeconds() + $0 }, timeout: timeout ?? 0)
        do {
            return try WireCodec.decodeResponse(data)
        } catch let invalid as WireValidationError {
            throw Failure(description: "\(pluginPath): timeline rejected: \(invalid)")
        } catch {
            let preview = String(decoding: data.prefix(80), as: UTF8.self)
            throw Failure(description: "\(pluginPath): the plugin answered with a malformed response (\(data.count) bytes: \(preview.debugDescription))")
        }
    }

    /// `FileIO.writeAll` with SIGPIPE blocked on this thread (and a pending one consumed): a
    /// worker that died before reading its request is an error for the caller, not its death —
    /// whatever the process does with SIGPIPE otherwise.
    static func writeWithoutSIGPIPE(_ fd: Int32, _ data: Data) -> Bool {
        var pipeOnly = sigset_t(), old = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        var pending = sigset_t()
        sigpending(&pending)
        let wasPending = sigismember(&pending, SIGPIPE) == 1
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &old)
        let ok = FileIO.writeAll(fd, data)
        if !ok && errno == EPIPE && !wasPending {
            var zero = timespec()
            _ = sigtimedwait(&pipeOnly, nil, &zero)
        }
        pthread_sigmask(SIG_SETMASK, &old, nil)
        return ok
    }

    private func nextFrame(deadline: Double?, timeout: Double) throws -> Data {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while pendingFrames.isEmpty {
            if let deadline {
                var p = pollfd(fd: fromWorker, events: Int16(POLLIN), revents: 0)
                let left = Int32(max(0, (deadline - Self.monotonicSeconds()) * 1000).rounded(.up))
                let r = poll(&p, 1, left)
                if r < 0 && errno == EINTR { continue }
                if r == 0 {
                    kill(pid, SIGKILL)
                    _ = deathFailure()
                    throw Failure(description: "\(pluginPath): no answer within \(timeout) s: the worker was killed")
                }
            }
            let n = buffer.withUnsafeMutableBytes { read(fromWorker, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { throw deathFailure() }
            pendingFrames += try decoder.append(buffer[0..<n])
        }
        return pendingFrames.removeFirst()
    }

    /// CLOCK_MONOTONIC in seconds (deadlines and timings).
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Waits for the worker to exit and describes why it did.
    private func deathFailure() -> Failure {
        var st: Int32 = 0
        if exited == nil {
            // Waited for without reaping (WNOWAIT): the pid is still the worker's group's, so
            // what it started is ended before the pid is freed.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
            kill(-pid, SIGKILL)
            while waitpid(pid, &st, 0) < 0 && errno == EINTR {}
            exited = st
        }
        let status = exited ?? 0
        let line = lastStderrLine()
        let how: String
        if status & 0x7f == 0 { how = "exited with status \((status >> 8) & 0xff)" }
        else { how = "was killed by signal \(status & 0x7f) (\(String(cString: strsignal(status & 0x7f))))" }
        if let line, !line.isEmpty { return Failure(description: line.hasPrefix("widgethost worker:") ? line : "worker \(how): \(line)") }
        return Failure(description: "\(pluginPath): worker \(how)")
    }

    /// Whether the worker has ended (a request saw it die); every later request fails.
    public var hasExited: Bool { exited != nil }

    /// The last non-empty line the worker wrote to stderr, passing over the stack trace the Swift
    /// runtime prints after a fatal error, so the reason (`file.swift:32: Fatal error: …`) shows.
    public func lastStderrLine() -> String? {
        let size = lseek(stderrFile, 0, SEEK_END)
        guard size > 0 else { return nil }
        let start = max(0, Int(size) - 4096)
        var bytes = [UInt8](repeating: 0, count: Int(size) - start)
        let n = pread(stderrFile, &bytes, bytes.count, off_t(start))
        guard n > 0 else { return nil }
        let text = String(decoding: bytes[0..<n], as: UTF8.self)
        var lines = text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
        if let trace = lines.lastIndex(where: { $0.hasPrefix("Current stack trace:") }), trace > 0 {
            lines.removeSubrange(trace...)
        }
        return lines.last.map(String.init)
    }
}

/// This process's environment as a dictionary (FoundationEssentials has no `ProcessInfo`).
public enum ProcessEnvironment {
    /// Split at the first `=` byte (`strchr`): `String.firstIndex(of:)` walked Characters and
    /// was ~9 % of a daemon's start-up instructions (issue 16).
    public static func current() -> [String: String] {
        var out: [String: String] = [:]
        var p = environ
        while let entry = p.pointee {
            if let eq = strchr(entry, Int32(UInt8(ascii: "="))) {
                let name = UnsafeRawBufferPointer(start: entry, count: eq - entry)
                out[String(decoding: name, as: UTF8.self)] = String(cString: eq + 1)
            }
            p += 1
        }
        return out
    }
}

/// Calls `body` with a NULL-terminated C array of the strings.
func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
