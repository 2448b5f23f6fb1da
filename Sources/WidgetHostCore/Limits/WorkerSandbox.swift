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
/// The render process takes the same sandbox through `confine`, without the network
/// (`RenderConfinement`). Pure values plus the calls.
public enum WorkerSandbox {
    /// What one worker may use beyond the base: containers to read and write, network or not,
    /// the session-bus and system-bus names it talks to through its proxies (`busNames`,
    /// `systemBusNames`, whose sockets the host makes in `busDirectory`: `BusProxyRule`); and whether to isolate it in namespaces under a
    /// seccomp filter (the host's probe said this kernel can, `isolationUnavailableReason`).
    public struct Spec: Equatable, Sendable {
        public var readWrite: [String]
        public var network: Bool
        public var isolate: Bool
        /// `network-counters`: the worker keeps the host's network namespace (its `/proc/net/dev`
        /// and `/sys/class/net` are the host's) but, without `network`, still no socket.
        public var networkCounters: Bool
        /// `mount-sizes`: the host's volumes bound for `statvfs` only (`MountSizes`).
        public var mountSizes: Bool
        /// Paths the worker may read besides the base (the bundle's `filesystems` and the
        /// person's grants, resolved: `FilesystemGrant`), bound read-only when isolated.
        public var readOnly: [String] = []
        /// Of `readOnly`, the ones the person granted (config.json): the worker tells the plugin
        /// of them in `WIDGETHOST_GRANTED_PATHS` (one path a line), as it cannot know them otherwise.
        public var granted: [String] = []
        public var busNames: [String] = []
        /// The system-bus names (`systemBusNames`), through a second proxy at `system`.
        public var systemBusNames: [String] = []
        /// The folder (host path) where the host's `xdg-dbus-proxy`s for this worker listen, the
        /// session bus's as `bus`, the system bus's as `system`; nil: no proxy, no socket, no
        /// `DBUS_SESSION_BUS_ADDRESS` nor `DBUS_SYSTEM_BUS_ADDRESS`, no Unix sockets.
        public var busDirectory: String?
        public init(readWrite: [String] = [], network: Bool = false, isolate: Bool = false,
                    networkCounters: Bool = false, mountSizes: Bool = false, readOnly: [String] = [], granted: [String] = [],
                    busNames: [String] = [], systemBusNames: [String] = [], busDirectory: String? = nil) {
            self.readWrite = readWrite; self.network = network; self.isolate = isolate
            self.networkCounters = networkCounters; self.mountSizes = mountSizes
            self.readOnly = readOnly; self.granted = granted
            self.busNames = busNames; self.systemBusNames = systemBusNames; self.busDirectory = busDirectory
        }

        /// The spec for a bundle with `manifest` (the placeholder of a bundle not yet described
        /// gets nothing: its `describe` runs with the base only). `granted`: the person's
        /// `bundles.<id>.filesystems`; both it and the manifest's are resolved in `environment`,
        /// the ones `FilesystemGrant` refuses left out (`HostConfig.readPaths` reports them).
        /// `busDirectory`: where its bus proxies are to listen, when it declares valid bus names
        /// and the host has the bus (`sessionBus`, `systemBus`: which of them it has).
        public init(manifest: BundleManifest, containersRoot: String, isolate: Bool = false, granted: [String] = [],
                    environment: [String: String] = [:], protected: [String] = [], busDirectory: String? = nil,
                    sessionBus: Bool = true, systemBus: Bool = true) {
            readWrite = manifest.appGroups.filter(AppGroupContainer.isValidGroupID).sorted().map { containersRoot + "/" + $0 }
            network = manifest.permissions?.contains("network") ?? false
            networkCounters = manifest.permissions?.contains("network-counters") ?? false
            mountSizes = manifest.permissions?.contains("mount-sizes") ?? false
            self.isolate = isolate
            let own = FilesystemGrant.resolveAll(manifest.filesystems ?? [], environment: environment, protected: protected + [containersRoot]).paths
            let mine = FilesystemGrant.resolveAll(granted, environment: environment, protected: protected + [containersRoot]).paths
            readOnly = own + mine.filter { !own.contains($0) }
            self.granted = readOnly.filter(mine.contains)
            busNames = sessionBus ? BusProxyRule.accepted(manifest.busNames ?? []) : []
            systemBusNames = systemBus ? BusProxyRule.accepted(manifest.systemBusNames ?? []) : []
            self.busDirectory = busNames.isEmpty && systemBusNames.isEmpty ? nil : busDirectory
            if self.busDirectory == nil { busNames = []; systemBusNames = [] }
        }

        /// The `--sandbox` argument: `network` or `no-network` (then ` isolate`,
        /// ` network-counters`, ` mount-sizes` when asked), then one read-write path per line,
        /// then `ro <path>` per read-only path and `grant <path>` per granted one, then
        /// `bus <folder>`, one `talk <name>` per bus name and one `system-talk <name>` per
        /// system-bus name (no JSON decoder in the worker's
        /// start-up: it is on every worker's cold path).
        public var argument: String {
            let flags = [isolate ? " isolate" : "", networkCounters ? " network-counters" : "", mountSizes ? " mount-sizes" : ""].joined()
            return ([(network ? "network" : "no-network") + flags] + readWrite
                + readOnly.map { (granted.contains($0) ? "grant " : "ro ") + $0 }
                + (busDirectory.map { ["bus " + $0] } ?? []) + busNames.map { "talk " + $0 }
                + systemBusNames.map { "system-talk " + $0 }).joined(separator: "\n")
        }
        public static func parse(_ argument: String) -> Spec? {
            let lines = argument.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let first = lines.first?.split(separator: " ").map(String.init), let mode = first.first,
                  mode == "network" || mode == "no-network",
                  first.dropFirst().allSatisfy({ ["isolate", "network-counters", "mount-sizes"].contains($0) }) else { return nil }
            var spec = Spec(network: mode == "network", isolate: first.contains("isolate"),
                            networkCounters: first.contains("network-counters"), mountSizes: first.contains("mount-sizes"))
            for line in lines.dropFirst() {
                if line.hasPrefix("/") { spec.readWrite.append(line) }
                else if line.hasPrefix("ro /") { spec.readOnly.append(String(line.dropFirst(3))) }
                else if line.hasPrefix("grant /") { let p = String(line.dropFirst(6)); spec.readOnly.append(p); spec.granted.append(p) }
                else if line.hasPrefix("bus /"), spec.busDirectory == nil { spec.busDirectory = String(line.dropFirst(4)) }
                else if line.hasPrefix("talk "), BusProxyRule.isValid(String(line.dropFirst(5))) { spec.busNames.append(String(line.dropFirst(5))) }
                else if line.hasPrefix("system-talk "), BusProxyRule.isValid(String(line.dropFirst(12))) {
                    spec.systemBusNames.append(String(line.dropFirst(12)))
                }
                else { return nil }
            }
            return spec
        }

        /// What the worker's `DBUS_SESSION_BUS_ADDRESS` is, inside its sandbox: the proxy's
        /// socket at the fixed path where the isolated sandbox binds its folder, or at its own
        /// path without isolation; nil without a proxy.
        public var busAddress: String? { busNames.isEmpty ? nil : socketAddress("bus") }
        /// The same for `DBUS_SYSTEM_BUS_ADDRESS`: the system-bus proxy's socket, `system`.
        public var systemBusAddress: String? { systemBusNames.isEmpty ? nil : socketAddress("system") }
        private func socketAddress(_ name: String) -> String? {
            busDirectory.map { "unix:path=" + (isolate ? WIDGETHOST_BUS_DIRECTORY : $0) + "/" + name }
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
    public static var unavailableReason: String? { missingProtection(subject: "workers run") }

    /// Which protection a process sandboxed here goes without on this kernel (or by
    /// `WIDGETHOST_SANDBOX`), as a sentence starting with `subject` ("workers run", "runs"); nil
    /// when it is fully sandboxed.
    public static func missingProtection(subject: String) -> String? {
        guard landlockABI != nil else {
            if disabled { return "\(subject) unsandboxed: WIDGETHOST_SANDBOX=off" }
            return "\(subject) unsandboxed: this kernel offers no Landlock (\(String(cString: strerror(-widgethost_landlock_abi()))))"
        }
        return isolationUnavailableReason.map { "\(subject) \($0)" }
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

    /// Which protection is missing, when Landlock is there but the rest is not (after "workers
    /// run" or "runs").
    static var isolationUnavailableReason: String? {
        if landlockOnly {
            return "without namespaces (a host /proc, $HOME, the network and the control socket are reachable) and seccomp: WIDGETHOST_SANDBOX=landlock"
        }
        switch isolationProbe {
        case 0: return nil
        case 1: return "without namespaces (a host /proc, $HOME, the network and the control socket are reachable) and seccomp: this kernel refuses user namespaces"
        case 2: return "without namespaces and seccomp (chmod, ptrace, raw sockets are allowed): this kernel offers no seccomp filter"
        default: return "without namespaces and seccomp: the probe failed (\(String(cString: strerror(-isolationProbe))))"
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

    /// The user's font folders (fontconfig's defaults under `$HOME` and the XDG folders; the
    /// XDG ones alone without `HOME`, as the render process has it: `RenderEnvironment`).
    static func fontDirectories(environment: [String: String]) -> [String] {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        func xdg(_ name: String, _ underHome: String) -> String? { environment[name] ?? home.map { $0 + underHome } }
        return [home.map { $0 + "/.fonts" }, xdg("XDG_DATA_HOME", "/.local/share").map { $0 + "/fonts" },
                xdg("XDG_CONFIG_HOME", "/.config").map { $0 + "/fontconfig" }, xdg("XDG_CACHE_HOME", "/.cache").map { $0 + "/fontconfig" }]
            .compactMap { $0 }.filter { $0.hasPrefix("/") }
    }

    /// The environment variables an isolated worker keeps (by name or prefix): locale, time
    /// zone, paths; not the agents' and sessions' sockets (`SSH_AUTH_SOCK`, `XDG_RUNTIME_DIR`,
    /// `DBUS_SESSION_BUS_ADDRESS`, `DISPLAY`…).
    static let keptEnvironment = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "LC_", "TZ", "WIDGETHOST_", "SWIFT_",
                                  "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_DIRS", "XDG_CONFIG_DIRS", "FONTCONFIG_"]

    static func keepsVariable(_ name: String) -> Bool { keeps(name, keptEnvironment) }

    /// The environment a worker is started with: `environment` cut to `keptEnvironment` (and
    /// `LD_LIBRARY_PATH`, which the worker's own loading may need). The cut is made at the spawn,
    /// not only inside the worker: `/proc/<pid>/environ` shows the environment a process was
    /// started with, which `unsetenv` never clears, and a plugin reads its own, so the session's
    /// sockets (`SSH_AUTH_SOCK`, `DBUS_SESSION_BUS_ADDRESS`, `XDG_RUNTIME_DIR`) must never reach it.
    /// Pure; any thread.
    public static func spawnEnvironment(_ environment: [String: String]) -> [String: String] {
        environment.filter { keepsVariable($0.key) || $0.key == "LD_LIBRARY_PATH" }
    }

    /// Whether `kept` names `name`, or a prefix of it (an entry ending in `_`).
    static func keeps(_ name: String, _ kept: [String]) -> Bool {
        kept.contains { $0.hasSuffix("_") ? name.hasPrefix($0) : name == $0 }
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
    /// Landlock, then the seccomp filter (`confine`).
    ///
    /// The isolated root also holds the worker's own executable at its path, as the render
    /// process's does: full Foundation's `Bundle.main` (which `URLSessionConfiguration` reaches
    /// through `HTTPCookieStorage`) traps when the executable's folder does not exist.
    public static func apply(_ spec: Spec, plugin: String, environment: [String: String]) throws(Failure) {
        let libraries = mappedLibraryDirectories()
        var own: [String] = []
        if let exe = realpath("/proc/self/exe", nil) { own.append(String(cString: exe)); free(exe) }
        let visible = spec.isolate ? [plugin] + own + isolatedReadOnly(environment: environment, network: spec.network) + libraries + spec.readOnly : nil
        // Read here, in the host's mount namespace, before the worker's own is made.
        let sizes = spec.mountSizes && visible != nil
            ? FileIO.read("/proc/self/mountinfo", limit: 4 << 20).map { MountSizes.binds(mountInfo: String(decoding: $0, as: UTF8.self), visible: visible!) } ?? []
            : []
        try confine(visible: visible,
                    readOnly: [plugin] + baseReadOnly(environment: environment) + libraries + spec.readOnly + (spec.busDirectory.map { [$0] } ?? []),
                    readWrite: ["/dev/null"] + spec.readWrite, network: spec.network,
                    environment: environment, keeping: keptEnvironment,
                    hostNetworkNamespace: spec.networkCounters, statOnly: sizes, busDirectory: spec.busDirectory)
        // After the cut of the environment: the proxies' addresses are the only buses it knows.
        if let address = spec.busAddress { setenv("DBUS_SESSION_BUS_ADDRESS", address, 1) } else { unsetenv("DBUS_SESSION_BUS_ADDRESS") }
        if let address = spec.systemBusAddress { setenv("DBUS_SYSTEM_BUS_ADDRESS", address, 1) } else { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
    }

    /// The sandbox of a worker or of the render process (`widgethost-render --serve`), applied to
    /// this process, for good; throws the reason when the kernel refuses. With `visible` (the
    /// process is isolated: call `enterProcessNamespaces` first): a mount namespace whose
    /// read-only root holds only `visible` (read-only) and `readWrite` (read-write, each at its
    /// own path), a fresh `/proc`, and a new, empty network namespace without `network` or
    /// `hostNetworkNamespace`; `statOnly` bound read-only and non-recursively, with no Landlock
    /// right (`MountSizes`); the environment cut to the variables named (or prefixed, ending in
    /// `_`) in `keeping`. Then Landlock: `readOnly` and `readWrite`, TCP only with `network`.
    /// Then, isolated, the seccomp filter (no socket without `network`; Unix sockets only with a
    /// `busDirectory`, bound read-only at `WIDGETHOST_BUS_DIRECTORY`). Single-threaded callers only.
    public static func confine(visible: [String]?, readOnly: [String], readWrite: [String], network: Bool,
                               environment: [String: String], keeping: [String],
                               hostNetworkNamespace: Bool = false, statOnly: [MountSizes.Bind] = [], busDirectory: String? = nil) throws(Failure) {
        if let visible {
            let rc = withCStringArray(visible) { ro in
                withCStringArray(readWrite) { rw in
                    withCStringArray(statOnly.map(\.source)) { sources in
                        withCStringArray(statOnly.map(\.destination)) { destinations in
                            widgethost_enter_filesystem_namespace(ro, visible.count, rw, readWrite.count, sources, destinations,
                                                                  statOnly.count, network || hostNetworkNamespace ? 1 : 0, busDirectory)
                        }
                    }
                }
            }
            guard rc == 0 else { throw Failure(description: "cannot make the sandbox's filesystem: \(String(cString: strerror(-rc)))") }
            for name in environment.keys where !keeps(name, keeping) { unsetenv(name) }
        }
        let rc = withCStringArray(readOnly) { ro in
            withCStringArray(readWrite) { rw in
                widgethost_landlock_apply(ro, readOnly.count, rw, readWrite.count, network ? 1 : 0)
            }
        }
        guard rc == 0 else { throw Failure(description: "cannot apply the sandbox: \(String(cString: strerror(-rc)))") }
        if visible != nil {
            let seccomp = widgethost_seccomp_apply((network ? WIDGETHOST_ALLOW_NETWORK : 0) | (busDirectory != nil ? WIDGETHOST_ALLOW_UNIX : 0))
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
