import FoundationEssentials
import OpenWidgetKit

/// The limits one bundle's widgets are held to (DESIGN §6, docs/limits.md): `defaults.limits` in
/// config.json, overridden key by key per bundle in `bundles.<bundle id or .so name>.limits`.
/// A value type; pure.
public struct Limits: Equatable, Sendable {
    /// Budgeted reloads per widget instance over a rolling 24 h (WidgetKit: 40–70 a day).
    public var reloadBudget: Int = 60
    /// Shortest wait before reloading a timeline that was already over when it arrived
    /// (`.atEnd` whose last entry is past, `.after(date)` with a past date). WidgetKit: ~5 min.
    public var pastTimelineReloadSeconds: Double = 300
    /// Most entries one timeline may carry; a longer one is rejected.
    public var maxEntries: Int = 1000
    /// Most view-tree nodes in one entry.
    public var maxTreeNodes: Int = 10_000
    /// Deepest view-tree nesting in one entry.
    public var maxTreeDepth: Int = 64
    /// Largest response frame from a worker, in bytes (the whole timeline, all trees).
    public var maxResponseBytes: Int = 8 << 20
    /// Data cap (RLIMIT_DATA: heap and private writable mappings) of a worker, in MiB; 0 = none.
    public var workerMemoryMB: Int = 128
    /// Render-time limit of one view evaluation in the worker, in milliseconds; 0 = none.
    /// A body still running then ends the worker with a line naming this limit.
    public var viewRenderMilliseconds: Int = 1000
    /// Failed calls in a row after which the bundle is quarantined until its `.so` changes.
    public var quarantineAfterFailures: Int = 5
    public init() {}

    /// The keys of a `limits` object, for the parser and the docs.
    public static let keys: Set<String> = ["reloadBudget", "pastTimelineReloadSeconds", "maxEntries", "maxTreeNodes",
                                           "maxTreeDepth", "maxResponseBytes", "workerMemoryMB", "quarantineAfterFailures",
                                           "viewRenderMilliseconds"]
}

/// Settings for one bundle (`bundles.<key>` in config.json).
public struct BundleSettings: Equatable, Sendable {
    /// The keys given in `bundles.<key>.limits` (the rest come from `defaults.limits`).
    public var limits: [String: Double] = [:]
    /// `bundles.<key>.filesystems`: folders the person grants the bundle's worker, read-only
    /// (`FilesystemGrant` syntax: `"~/Work/calendar:ro"`).
    public var filesystems: [String] = []
    public init(limits: [String: Double] = [:], filesystems: [String] = []) { self.limits = limits; self.filesystems = filesystems }
}

extension Limits {
    /// These limits with `overrides` (key → value, keys from `Limits.keys`) applied.
    public func applying(_ overrides: [String: Double]) -> Limits {
        var l = self
        for (k, v) in overrides {
            switch k {
            case "reloadBudget": l.reloadBudget = Int(v)
            case "pastTimelineReloadSeconds": l.pastTimelineReloadSeconds = v
            case "maxEntries": l.maxEntries = Int(v)
            case "maxTreeNodes": l.maxTreeNodes = Int(v)
            case "maxTreeDepth": l.maxTreeDepth = Int(v)
            case "maxResponseBytes": l.maxResponseBytes = Int(v)
            case "workerMemoryMB": l.workerMemoryMB = Int(v)
            case "quarantineAfterFailures": l.quarantineAfterFailures = Int(v)
            case "viewRenderMilliseconds": l.viewRenderMilliseconds = Int(v)
            default: break
            }
        }
        return l
    }

    /// Parses a `limits` object at `path` into key → value, checking keys, types and ranges.
    /// With `problems`, every bad key and value is added to it and the good ones are returned.
    static func parseOverrides(_ v: JSONValue, at path: String, problems: ConfigProblems? = nil) throws(ConfigError) -> [String: Double] {
        let o = try ConfigParser.object(v, at: path, keys: keys, problems: problems)
        var out: [String: Double] = [:]
        for (k, value) in o.sorted(by: { $0.key < $1.key }) {
            let range: (Double, Double) = switch k {
            case "reloadBudget": (1, 100_000)
            case "pastTimelineReloadSeconds": (0, 86_400)
            case "maxEntries": (1, 1_000_000)
            case "maxTreeNodes": (1, 10_000_000)
            case "maxTreeDepth": (1, 10_000)
            case "maxResponseBytes": (1024, Double(Framing.defaultMaxFrame))  // the host reads no larger frame
            case "workerMemoryMB": (0, 1_048_576)
            case "viewRenderMilliseconds": (0, 600_000)
            default: (1, 1000) // quarantineAfterFailures
            }
            do { out[k] = try ConfigParser.number(value, at: "\(path).\(k)", min: range.0, max: range.1) } catch {
                guard let problems else { throw error }
                problems.add(error)
            }
        }
        return out
    }

    /// Parses config.json's top-level `bundles` object.
    static func parseBundles(_ v: JSONValue, problems: ConfigProblems? = nil) throws(ConfigError) -> [String: BundleSettings] {
        guard case .object(let o) = v else { throw ConfigError(path: "bundles", reason: "expected an object, found \(ConfigParser.typeName(v))") }
        var out: [String: BundleSettings] = [:]
        for (name, item) in o.sorted(by: { $0.key < $1.key }) {
            let at = "bundles.\(name)"
            do {
                let b = try ConfigParser.object(item, at: at, keys: ["limits", "filesystems", "comment"], problems: problems)
                var s = BundleSettings()
                if let l = b["limits"] { s.limits = try parseOverrides(l, at: "\(at).limits", problems: problems) }
                if let f = b["filesystems"] { s.filesystems = try parseGrants(f, at: "\(at).filesystems") }
                out[name] = s
            } catch {
                guard let problems else { throw error }
                problems.add(error)
            }
        }
        return out
    }

    /// `bundles.<key>.filesystems`: strings in `FilesystemGrant`'s syntax (checked here; where
    /// each lands depends on the worker's `$HOME` and XDG folders).
    static func parseGrants(_ v: JSONValue, at path: String) throws(ConfigError) -> [String] {
        let items = try ConfigParser.array(v, at: path)
        var grants: [String] = []
        for i in items.indices {
            let grant = try ConfigParser.string(items[i], at: "\(path)[\(i)]")
            if case .failure(let r) = FilesystemGrant.resolve(grant, environment: ["HOME": "/home/u"]) {
                throw ConfigError(path: "\(path)[\(i)]", reason: r.description)
            }
            grants.append(grant)
        }
        return grants
    }
}

extension HostConfig {
    /// The limits of the bundle loaded from `fileName` with id `bundleId`: `defaults.limits`, then
    /// `bundles.<bundle id>`, then `bundles.<file name>` (the more specific wins).
    public func limits(fileName: String, bundleId: String?) -> Limits {
        var l = defaults.limits
        if let id = bundleId, let s = bundles[id] { l = l.applying(s.limits) }
        if let s = bundles[fileName] { l = l.applying(s.limits) }
        return l
    }

    /// The folders the person granted the bundle from `fileName` with id `bundleId`
    /// (`bundles.<id>.filesystems` and `bundles.<file name>.filesystems`).
    public func grantedFilesystems(fileName: String, bundleId: String?) -> [String] {
        (bundleId.flatMap { bundles[$0]?.filesystems } ?? []) + (bundles[fileName]?.filesystems ?? [])
    }

    /// The host's own folders (and its control socket, when configured; the default one is in
    /// `$XDG_RUNTIME_DIR`) that no grant may be, hold or lie in (`FilesystemGrant`): a worker
    /// must not read the state, the out files, the plugins or reach the socket through one.
    public var protectedFromGrants: [String] {
        [paths.state, paths.out, paths.plugins, paths.containers] + (paths.socket.map { [$0] } ?? [])
    }

    /// The sandbox spec of the bundle from `fileName` with `manifest`: its containers, network,
    /// and the folders it declares and the person granted, resolved in `environment`.
    public func sandboxSpec(fileName: String, manifest: BundleManifest, environment: [String: String], isolate: Bool,
                            busDirectory: String? = nil, sessionBus: Bool = true, systemBus: Bool = true) -> WorkerSandbox.Spec {
        WorkerSandbox.Spec(manifest: manifest, containersRoot: paths.containers, isolate: isolate,
                           granted: grantedFilesystems(fileName: fileName, bundleId: manifest.bundleId),
                           environment: environment, protected: protectedFromGrants, busDirectory: busDirectory,
                           sessionBus: sessionBus, systemBus: systemBus)
    }
}
