import CSandbox
import Dispatch
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// A worker's settings, as `widgethost worker --help` (`WorkerCommand`) lists them. Value type.
struct WorkerOptions {
    var plugin: String
    var maxFrame = 64 << 20
    var memoryMb = 0
    var maxResponseBytes = Int.max
    var viewDeadlineMs = 0
    /// nil: unsandboxed (`preview`, and a kernel without Landlock).
    var sandbox: WorkerSandbox.Spec?
    /// `--settings-after-describe` (`WorkerSettings`): these options hold for the `describe`
    /// only; the serving ones come from the host in a frame after it.
    var settingsAfterDescribe = false

    static func sandboxSpec(_ json: String) throws(LongOptions.Invalid) -> WorkerSandbox.Spec {
        guard let spec = WorkerSandbox.Spec.parse(json) else { throw LongOptions.Invalid(description: "invalid value '\(json)' for '--sandbox'") }
        return spec
    }

    /// Parses the arguments after `worker` without swift-argument-parser (`LongOptions`): a
    /// worker starts for every bundle, after every plugin change and every crash, and the host is
    /// the only caller.
    static func parse(_ arguments: [String]) throws(LongOptions.Invalid) -> WorkerOptions {
        let o = try LongOptions(arguments, valued: ["plugin", "max-frame", "memory-mb", "max-response-bytes", "view-deadline-ms", "sandbox"],
                                flags: [WorkerSettings.afterDescribeFlag])
        guard let plugin = o.string("plugin") else { throw LongOptions.Invalid(description: "missing expected argument '--plugin <plugin>'") }
        return WorkerOptions(plugin: plugin, maxFrame: try o.count("max-frame", absent: 64 << 20), memoryMb: try o.count("memory-mb", absent: 0),
                             maxResponseBytes: try o.count("max-response-bytes", absent: Int.max),
                             viewDeadlineMs: try o.count("view-deadline-ms", absent: 0),
                             sandbox: try o.string("sandbox").map(sandboxSpec),
                             settingsAfterDescribe: o.flag(WorkerSettings.afterDescribeFlag))
    }
}

/// The worker process itself. Never returns.
enum WorkerMain {
    static func run(_ options: WorkerOptions) -> Never {
        // Die with the parent, whatever kills it.
        _ = widgethost_exit_with_parent(SIGKILL)
        if getppid() == 1 { Glibc.exit(0) }
        if options.sandbox?.isolate == true {
            // First, while this process is single-threaded: the worker goes on as the first
            // process of its own PID namespace; this one stays outside and ends as it ends.
            do { try WorkerSandbox.enterProcessNamespaces() } catch { WorkerServer.fail("\(options.plugin): \(error)") }
        }
        // Keep a private copy of stdout for the protocol; fd 1 becomes stderr so a plugin's
        // print() cannot corrupt the frames.
        let protocolOut = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard protocolOut >= 0, dup2(2, 1) >= 0 else { WorkerServer.fail("cannot set up the protocol pipe") }
        signal(SIGPIPE, SIG_IGN)
        let o = options.settingsAfterDescribe ? describeInChild(options, protocolOut: protocolOut) : options
        enterLimits(o)
        let server = WorkerServer(plugin: load(o.plugin), input: 0, output: protocolOut, maxFrame: o.maxFrame)
        server.maxResponse = o.maxResponseBytes
        server.serve()
        dispatchMain()
    }

    /// Applies `o`'s limits and sandbox to this process and starts its group's guardian: what
    /// must hold before the plugin is loaded, for its constructors already run under them.
    private static func enterLimits(_ o: WorkerOptions) {
        if o.memoryMb > 0 {
            // Before dlopen: a plugin that allocates without end gets malloc failures and dies
            // (Swift traps on allocation failure) instead of taking the machine's memory.
            // RLIMIT_DATA, not RLIMIT_AS: it counts what the worker actually allocates (heap,
            // private writable mappings), while a Swift process reserves far more address space
            // than it uses (measured, docs/limits.md: AS needs >= 96 MiB, DATA 48 MiB).
            let bytes = rlim_t(o.memoryMb) << 20
            var lim = rlimit(rlim_cur: bytes, rlim_max: bytes)
            if setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &lim) != 0 { WorkerServer.fail("cannot set the memory limit: errno \(errno)") }
        }
        if o.viewDeadlineMs > 0 { setenv("WIDGETHOST_VIEW_DEADLINE_MS", String(o.viewDeadlineMs), 1) }
        if let spec = o.sandbox {
            // The folders the person granted the bundle (config.json), which the plugin cannot know otherwise.
            if !spec.granted.isEmpty { setenv("WIDGETHOST_GRANTED_PATHS", spec.granted.joined(separator: "\n"), 1) }
            do { try WorkerSandbox.apply(spec, plugin: o.plugin, environment: ProcessEnvironment.current()) }
            catch { WorkerServer.fail("\(o.plugin): \(error)") }
        }
        // When this worker dies, its group goes with it: what a plugin forks cannot outlive it,
        // even when the host was killed with SIGKILL (the host kills the group otherwise). After
        // the sandbox: Landlock lets the dying worker signal only processes inside it.
        if getpgrp() == getpid() { _ = widgethost_start_group_guardian() }
    }

    private static func load(_ path: String) -> LoadedPlugin {
        switch PluginLoader.load(path: path) {
        case .success(let p): return p
        case .failure(let e): WorkerServer.fail("\(path): \(e.description)")
        }
    }

    /// `--settings-after-describe` (`WorkerSettings`): a child, forked before anything is applied
    /// or loaded, answers the first request under `o` — in a process group of its own with its
    /// own guardian, so whatever the plugin started during `describe` ends with it, as it did
    /// with a worker of its own. Then the serving settings are read from the host's next frame.
    /// Returns them; a child that failed or was killed ends this process the same way (the host
    /// reports the child's last stderr line as the reason).
    private static func describeInChild(_ o: WorkerOptions, protocolOut: Int32) -> WorkerOptions {
        let parent = getpid()
        let child = fork()
        if child < 0 { WorkerServer.fail("cannot fork: \(String(cString: strerror(errno)))") }
        if child == 0 {
            _ = widgethost_exit_with_parent(SIGKILL)
            if getppid() != parent { _exit(0) }
            _ = setpgid(0, 0)
            enterLimits(o)
            let server = WorkerServer(plugin: load(o.plugin), input: 0, output: protocolOut, maxFrame: o.maxFrame)
            server.maxResponse = o.maxResponseBytes
            _ = server.answerOne()
            _exit(0)
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            if errno != EINTR { WorkerServer.fail("cannot wait for the describing process: \(String(cString: strerror(errno)))") }
        }
        let signalNumber = status & 0x7f, exitCode = (status >> 8) & 0xff
        if signalNumber != 0 {
            // Ended by a signal: end the same way (without a second core file).
            var none = rlimit(rlim_cur: 0, rlim_max: 0)
            _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
            signal(signalNumber, SIG_DFL)
            raise(signalNumber)
            _exit(128 + signalNumber)
        }
        if exitCode != 0 { _exit(exitCode) }
        guard let frame = WorkerServer.readFrame(0, maxFrame: o.maxFrame) else { Glibc.exit(0) }
        do {
            var serving = try WorkerOptions.parse(["--plugin", o.plugin] + WorkerSettings.decode(frame))
            serving.settingsAfterDescribe = false
            return serving
        } catch {
            WorkerServer.fail("serving settings rejected: \(error)")
        }
    }
}
