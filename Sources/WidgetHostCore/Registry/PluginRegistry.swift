import FoundationEssentials
import Logging
import OpenWidgetKit

/// One bundle the host serves: the `.so` it came from, the manifest its worker described, and
/// that worker (started again on demand after an exit). Loop thread only.
public final class LoadedBundle {
    /// The file in the plugin folder, as it was when validated.
    public let file: PluginFile
    /// What the worker loads: a private copy of `file` in the state directory, so a later copy
    /// over the original can neither crash the running worker nor take away the version it
    /// serves (or the same path when no snapshot directory is configured).
    public let runPath: String
    public internal(set) var manifest: BundleManifest
    var connection: (any WorkerConnection)?
    var workerGeneration = 0
    /// Requests sent to the worker and not answered yet.
    var callsInFlight = 0
    /// The worker was stopped because no call is due for a while (`PluginRegistry.mayRest`);
    /// the next call starts it again. Not a failure: the bundle still serves.
    public internal(set) var isAsleep = false
    /// Its serving worker was asked for its entity options (`refreshEntityOptions`).
    var entityOptionsAsked = false

    init(file: PluginFile, runPath: String, manifest: BundleManifest) {
        self.file = file; self.runPath = runPath; self.manifest = manifest
    }

    /// The file name, which is how logs and configs name a bundle (`HabitWidget.so`).
    public var name: String { file.name }
    public var bundleId: String { manifest.bundleId }
    public var isWorkerRunning: Bool { connection != nil }
    /// Its worker runs, or rests until the next call (`isAsleep`): the bundle is serving.
    public var isServing: Bool { connection != nil || isAsleep }
}

/// What changed in the registry. Delivered on the loop thread after the change took effect.
public enum RegistryEvent {
    case loaded(LoadedBundle)
    /// The new version answered `describe`; the old worker is already stopped.
    case replaced(old: LoadedBundle, new: LoadedBundle)
    case removed(LoadedBundle)
    /// A file could not be validated; `kept` is the version that goes on serving, if any.
    /// The file is not retried until it changes.
    case rejected(file: PluginFile, reason: String, kept: LoadedBundle?)
}

/// The set of bundles being served, kept in step with the plugin folder (DESIGN §7).
///
/// `reconcile` compares the folder with what is loaded: a new or changed file is validated by
/// `describe` in a *new* worker; only when that succeeds does it replace the old version (whose
/// worker is then stopped). A broken replacement leaves the old version serving. A removed file's
/// worker is stopped. Threading: loop thread only; events are delivered on it.
public final class PluginRegistry {
    public private(set) var bundles: [String: LoadedBundle] = [:]
    /// Files that failed validation, by name → fingerprint (not retried until the file changes)
    /// and the reason.
    public private(set) var rejected: [String: (fingerprint: String, reason: String)] = [:]
    private var validating: [String: String] = [:]
    private let launcher: any WorkerLauncher
    private let snapshotDirectory: String?
    let logger: Logger
    public var requestTimeout: Double
    public var onEvent: (RegistryEvent) -> Void = { _ in }
    /// Told when a bundle's worker started, exited or was stopped (`LoadedBundle.isWorkerRunning`).
    public var onWorkerChanged: (LoadedBundle) -> Void = { _ in }
    /// Extra worker arguments for a bundle file (its limits: memory cap, response size).
    public var workerArguments: (LoadedBundle) -> [String] = { _ in [] }
    /// Whether the bundle of a file name and manifest has a kind the configuration places: one
    /// that has none keeps no worker (`retireUnneededWorkers`) and, when its manifest is cached,
    /// is loaded without starting one at all.
    public var isNeeded: (_ fileName: String, _ manifest: BundleManifest) -> Bool = { _, _ in true }
    /// Whether a bundle's worker, its calls all answered, may stop until the next call (issue
    /// 26: a clock asks every 5 minutes; its worker's three processes are ~6 MB of PSS between).
    /// Asked on the loop thread after each answer, once the reply was handled.
    public var mayRest: (LoadedBundle) -> Bool = { _ in false }
    /// Told after a worker was stopped to rest: the burst of work is over (the platform gives
    /// back its memory then, `ProcessMemory`).
    public var onWorkerRested: (LoadedBundle) -> Void = { _ in }
    /// Manifests of bundles described before (nil: none kept, every bundle is described).
    public var manifestCache: BundleManifestCache?

    /// The copies a previous run left in `snapshotDirectory`: kept until the first `reconcile`
    /// has looked for its bundles there (a bundle whose file did not change runs from its copy
    /// again instead of being copied anew: 2–3 ms of CPU per 5 MB Swift bundle at every start,
    /// issue 16), then removed.
    private var previousSnapshots: Set<String> = []

    /// - Parameter snapshotDirectory: where private copies of bundles are kept (the previous
    ///   run's are reused for unchanged files and the rest removed at the first `reconcile`);
    ///   nil to run workers on the plugin files themselves (tests).
    public init(launcher: any WorkerLauncher, snapshotDirectory: String?, requestTimeout: Double = 10, logger: Logger) {
        self.launcher = launcher
        self.snapshotDirectory = snapshotDirectory
        self.requestTimeout = requestTimeout
        self.logger = logger
        if let dir = snapshotDirectory {
            try? FileIO.makeDirectories(dir, mode: 0o700)
            previousSnapshots = Set((FileIO.list(dir) ?? []).filter { $0.hasSuffix(".so") })
        }
    }

    /// The name of the private copy of `file`: the same for the same fingerprint in every run
    /// (FNV-1a of it; `hashValue` is seeded anew in each process).
    static func snapshotName(_ file: PluginFile) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in file.fingerprint.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        let hex = String(h, radix: 16)
        return "\(file.name.dropLast(3))-\(String(repeating: "0", count: 16 - hex.count))\(hex).so"
    }

    /// True while a file is being validated.
    public var isValidating: Bool { !validating.isEmpty }

    /// Brings the registry in line with `files` (the folder's current `.so` files).
    public func reconcile(_ files: [PluginFile]) {
        let byName = Dictionary(files.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for (name, bundle) in bundles where byName[name] == nil {
            bundles[name] = nil
            stopWorker(bundle)
            removeSnapshot(bundle)
            manifestCache?.remove(fileName: name)
            logger.info("plugin removed: \(name) (\(bundle.bundleId))")
            onEvent(.removed(bundle))
        }
        for name in validating.keys where byName[name] == nil { validating[name] = nil }
        for name in rejected.keys where byName[name] == nil { rejected[name] = nil }
        for file in files {
            if bundles[file.name]?.file.fingerprint == file.fingerprint { continue }
            if validating[file.name] == file.fingerprint { continue }
            if rejected[file.name]?.fingerprint == file.fingerprint { continue }
            validate(file)
        }
        if let dir = snapshotDirectory, !previousSnapshots.isEmpty {
            for name in previousSnapshots { FileIO.remove(dir + "/" + name) }
            previousSnapshots = []
        }
    }

    private func validate(_ file: PluginFile) {
        validating[file.name] = file.fingerprint
        var runPath = file.path
        if let dir = snapshotDirectory {
            let name = Self.snapshotName(file)
            runPath = dir + "/" + name
            // The previous run's copy of this very file (fingerprint: device, inode, size,
            // modification time), complete (written to a temp name and renamed): reused.
            let reusable = previousSnapshots.remove(name) != nil && FileIO.size(runPath).map { $0 == FileIO.size(file.path) } == true
            if !reusable {
                do { try FileIO.copy(file.path, to: runPath) } catch {
                    finishRejected(file, reason: "\(error)")
                    return
                }
            }
        }
        let candidate = LoadedBundle(file: file, runPath: runPath,
                                     manifest: BundleManifest(bundleId: "?", sdkVersion: "", abiVersion: 0, widgets: [], appGroups: []))
        // Described before, unchanged, and none of its kinds placed: loaded with no worker. One
        // starts when a kind is placed (the first timeline request), as after any worker exit.
        if let cached = manifestCache?.manifest(for: file), !isNeeded(file.name, cached) {
            validating[file.name] = nil
            candidate.manifest = cached
            logger.debug("\(file.name): none of its kinds is placed; loaded from its cached manifest, no worker started")
            install(candidate)
            return
        }
        // The describe runs under the settings of a bundle not yet described (the base
        // sandbox) in a child of the worker, which then serves under the manifest's
        // (`WorkerSettings`): one process start, not a second worker.
        guard let connection = startWorker(candidate, arguments: workerArguments(candidate) + ["--" + WorkerSettings.afterDescribeFlag]) else {
            removeSnapshot(candidate)
            return
        }
        connection.send(WireRequest(op: .describe), timeout: requestTimeout) { [weak self] result in
            guard let self else { return }
            guard self.validating[file.name] == file.fingerprint else {
                // Superseded by a newer file or removed while validating.
                self.stopWorker(candidate)
                self.removeSnapshot(candidate)
                return
            }
            self.validating[file.name] = nil
            switch result {
            case .failure(let f):
                self.stopWorker(candidate); self.removeSnapshot(candidate)
                self.finishRejected(file, reason: self.clean(f.description, candidate))
            case .success(let r):
                if let problem = Self.problem(with: r) {
                    self.stopWorker(candidate); self.removeSnapshot(candidate)
                    self.finishRejected(file, reason: problem)
                    return
                }
                candidate.manifest = r.manifest!
                self.manifestCache?.store(candidate.manifest, for: file)
                // A worker none of whose kinds is placed is retired just below: it gets no settings
                // of its own, so no bus proxy is started (nor a missing bus logged) for nothing.
                if self.isNeeded(file.name, candidate.manifest) {
                    candidate.connection?.sendSettings(self.workerArguments(candidate))
                }
                self.install(candidate)
                self.refreshEntityOptions(candidate)
                self.retireUnneededWorkers()
            }
        }
    }

    /// Why a `describe` answer is refused (failed, no manifest, another ABI, a kind twice), or nil.
    public static func problem(with r: WireResponse) -> String? {
        guard r.ok else { return "describe failed: \(r.error ?? "no reason given")" }
        guard let m = r.manifest else { return "describe returned no manifest" }
        guard m.abiVersion == 1 else { return "plugin ABI version \(m.abiVersion) (this host speaks 1)" }
        let kinds = m.widgets.map(\.kind)
        if Set(kinds).count != kinds.count { return "the manifest declares a widget kind twice" }
        return nil
    }

    private func install(_ bundle: LoadedBundle) {
        rejected[bundle.name] = nil
        let w = bundle.manifest.widgets.map(\.kind).joined(separator: ", ")
        if let old = bundles[bundle.name] {
            bundles[bundle.name] = bundle
            stopWorker(old)
            removeSnapshot(old)
            logger.notice("plugin replaced: \(bundle.name) (\(bundle.bundleId); widgets: \(w))")
            onEvent(.replaced(old: old, new: bundle))
        } else {
            bundles[bundle.name] = bundle
            logger.notice("plugin loaded: \(bundle.name) (\(bundle.bundleId); widgets: \(w))")
            onEvent(.loaded(bundle))
        }
    }

    private func finishRejected(_ file: PluginFile, reason: String) {
        validating[file.name] = nil
        rejected[file.name] = (file.fingerprint, reason)
        let kept = bundles[file.name]
        if kept != nil {
            logger.error("plugin replacement rejected, previous version keeps serving: \(file.name): \(reason)")
        } else {
            logger.error("plugin rejected: \(file.name): \(reason)")
        }
        onEvent(.rejected(file: file, reason: reason, kept: kept))
    }

    /// Worker errors name the snapshot; show the user the file they installed instead.
    private func clean(_ text: String, _ bundle: LoadedBundle) -> String {
        bundle.runPath == bundle.file.path ? text : text.replacing(bundle.runPath, with: bundle.file.path)
    }

    /// Sends a request to a bundle's worker, starting it if it is not running.
    public func call(_ bundle: LoadedBundle, _ request: WireRequest, reply: @escaping (Result<WireResponse, WorkerFailure>) -> Void) {
        let connection: any WorkerConnection
        if let c = bundle.connection { connection = c } else {
            guard let c = startWorker(bundle) else {
                reply(.failure(WorkerFailure("cannot start the worker of \(bundle.name)")))
                return
            }
            connection = c
        }
        bundle.callsInFlight += 1
        let generation = bundle.workerGeneration
        // A bundle loaded from its cached manifest and placed later: its first serving worker.
        defer { refreshEntityOptions(bundle) }
        connection.send(request, timeout: requestTimeout) { [weak self] result in
            guard let self else { return }
            if bundle.workerGeneration == generation { bundle.callsInFlight -= 1 }
            reply(result.mapError { WorkerFailure(self.clean($0.description, bundle)) })
            // After the reply: it may have sent the next request already.
            if bundle.workerGeneration == generation, bundle.callsInFlight == 0, bundle.connection != nil, self.mayRest(bundle) {
                self.logger.debug("\(bundle.name): no call due for a while; its worker rests until the next")
                self.stopWorker(bundle, asleep: true)
                self.onWorkerRested(bundle)
            }
        }
    }

    /// Stops the workers of bundles none of whose kinds is placed (`isNeeded`); each starts
    /// again on the first call after a configuration places one.
    public func retireUnneededWorkers() {
        for name in bundles.keys.sorted() {
            guard let b = bundles[name], b.isServing, !isNeeded(name, b.manifest) else { continue }
            logger.debug("\(name): none of its kinds is placed; its worker is stopped until one is")
            stopWorker(b)
        }
    }

    /// Stops every worker (shutdown). Bundles stay listed.
    public func stopAll() {
        for b in bundles.values { stopWorker(b) }
        validating.removeAll()
    }

    private func startWorker(_ bundle: LoadedBundle, arguments: [String]? = nil) -> (any WorkerConnection)? {
        bundle.workerGeneration += 1
        bundle.callsInFlight = 0
        let generation = bundle.workerGeneration
        let result = launcher.launch(pluginPath: bundle.runPath, arguments: arguments ?? workerArguments(bundle)) { [weak self, weak bundle] failure in
            guard let self, let bundle, bundle.workerGeneration == generation else { return }
            bundle.connection = nil
            self.logger.warning("worker exited: \(bundle.name): \(self.clean(failure.description, bundle))")
            self.onWorkerChanged(bundle)
        }
        switch result {
        case .success(let c):
            bundle.connection = c
            bundle.isAsleep = false
            onWorkerChanged(bundle)
            return c
        case .failure(let f):
            if validating[bundle.name] == bundle.file.fingerprint { finishRejected(bundle.file, reason: f.description) }
            else { logger.error("cannot start worker: \(bundle.name): \(f.description)") }
            return nil
        }
    }

    /// Stops a bundle's worker (quarantine); the next call starts a new one.
    public func stopWorker(of bundle: LoadedBundle) { stopWorker(bundle) }

    private func stopWorker(_ bundle: LoadedBundle, asleep: Bool = false) {
        bundle.workerGeneration += 1
        bundle.callsInFlight = 0
        let wasAsleep = bundle.isAsleep
        bundle.isAsleep = asleep
        guard let connection = bundle.connection else {
            if wasAsleep != asleep { onWorkerChanged(bundle) }
            return
        }
        connection.stop()
        bundle.connection = nil
        onWorkerChanged(bundle)
    }

    private func removeSnapshot(_ bundle: LoadedBundle) {
        if bundle.runPath != bundle.file.path { FileIO.remove(bundle.runPath) }
    }
}
