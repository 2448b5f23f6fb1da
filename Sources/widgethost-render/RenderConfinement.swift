import CSandbox
import FoundationEssentials
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// What `widgethost-render --serve` confines itself to before it reads its first request
/// (`PictureRenderLimits`, docs/limits.md "Pictures"): a memory cap (`--memory-mb N`,
/// RLIMIT_DATA, as a worker's: a tree that needs more fails to draw, Cairo reports no memory)
/// and a Landlock sandbox built from the workers' (`WorkerSandbox`): read-only the system's
/// files, fonts and font caches, the libraries mapped into it and its own executable;
/// read-write only `/dev/null` and the out directory (`--out DIR`); no TCP. Where the kernel has
/// no Landlock (or `WIDGETHOST_SANDBOX=off`) it runs unsandboxed and says so on stderr, which
/// the daemon logs. Single-threaded, at start.
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
        if let reason = WorkerSandbox.unavailableReason {
            let prefix = "workers run unsandboxed: "
            say("runs unsandboxed: " + (reason.hasPrefix(prefix) ? String(reason.dropFirst(prefix.count)) : reason))
            return
        }
        let env = ProcessEnvironment.current()
        var readOnly = WorkerSandbox.baseReadOnly(environment: env) + WorkerSandbox.mappedLibraryDirectories()
            + ["/var/cache/fontconfig"]
        if let exe = realpath("/proc/self/exe", nil) { readOnly.append(String(cString: exe)); free(exe) }
        // A font configuration named by the environment (the tests' pinned fonts) is read too.
        if let file = env["FONTCONFIG_FILE"], file.hasPrefix("/") { readOnly.append(file.deletingLastPathComponent) }
        if let path = env["FONTCONFIG_PATH"] { readOnly += path.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") } }
        let readWrite = ["/dev/null", out]
        let rc = withCStrings(readOnly) { ro in
            withCStrings(readWrite) { rw in widgethost_landlock_apply(ro, readOnly.count, rw, readWrite.count, 0) }
        }
        if rc != 0 { fail("cannot apply the sandbox: \(String(cString: strerror(-rc)))") }
    }

    static func say(_ line: String) {
        let b = Array(("widgethost-render: " + line + "\n").utf8)
        _ = b.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    private static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let pointers = strings.map { UnsafePointer(strdup($0)) } + [nil]
        defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
