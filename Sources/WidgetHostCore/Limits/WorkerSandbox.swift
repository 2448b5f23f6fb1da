import CSandbox
import FoundationEssentials
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// The Landlock sandbox of a worker (docs/limits.md "Sandbox"; WidgetKit gives every extension
/// one). The host decides what a bundle's worker may touch from its manifest and passes it as
/// `worker --sandbox <json>`; the worker applies it before it loads the plugin, so the plugin's
/// constructors already run inside, and it holds for everything the plugin starts.
///
/// A sandboxed worker may read (and map) its own `.so`, the system's libraries and programs
/// (`/usr`, `/lib*`, `/bin`, `/sbin`, `/opt`, every library directory mapped into the worker),
/// `/etc` (time zone, fontconfig, ld.so), `/proc` and `/sys` (system widgets read them), the
/// user's font folders, `/dev/null`, `/dev/zero`, `/dev/random`, `/dev/urandom`; read and write
/// only the containers of its declared app groups; nothing else — the rest of `$HOME`, the host's
/// state and outputs, `/tmp` included. TCP connect and bind are refused unless the manifest
/// declares `"network"`; signals to processes outside the sandbox and abstract Unix sockets are
/// refused (Landlock ABI 6+); `no_new_privs` is set. On a kernel without Landlock workers run
/// unsandboxed, with a warning in the log and in `status`. Pure values plus the two calls.
public enum WorkerSandbox {
    /// What one worker may use beyond the base: containers to read and write, network or not.
    public struct Spec: Equatable, Sendable {
        public var readWrite: [String]
        public var network: Bool
        public init(readWrite: [String] = [], network: Bool = false) { self.readWrite = readWrite; self.network = network }

        /// The spec for a bundle with `manifest` (the placeholder of a bundle not yet described
        /// gets nothing: its `describe` runs with the base only).
        public init(manifest: BundleManifest, containersRoot: String) {
            readWrite = manifest.appGroups.filter(AppGroupContainer.isValidGroupID).sorted().map { containersRoot + "/" + $0 }
            network = manifest.permissions?.contains("network") ?? false
        }

        /// The `--sandbox` argument: `network` or `no-network`, then one read-write path per line
        /// (no JSON decoder in the worker's start-up: it is on every worker's cold path).
        public var argument: String { ([network ? "network" : "no-network"] + readWrite).joined(separator: "\n") }
        public static func parse(_ argument: String) -> Spec? {
            let lines = argument.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let first = lines.first, first == "network" || first == "no-network",
                  lines.dropFirst().allSatisfy({ $0.hasPrefix("/") }) else { return nil }
            return Spec(readWrite: Array(lines.dropFirst()), network: first == "network")
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

    /// Why workers run unsandboxed, or nil when they are sandboxed.
    public static var unavailableReason: String? {
        guard landlockABI == nil else { return nil }
        if disabled { return "workers run unsandboxed: WIDGETHOST_SANDBOX=off" }
        return "workers run unsandboxed: this kernel offers no Landlock (\(String(cString: strerror(-widgethost_landlock_abi()))))"
    }

    /// Read-only paths every worker gets, besides its plugin and the library directories mapped
    /// into it.
    public static func baseReadOnly(environment: [String: String]) -> [String] {
        var paths = ["/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/opt", "/etc", "/proc", "/sys",
                     "/dev/zero", "/dev/random", "/dev/urandom"]
        if let home = environment["HOME"], home.hasPrefix("/") {
            let data = environment["XDG_DATA_HOME"] ?? home + "/.local/share"
            let config = environment["XDG_CONFIG_HOME"] ?? home + "/.config"
            let cache = environment["XDG_CACHE_HOME"] ?? home + "/.cache"
            paths += [home + "/.fonts", data + "/fonts", config + "/fontconfig", cache + "/fontconfig"]
        }
        return paths
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

    /// Restricts this process (the worker, before it loads `plugin`) to `spec`; throws the
    /// reason when the kernel refuses.
    public static func apply(_ spec: Spec, plugin: String, environment: [String: String]) throws(Failure) {
        let readOnly = [plugin] + baseReadOnly(environment: environment) + mappedLibraryDirectories()
        let readWrite = ["/dev/null"] + spec.readWrite
        let rc = withCStringArray(readOnly) { ro in
            withCStringArray(readWrite) { rw in
                widgethost_landlock_apply(ro, readOnly.count, rw, readWrite.count, spec.network ? 1 : 0)
            }
        }
        guard rc == 0 else { throw Failure(description: "cannot apply the sandbox: \(String(cString: strerror(-rc)))") }
    }

    public struct Failure: Error, CustomStringConvertible { public let description: String }

    private static func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let pointers = strings.map { UnsafePointer(strdup($0)) } + [nil]
        defer { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}
