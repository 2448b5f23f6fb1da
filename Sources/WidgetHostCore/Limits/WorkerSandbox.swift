import CSandbox
import FoundationEssentials
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// The sandbox of a worker (docs/limits.md "Sandbox"; WidgetKit gives every extension one,
/// Flatpak every app). The host decides what a bundle's worker may touch from its manifest and
/// passes it as `worker --sandbox <spec>`; the worker applies it before it loads the plugin, so
/// the plugin's constructors already run inside, and it holds for everything the plugin starts.
///
/// Isolated (`Spec.isolate`, when the host's probe found the kernel able): user, PID and IPC
/// namespaces (`enterProcessNamespaces`, first thing in the worker), then per process a mount
/// namespace whose read-only root holds only `isolatedReadOnly`, the plugin, the mapped library
/// directories and the declared containers (read-write), with a fresh `/proc`, and a network
/// namespace without `"network"`; the environment cut to `keptEnvironment`. Then Landlock on
/// the same paths (`baseReadOnly` read-only; TCP only with `"network"`; no signals out, no
/// abstract Unix sockets from ABI 6; `no_new_privs`), then the seccomp filter (the chmod, chown
/// and utimes families, ptrace, keyctl, raw sockets, any socket without `"network"`…). On a
/// kernel without Landlock workers run unsandboxed; without user namespaces or seccomp, under
/// Landlock alone — each with a warning in the log and in `status` (`unavailableReason`).
/// Pure values plus the calls.
public enum WorkerSandbox {
    /// What one worker may use beyond the base: containers to read and write, network or not;
    /// and whether to isolate it in namespaces under a seccomp filter (the host's probe said
    /// this kernel can, `isolationUnavailableReason`).
    public struct Spec: Equatable, Sendable {
        public var readWrite: [String]
        public var network: Bool
        public var isolate: Bool
        public init(readWrite: [String] = [], network: Bool = false, isolate: Bool = false) {
            self.readWrite = readWrite; self.network = network; self.isolate = isolate
        }

        /// The spec for a bundle with `manifest` (the placeholder of a bundle not yet described
        /// gets nothing: its `describe` runs with the base only).
        public init(manifest: BundleManifest, containersRoot: String, isolate: Bool = false) {
            readWrite = manifest.appGroups.filter(AppGroupContainer.isValidGroupID).sorted().map { containersRoot + "/" + $0 }
            network = manifest.permissions?.contains("network") ?? false
            self.isolate = isolate
        }

        /// The `--sandbox` argument: `network` or `no-network` (then ` isolate` when asked), then
        /// one read-write path per line (no JSON decoder in the worker's start-up: it is on every
        /// worker's cold path).
        public var argument: String { ([(network ? "network" : "no-network") + (isolate ? " isolate" : "")] + readWrite).joined(separator: "\n") }
        public static func parse(_ argument: String) -> Spec? {
            let lines = argument.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let first = lines.first?.split(separator: " ").map(String.init), let mode = first.first,
                  mode == "network" || mode == "no-network", first.dropFirst().allSatisfy({ $0 == "isolate" }),
                  lines.dropFirst().allSatisfy({ $0.hasPrefix("/") }) else { return nil }
            return Spec(readWrite: Array(lines.dropFirst()), network: mode == "network", isolate: first.count > 1)
        }
    }

    /// `WIDGETHOST_SANDBOX=off` in the host's environment: workers run unsandboxed (to tell
    /// whether the sandbox is what breaks a plugin), with the same warning as on a kernel
    /// without Landlock.
    static let disabled = getenv("WIDGETHOST_SANDBOX").map { String(cString: $0) == "off" } ?? false

    /// The kernel's Landlock ABI version, or nil when it has none or the sandbox is off (then
    /// workers run unsandboxed).
    public static let landlockABI: Int? = {
        let abi = widgethost_landlock_abi()
        return abi > 0 && !disabled ? Int(abi) : nil
    }()

    /// Why workers run unsandboxed, or without namespaces and seccomp; nil when they are fully
    /// sandboxed.
    public static var unavailableReason: String? {
        guard landlockABI != nil else {
            if disabled { return "workers run unsandboxed: WIDGETHOST_SANDBOX=off" }
            return "workers run unsandboxed: this kernel offers no Landlock (\(String(cString: strerror(-widgethost_landlock_abi()))))"
        }
        return isolationUnavailableReason
    }

    /// Whether this kernel lets a worker have its own user, mount, PID, IPC and network
    /// namespaces and a seccomp filter: probed once, in a forked child (`widgethost_probe_isolation`).
    private static let isolationProbe: Int32 = disabled || landlockOnly ? 0 : widgethost_probe_isolation()

    /// `WIDGETHOST_SANDBOX=landlock`: Landlock alone, no namespaces and no seccomp (to tell
    /// whether the isolation is what breaks a plugin), with the same warning as on a kernel
    /// without user namespaces.
    static let landlockOnly = getenv("WIDGETHOST_SANDBOX").map { String(cString: $0) == "landlock" } ?? false

    /// True when workers are isolated (namespaces and seccomp on top of Landlock).
    public static var isolationAvailable: Bool { landlockABI != nil && !landlockOnly && isolationProbe == 0 }

    /// Which protection is missing, when Landlock is there but the rest is not.
    static var isolationUnavailableReason: String? {
        if landlockOnly {
            return "workers run without namespaces (a host /proc, $HOME, the network and the control socket are reachable) and seccomp: WIDGETHOST_SANDBOX=landlock"
        }
        switch isolationProbe {
        case 0: return nil
        case 1: return "workers run without namespaces (a host /proc, $HOME, the network and the control socket are reachable) and seccomp: this kernel refuses user namespaces"
        case 2: return "workers run without namespaces and seccomp (chmod, ptrace, raw sockets are allowed): this kernel offers no seccomp filter"
        default: return "workers run without namespaces and seccomp: the probe failed (\(String(cString: strerror(-isolationProbe))))"
        }
    }

    /// What an isolated worker sees of `/etc`: time zone, fonts, the loader, users and locales;
    /// with the network, name resolution and certificates. Nothing else of the host's.
    static func etcFiles(network: Bool) -> [String] {
        ["/etc/localtime", "/etc/timezone", "/etc/fonts", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
         "/etc/nsswitch.conf", "/etc/passwd", "/etc/group", "/etc/os-release", "/etc/locale.alias", "/etc/default/locale"]
            + (network ? ["/etc/hosts", "/etc/resolv.conf", "/etc/host.conf", "/etc/gai.conf", "/etc/services", "/etc/protocols",
                          "/etc/ssl", "/etc/ca-certificates"] : [])
    }

    /// The read-only part of an isolated worker's filesystem, besides its plugin and the
    /// library directories mapped into it: the system's libraries and programs, what
    /// `etcFiles` names, `/sys/class` and `/sys/devices` (batteries, thermal zones), the random
    /// devices and the user's font folders. Its `/proc` is its PID namespace's own.
    public static func isolatedReadOnly(environment: [String: String], network: Bool) -> [String] {
        ["/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/sys/class", "/sys/devices", "/dev/zero", "/dev/random", "/dev/urandom"]
            + etcFiles(network: network) + fontDirectories(environment: environment)
    }

    /// The user's font folders (fontconfig's defaults under `$HOME` and the XDG folders).
    static func fontDirectories(environment: [String: String]) -> [String] {
        guard let home = environment["HOME"], home.hasPrefix("/") else { return [] }
        let data = environment["XDG_DATA_HOME"] ?? home + "/.local/share"
        let config = environment["XDG_CONFIG_HOME"] ?? home + "/.config"
        let cache = environment["XDG_CACHE_HOME"] ?? home + "/.cache"
        return [home + "/.fonts", data + "/fonts", config + "/fontconfig", cache + "/fontconfig"]
    }

    /// The environment variables an isolated worker keeps (by name or prefix): locale, time
    /// zone, paths; not the agents' and sessions' sockets (`SSH_AUTH_SOCK`, `XDG_RUNTIME_DIR`,
    /// `DBUS_SESSION_BUS_ADDRESS`, `DISPLAY`…).
    static let keptEnvironment = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "LC_", "TZ", "WIDGETHOST_", "SWIFT_",
                                  "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS", "FONTCONFIG_"]

    static func keepsVariable(_ name: String) -> Bool {
        keptEnvironment.contains { $0.hasSuffix("_") ? name.hasPrefix($0) : name == $0 }
    }

    /// Read-only paths every worker gets, besides its plugin and the library directories mapped
    /// into it.
    public static func baseReadOnly(environment: [String: String]) -> [String] {
        ["/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/opt", "/etc", "/proc", "/sys",
         "/dev/zero", "/dev/random", "/dev/urandom"] + fontDirectories(environment: environment)
    }

    /// Directories of the shared libraries mapped into this process (the Swift runtime of the
    /// toolchain the worker was built with lives outside `/usr` at times).
    public static func mappedLibraryDirectories() -> [String] {
        guard let maps = FileIO.read("/proc/self/maps", limit: 4 << 20) else { return [] }
        return maps.withUnsafeBytes { libraryDirectories(inMaps: $0) }
    }

    /// The directories of the shared libraries (`*.so`, `*.so.*`) that `maps` (the text of
    /// `/proc/<pid>/maps`) names, sorted, each once. A plain loop over the bytes: it runs twice
    /// in every sandboxed worker's start (the describing child and the worker), where the same
    /// with Sets of byte arrays and generic searches cost ~0.3 ms each (perf, issue 16).
    static func libraryDirectories(inMaps maps: UnsafeRawBufferPointer) -> [String] {
        let slash = UInt8(ascii: "/"), newline = UInt8(ascii: "\n"), dot = UInt8(ascii: ".")
        func isLibrary(_ from: Int, _ to: Int) -> Bool {
            guard to - from > 3 else { return false }
            if maps[to - 3] == dot && maps[to - 2] == UInt8(ascii: "s") && maps[to - 1] == UInt8(ascii: "o") { return true }
            var i = from
            while i + 4 <= to {
                if maps[i] == dot && maps[i + 1] == UInt8(ascii: "s") && maps[i + 2] == UInt8(ascii: "o") && maps[i + 3] == dot { return true }
                i += 1
            }
            return false
        }
        var dirs: [String] = []
        var lineStart = 0
        while lineStart < maps.count {
            var lineEnd = lineStart
            while lineEnd < maps.count && maps[lineEnd] != newline { lineEnd += 1 }
            var first = lineStart
            while first < lineEnd && maps[first] != slash { first += 1 }
            if first < lineEnd {
                var last = lineEnd - 1
                while maps[last] != slash { last -= 1 }
                if isLibrary(last + 1, lineEnd) {
                    let dir = String(decoding: UnsafeRawBufferPointer(rebasing: maps[first..<last]), as: UTF8.self)
                    if !dirs.contains(dir) { dirs.append(dir) }
                }
            }
            lineStart = lineEnd + 1
        }
        return dirs.sorted()
    }

    /// Moves this process (the first process of a worker) into user, PID and IPC namespaces of
    /// its own: the process the host started stays outside and ends as the worker ends; the
    /// worker goes on in a child, the first process of the new PID namespace (whatever it starts
    /// dies with it). Throws the reason when the kernel refuses.
    public static func enterProcessNamespaces() throws(Failure) {
        let rc = widgethost_enter_process_namespaces()
        guard rc == 0 else { throw Failure(description: "cannot enter the worker's namespaces: \(String(cString: strerror(-rc)))") }
    }

    /// Restricts this process (the worker, before it loads `plugin`) to `spec`; throws the
    /// reason when the kernel refuses. Isolated: a filesystem of its own (mount namespace, and a
    /// network namespace without `network`), the environment cut to `keptEnvironment`, then
    /// Landlock, then the seccomp filter.
    public static func apply(_ spec: Spec, plugin: String, environment: [String: String]) throws(Failure) {
        let libraries = mappedLibraryDirectories()
        let readWrite = ["/dev/null"] + spec.readWrite
        if spec.isolate {
            let visible = [plugin] + isolatedReadOnly(environment: environment, network: spec.network) + libraries
            let rc = withCStringArray(visible) { ro in
                withCStringArray(readWrite) { rw in
                    widgethost_enter_filesystem_namespace(ro, visible.count, rw, readWrite.count, spec.network ? 1 : 0)
                }
            }
            guard rc == 0 else { throw Failure(description: "cannot make the worker's filesystem: \(String(cString: strerror(-rc)))") }
            for name in environment.keys where !keepsVariable(name) { unsetenv(name) }
        }
        let readOnly = [plugin] + baseReadOnly(environment: environment) + libraries
        let rc = withCStringArray(readOnly) { ro in
            withCStringArray(readWrite) { rw in
                widgethost_landlock_apply(ro, readOnly.count, rw, readWrite.count, spec.network ? 1 : 0)
            }
        }
        guard rc == 0 else { throw Failure(description: "cannot apply the sandbox: \(String(cString: strerror(-rc)))") }
        if spec.isolate {
            let seccomp = widgethost_seccomp_apply(spec.network ? 1 : 0)
            guard seccomp == 0 else { throw Failure(description: "cannot apply the seccomp filter: \(String(cString: strerror(-seccomp)))") }
        }
    }

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    private static func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let pointers = strings.map { UnsafePointer(strdup($0)) } + [nil]
        defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
