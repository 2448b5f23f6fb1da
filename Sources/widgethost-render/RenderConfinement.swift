import FoundationEssentials
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// What `widgethost-render --serve` confines itself to before it reads its first request
/// (`PictureRenderLimits`, docs/limits.md "Pictures"): a memory cap (`--memory-mb N`,
/// RLIMIT_DATA, as a worker's: a tree that needs more fails to draw, Cairo reports no memory)
/// and the workers' sandbox (`WorkerSandbox.confine`) without the network: its own user, PID,
/// IPC, mount and network namespaces (the process the daemon started stays outside and ends as
/// the render ends), a read-only root holding only the system's libraries, fonts, font caches
/// and zoneinfo, the libraries mapped into it and its own executable, with `/dev/null` and the
/// out directory (`--out DIR`, at its own path: the daemon reads what it writes) read-write;
/// the environment cut to `RenderEnvironment.kept`; Landlock on the same paths; the seccomp
/// filter. Where the kernel lacks a part it says on stderr (which the daemon logs) which
/// protection is missing, and runs under the rest. Single-threaded, at start.
enum RenderConfinement {
    struct Options: Equatable {
        var outDirectory: String?
        var memoryMB = 0
    }

    /// The options after `--serve`; nil when they are not `--out DIR` and `--memory-mb N`.
    static func parse(_ arguments: [String]) -> Options? {
        var o = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { return nil }
            switch flag {
            case "--out" where value.hasPrefix("/"): o.outDirectory = value
            case "--memory-mb": guard let n = Int(value), n > 0 else { return nil }; o.memoryMB = n
            default: return nil
            }
        }
        return o
    }

    /// Applies `o` to this process; exits (status 1, with the reason) when the kernel refuses.
    static func enter(_ o: Options) {
        if o.memoryMB > 0 {
            let bytes = rlim_t(o.memoryMB) << 20
            var lim = rlimit(rlim_cur: bytes, rlim_max: bytes)
            if setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &lim) != 0 { fail("cannot set the memory limit: \(String(cString: strerror(errno)))") }
        }
        guard let out = o.outDirectory else { return }
        if let reason = WorkerSandbox.missingProtection(subject: "runs") { say(reason) }
        guard WorkerSandbox.landlockABI != nil else { return }
        let isolate = WorkerSandbox.isolationAvailable
        if isolate {
            // First, while single-threaded: the render goes on as the first process of its own
            // PID namespace; this one stays outside and ends as it ends.
            do { try WorkerSandbox.enterProcessNamespaces() } catch { fail("\(error)") }
        }
        let started = ProcessEnvironment.current()
        // Started by the daemon, the environment is cut already; by hand, the XDG folders
        // are set from HOME here (`RenderEnvironment`), before HOME goes.
        let env = isolate ? RenderEnvironment.cut(started) : started
        if isolate { for (name, value) in env where started[name] != value { setenv(name, value, 1) } }
        var readOnly = WorkerSandbox.mappedLibraryDirectories() + ["/var/cache/fontconfig"]
        if let exe = realpath("/proc/self/exe", nil) { readOnly.append(String(cString: exe)); free(exe) }
        // A font configuration named by the environment (the tests' pinned fonts) is read too.
        if let file = env["FONTCONFIG_FILE"], file.hasPrefix("/") { readOnly.append(file.deletingLastPathComponent) }
        if let path = env["FONTCONFIG_PATH"] { readOnly += path.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") } }
        do {
            try WorkerSandbox.confine(visible: isolate ? WorkerSandbox.isolatedReadOnly(environment: env, network: false) + readOnly : nil,
                                      readOnly: WorkerSandbox.baseReadOnly(environment: env) + readOnly,
                                      readWrite: ["/dev/null", out], network: false, environment: started, keeping: RenderEnvironment.kept)
        } catch { fail("\(error)") }
    }

    static func say(_ line: String) {
        let b = Array(("widgethost-render: " + line + "\n").utf8)
        _ = b.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
}
