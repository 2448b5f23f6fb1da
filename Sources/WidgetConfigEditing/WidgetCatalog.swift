import FoundationEssentials
import OpenWidgetKit
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// One installed bundle: its `.so` file name in the plugin folder and what `describe` said.
public struct InstalledBundle: Equatable, Sendable {
    public var fileName: String
    public var manifest: BundleManifest
    public init(fileName: String, manifest: BundleManifest) { self.fileName = fileName; self.manifest = manifest }
}

/// The widgets that can be placed: every installed bundle's manifest. The edits ask it which
/// bundle declares a kind, which families and parameters that kind has. A protocol so the
/// edits are tested on manifests made in the test; `PluginFolderCatalog` asks the real plugins.
public protocol WidgetCatalog: AnyObject {
    /// The bundles, sorted by file name (the host's order: the first declaring a kind wins).
    func installedBundles() throws -> [InstalledBundle]
    /// Bundles that could not be described, each with why (shown by the gallery, never fatal).
    var problems: [String] { get }
}

extension WidgetCatalog {
    /// The bundle and descriptor the host would run `kind` from (`bundle`: a bundle id or file
    /// name, as a config entry's `bundle` key); an error naming the kinds there are when none.
    public func resolve(kind: String, bundle: String? = nil) throws -> (bundle: InstalledBundle, widget: WidgetDescriptor) {
        let all = try installedBundles()
        for b in all where bundle == nil || bundle == b.manifest.bundleId || bundle == b.fileName {
            if let w = b.manifest.widgets.first(where: { $0.kind == kind }) { return (b, w) }
        }
        let kinds = Array(Set(all.flatMap { $0.manifest.widgets.map(\.kind) })).sorted()
        let known = kinds.isEmpty ? "no bundle is installed" : "installed kinds: \(kinds.joined(separator: ", "))"
        throw ConfigEditError("no installed bundle\(bundle.map { " \"\($0)\"" } ?? "") declares kind \"\(kind)\" (\(known))")
    }
}

/// A fixed list of bundles (tests, and a process that already has the manifests).
public final class StaticWidgetCatalog: WidgetCatalog {
    private let bundles: [InstalledBundle]
    public let problems: [String]
    public init(_ bundles: [InstalledBundle], problems: [String] = []) {
        self.bundles = bundles.sorted { $0.fileName < $1.fileName }
        self.problems = problems
    }
    public func installedBundles() throws -> [InstalledBundle] { bundles }
}

/// The bundles of the config's plugin folder, each described by its own worker as
/// `widgethost validate` and the host's registry do: refused files (another user could write
/// them) and bundles whose `describe` fails are left out and listed in `problems`. Described
/// once, on first use, one worker at a time; with a `manifestCache`, a bundle whose file is as
/// it was when the host described it is taken from the cache, with no worker. Not thread-safe:
/// one caller at a time.
public final class PluginFolderCatalog: WidgetCatalog {
    private let config: HostConfig
    private let workerExecutable: String?
    private let manifestCache: BundleManifestCache?
    private var described: [InstalledBundle]?
    public private(set) var problems: [String] = []

    /// - Parameters:
    ///   - config: the configuration whose `paths.plugins`, limits and request deadline apply.
    ///   - workerExecutable: the `widgethost-worker` to run (default: `WorkerExecutable.path()`).
    ///   - manifestCache: manifests the host cached (`BundleManifestCache(hostConfig:)`); nil:
    ///     every bundle is described by a worker.
    public init(config: HostConfig, workerExecutable: String? = nil, manifestCache: BundleManifestCache? = nil) {
        self.config = config
        self.workerExecutable = workerExecutable
        self.manifestCache = manifestCache
    }

    public var pluginFolder: String { config.paths.plugins }

    public func installedBundles() throws -> [InstalledBundle] {
        if let described { return described }
        let folder = config.paths.plugins
        guard let files = PluginFile.scan(folder) else {
            throw ConfigEditError("cannot list the plugin folder \(folder): \(String(cString: strerror(errno)))")
        }
        var out: [InstalledBundle] = []
        if let p = PluginSecurity.problem(folder, what: "plugin folder") { problems.append(p) } else {
            for file in files.sorted(by: { $0.name < $1.name }) {
                if let p = PluginSecurity.problem(file.path, what: "plugin") { problems.append(p); continue }
                switch describe(file) {
                case .success(let m): out.append(InstalledBundle(fileName: file.name, manifest: m))
                case .failure(let e): problems.append("plugin \(file.path): \(e.description)")
                }
            }
        }
        described = out
        return out
    }

    private func describe(_ file: PluginFile) -> Result<BundleManifest, ConfigEditError> {
        if let cached = manifestCache?.manifest(for: file) { return .success(cached) }
        let arguments = config.limits(fileName: file.name, bundleId: nil).workerArguments
        do {
            let worker = try workerExecutable.map { try BlockingWorkerClient(pluginPath: file.path, executable: $0, arguments: arguments) }
                ?? BlockingWorkerClient(pluginPath: file.path, arguments: arguments)
            let r = try worker.request(WireRequest(op: .describe), timeout: config.defaults.requestTimeoutSeconds)
            if let problem = PluginRegistry.problem(with: r) { return .failure(ConfigEditError(problem)) }
            return .success(r.manifest!)
        } catch {
            return .failure(ConfigEditError("\(error)"))
        }
    }
}
