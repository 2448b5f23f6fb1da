import FoundationEssentials
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A child process with its stdin on a pipe we write to, and stdout/stderr captured to files
/// (or stdout on a pipe we read, to see a reader close it): the shape of a bar running a status
/// command. Killed and reaped on deinit (with its whole process group when it leads one).
final class BarProcess {
    let pid: pid_t
    private(set) var stdinFD: Int32 = -1
    private(set) var stdoutFD: Int32 = -1
    let outPath: String
    let errPath: String
    private var exited: Int32?
    private let leadsGroup: Bool

    /// What the child's stdin is: a pipe we write to (a bar), a file or device opened read-only
    /// (`/dev/null`: systemd's `StandardInput=null`), or no descriptor at all.
    enum Stdin { case pipe, file(String), closed }

    /// `environment`: the child's whole environment (default: ours). `ownGroup`: the child leads
    /// a new process group, killed as a whole on deinit (a real bar and the commands it starts).
    init(_ program: String, _ args: [String], dir: String, name: String, stdoutPipe: Bool = false, stdin: Stdin = .pipe,
         environment: [String]? = nil, ownGroup: Bool = false) throws {
        outPath = dir + "/\(name).out"; errPath = dir + "/\(name).err"
        leadsGroup = ownGroup
        var inPipe: [Int32] = [0, 0], outPipe: [Int32] = [0, 0]
        try #require(pipe(&inPipe) == 0)
        if stdoutPipe { try #require(pipe(&outPipe) == 0) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        switch stdin {
        case .pipe: posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        case .file(let path): posix_spawn_file_actions_addopen(&actions, 0, path, O_RDONLY, 0)
        case .closed: posix_spawn_file_actions_addclose(&actions, 0)
        }
        posix_spawn_file_actions_addclose(&actions, inPipe[0])
        posix_spawn_file_actions_addclose(&actions, inPipe[1])
        if stdoutPipe {
            posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
            posix_spawn_file_actions_addclose(&actions, outPipe[0])
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([program] + args).map { strdup($0) } + [nil]
        let env = (environment ?? currentEnvironment()).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) }; env.forEach { free($0) } }
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        // The child starts as from a shell: no signal blocked, SIGPIPE not ignored. The test
        // runner's threads block most signals, and a spawned child inherits that mask: Xvfb,
        // xmessage and GLib programs then ignored SIGTERM.
        var none = sigset_t(), brokenPipe = sigset_t()
        sigemptyset(&none)
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setsigdefault(&attr, &brokenPipe)
        var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if ownGroup {
            flags |= Int16(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attr, 0)
        }
        posix_spawnattr_setflags(&attr, flags)
        var p: pid_t = 0
        let rc = posix_spawn(&p, program, &actions, &attr, argv, env)
        pid = p
        close(inPipe[0])
        stdinFD = inPipe[1]
        if stdoutPipe { close(outPipe[1]); stdoutFD = outPipe[0] }
        try #require(rc == 0, "cannot start \(program): \(rc)")
    }

    /// The group is killed only while its leader is not yet reaped: a reaped pid is free, and
    /// with `pid_max` at 32768 another test's group leader (an Xvfb) took one and was killed by
    /// `kill(-pid)` seconds later. `waitForExit` kills the group before it reaps.
    deinit {
        if stdinFD >= 0 { close(stdinFD) }
        if stdoutFD >= 0 { close(stdoutFD) }
        if exited == nil {
            if leadsGroup { kill(-pid, SIGKILL) }
            kill(pid, SIGKILL); var st: Int32 = 0; waitpid(pid, &st, 0)
        }
    }

    var stdout: String { FileManagerFree.read(outPath) ?? "" }
    var stderr: String { FileManagerFree.read(errPath) ?? "" }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(stdinFD, $0.baseAddress!, $0.count) }
    }

    /// Reads one line from the stdout pipe (nil on EOF or after `timeout`).
    private var pending: [UInt8] = []
    func readLine(timeout: Double = 10) -> String? {
        let deadline = monotonicNow() + timeout
        while true {
            if let nl = pending.firstIndex(of: 0x0a) {
                let line = String(decoding: pending[..<nl], as: UTF8.self)
                pending.removeFirst(nl + 1)
                return line
            }
            let left = deadline - monotonicNow()
            if left <= 0 { return nil }
            var pfd = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, Int32(left * 1000)) <= 0 { continue }
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = read(stdoutFD, &buf, buf.count)
            if n <= 0 { return nil }
            pending += buf[0..<n]
        }
    }

    /// Closes our end of the stdout pipe, as a bar that goes away does.
    func closeStdout() { close(stdoutFD); stdoutFD = -1 }

    func signal(_ s: Int32) { kill(pid, s) }

    /// What became of the process, for failure messages, without reaping it: "runs (state S)",
    /// or how it ended ("exited with status N", "was killed by signal N (NAME)").
    var fate: String {
        if let exited { return "was reaped (status \(exited))" }
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return "is no child of ours (\(String(cString: strerror(errno))))" }
        guard info.si_signo == SIGCHLD else {
            let stat = FileManagerFree.read("/proc/\(pid)/stat") ?? ""
            return "runs (state \(stat.lastIndex(of: ")").map { stat[stat.index($0, offsetBy: 2)...].prefix(1) } ?? "?"))"
        }
        let status = info._sifields._sigchld.si_status
        return info.si_code == CLD_EXITED ? "exited with status \(status)" : "was killed by signal \(status) (\(String(cString: strsignal(status))))"
    }

    func waitForExit(timeout: Double = 10) -> Int32? {
        let deadline = monotonicNow() + timeout
        while monotonicNow() < deadline {
            // Seen exiting without being reaped (WNOWAIT): its pid is still its group's, so
            // what it started is killed before the pid is freed.
            var info = siginfo_t()
            if waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_signo == SIGCHLD {
                if leadsGroup { kill(-pid, SIGKILL) }
                var st: Int32 = 0
                guard waitpid(pid, &st, 0) == pid else { return nil }
                exited = (st & 0x7f) == 0 ? (st >> 8) & 0xff : 128 + (st & 0x7f)
                return exited
            }
            usleep(20_000)
        }
        return nil
    }
}

/// Whether `program` is on PATH (for tests of real bars that skip when it is not installed).
func which(_ program: String) -> String? {
    for dir in (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin").split(separator: ":") {
        let p = "\(dir)/\(program)"
        if access(p, X_OK) == 0 { return p }
    }
    return nil
}
