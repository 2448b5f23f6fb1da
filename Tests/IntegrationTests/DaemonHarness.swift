import CLinuxFiles
import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real `widgethost run` in a temp directory (`Plugins/`, `out/`, `containers/`, `state/`,
/// `config.json`), with stdout and stderr captured to files. Deadlines are generous: the tests
/// poll for results and never assert timings tighter than seconds.
final class RunningDaemon {
    let dir: TempDir
    private(set) var pid: pid_t = 0
    private var exitStatus: Int32?

    static let defaultConfig = #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}}"#

    /// - Parameters:
    ///   - wrapper: runs the host under another program (e.g. `prlimit --nofile=64 --`).
    ///   - environment: variables set (or replaced; removed when nil) for the daemon on top of the test's own.
    ///   - arguments: replace the default `--stdout jsonl --log-level debug`.
    ///   - prepare: called with the directory before the daemon starts (a state a previous run left, plugins present at start).
    ///   - executable: the `widgethost` to run (a copy elsewhere, with its `widgethost-worker`).
    init(config: String = RunningDaemon.defaultConfig, wrapper: [String] = [], environment: [String: String?] = [:],
         arguments: [String] = ["--stdout", "jsonl", "--log-level", "debug"], executable: String = TestPaths.widgethost,
         prepare: (String) throws -> Void = { _ in }) throws {
        dir = TempDir()
        mkdir(dir.path + "/Plugins", 0o755)
        try prepare(dir.path)
        FileManagerFree.write(dir.path + "/config.json", config)
        try prepare(dir.path)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, dir.path + "/stdout.log", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, dir.path + "/stderr.log", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Only 0, 1 and 2: the test process's other descriptors (sockets and pipes of the tests
        // running beside this one, not all close-on-exec) would count against the daemon's own
        // limit — with `prlimit --nofile=64`, inherited ones left the host too few to reach its
        // 16 connections (ControlSocketLimitTests failed in full runs only).
        _ = widgethost_spawn_close_from(&actions, 3)
        let argv = wrapper + [executable, "run", "--config", dir.path + "/config.json"] + arguments
        let cArgv = argv.map { strdup($0) } + [nil]
        var env = currentEnvironment()
        for (k, v) in environment {
            env.removeAll { $0.hasPrefix(k + "=") }
            if let v { env.append("\(k)=\(v)") }
        }
        let cEnv = env.map { strdup($0) } + [nil]
        defer { cArgv.forEach { free($0) }; cEnv.forEach { free($0) } }
        let rc = posix_spawn(&pid, argv[0], &actions, nil, cArgv, cEnv)
        try #require(rc == 0, "cannot start widgethost: \(rc)")
    }

    deinit {
        if exitStatus == nil { kill(pid, SIGKILL); var st: Int32 = 0; waitpid(pid, &st, 0) }
        // Whatever a fixture plugin started and kept out of its worker's group: leave nothing running.
        for p in processesMentioning(dir.path) { kill(p, SIGKILL) }
        dir.remove()
    }

    var stderr: String { FileManagerFree.read(dir.path + "/stderr.log") ?? "" }
    var stdout: String { FileManagerFree.read(dir.path + "/stdout.log") ?? "" }

    /// `out/<id>.json` decoded, nil while absent or unreadable.
    func output(_ id: String) -> [String: JSONValue]? {
        guard let text = FileManagerFree.read(dir.path + "/out/\(id).json"), !text.isEmpty else { return nil }
        return try? WireCodec.decode([String: JSONValue].self, from: Data(text.utf8))
    }

    func text(_ id: String) -> String? { output(id)?["text"]?.stringValue }

    /// Installs `so` as `Plugins/<name>` the safe way (temp name, then rename).
    func install(_ so: String, as name: String) {
        let r = run("/bin/sh", ["-c", "cp '\(so)' '\(dir.path)/Plugins/.\(name).tmp' && mv -f '\(dir.path)/Plugins/.\(name).tmp' '\(dir.path)/Plugins/\(name)'"])
        #expect(r.status == 0)
    }

    func writeContainer(_ group: String, _ file: String, _ text: String) {
        let d = dir.path + "/containers/" + group
        FileManagerFree.write(d + "/." + file + ".tmp", text)
        rename(d + "/." + file + ".tmp", d + "/" + file)
    }

    func signal(_ s: Int32) { kill(pid, s) }

    /// Waits for the process to exit (nil on timeout) and returns its exit code.
    func waitForExit(timeout: Double = 10) -> Int32? {
        let deadline = monotonicNow() + timeout
        while monotonicNow() < deadline {
            var st: Int32 = 0
            let r = waitpid(pid, &st, WNOHANG)
            if r == pid {
                exitStatus = (st & 0x7f) == 0 ? (st >> 8) & 0xff : 128 + (st & 0x7f)
                return exitStatus
            }
            usleep(20_000)
        }
        return nil
    }
}

func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Polls `condition` every 20 ms until it holds or `timeout` seconds pass.
@discardableResult
func eventually(timeout: Double = 15, _ condition: () -> Bool) -> Bool {
    let deadline = monotonicNow() + timeout
    while monotonicNow() < deadline {
        if condition() { return true }
        usleep(20_000)
    }
    return condition()
}

/// Compiles the probe fixture (Fixtures/probe_widget.c) with `defines`.
func buildProbe(in dir: String, name: String, defines: [String] = []) throws -> String {
    try compileCPlugin("Tests/IntegrationTests/Fixtures/probe_widget.c", in: dir, name: name, defines: defines)
}

/// Starts a program with stdin/stdout/stderr on /dev/null and returns its pid (wait with waitpid).
func spawnBackground(_ program: String, _ args: [String]) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd in Int32(0)...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
    let argv = ([program] + args).map { strdup($0) } + [nil]
    let env = currentEnvironment().map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) }; env.forEach { free($0) } }
    var pid: pid_t = 0
    _ = posix_spawn(&pid, program, &actions, nil, argv, env)
    return pid
}
