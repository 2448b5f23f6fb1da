import FoundationEssentials
import Logging
import OpenWidgetKit

/// The daemon's policy, with no I/O loop of its own (DESIGN §2): plugins, instances, timelines,
/// containers and outputs, driven by events the platform layer feeds in (folder changes,
/// container changes, a new config, shutdown) and by the injected loop's timers.
///
/// Threading: loop thread only. The platform calls `start()` once, then the event methods, then
/// `shutdown()`; it watches the directories `containerDirectories` lists and updates its watches
/// when `onContainerDirectoriesChanged` fires.
public final class WidgetHost {
    public private(set) var config: HostConfig
    public let registry: PluginRegistry
    public let scheduler: TimelineScheduler
    public let publisher: OutputPublisher
    public let fileSink: FileOutputSink
    /// Reload budget, size limits and durable timelines (Limits/, State/).
    public let enforcer: LimitsEnforcer
    /// Crash recovery: quarantine after failures in a row (Supervisor/).
    public let supervisor: BundleSupervisor
    /// The `png` / `svg` outputs (nil: no render process can be started, e.g. in unit tests).
    public let pictures: PictureOutputs?
    /// The desktop view stream (`{"op":"watch"}` on the control socket).
    public let desktopView: DesktopViewStream
    /// A new configuration was applied: the next desktop refresh is a snapshot.
    var desktopSnapshotDue = false
    /// The desktop's colour scheme as the last `watch` that said one reported it (light until then).
    var desktopColorScheme: ColorScheme = .light
    let loop: any HostLoop
    let logger: Logger
    private var pluginDebouncer: Debouncer?
    private var pluginRescanRetry: (any HostTimer)?
    /// App groups whose container folder is gone, with the reason shown.
    private var missingContainers: [String: String] = [:]
    private var containerThrottles: [String: BurstThrottle] = [:]
    /// The platform's watch of each container, held by its throttle during a burst.
    private var containerSources: [String: any HoldableEventSource] = [:]
    /// `containers/<group>` directories of the app groups loaded bundles declare.
    public private(set) var containerDirectories: [String: String] = [:]
    public var onContainerDirectoriesChanged: ([String: String]) -> Void = { _ in }
    /// Called with every bundle's session-bus watches (`BusWatch`) when they change: the daemon
    /// keeps its bus connection's match rules to them and calls `busSignalArrived`.
    public var onBusWatchesChanged: ([String: [BusWatch]]) -> Void = { _ in }
    var busWatches: [String: [BusWatch]] = [:]
    var busThrottles: [String: BurstThrottle] = [:]
    private var lastUnresolved: [String] = []
    /// The kinds no configured widget places, as last logged (`UnplacedKind`).
    public private(set) var unplacedKinds: [UnplacedKind] = []
    /// The config file the host runs with when it is not the default one: the commands the host
    /// suggests (`widgethost add … --config FILE`) name it. nil: the default file, or none.
    public var configFile: String?
    /// Opens a URL a click asked for (the platform runs `defaults.opener`).
    public var openURL: (String) -> Void = { _ in }
    private lazy var security = PluginSecurity(logger: logger)
    private lazy var pluginStatus = PluginStatusOutputs(publisher: publisher, fileSink: fileSink)
    /// The control socket's `entities` request.
    lazy var entityOptions = EntityOptionsOnDemand(loop: loop, registry: registry, logger: logger)

    public init(config: HostConfig, loop: any HostLoop, launcher: any WorkerLauncher, renderer: any EntryRenderer = StandardEntryRenderer(),
                extraSinks: [any OutputSink] = [], pictureLauncher: (any PictureRenderLauncher)? = nil,
                snapshots: Bool = true, budget: Bool = true, logger: Logger) {
        self.config = config
        self.loop = loop
        self.logger = logger
        let fileSink = FileOutputSink(directory: config.paths.out, logger: logger)
        fileSink.attach(loop: loop)
        self.fileSink = fileSink
        let publisher = OutputPublisher(sinks: [fileSink] + extraSinks)
        self.publisher = publisher
        let registry = PluginRegistry(launcher: launcher, snapshotDirectory: snapshots ? config.paths.state + "/bundles" : nil,
                                      requestTimeout: config.defaults.requestTimeoutSeconds, logger: logger)
        self.registry = registry
        let enforcer = LimitsEnforcer(config: config, budgetEnabled: budget, persistent: snapshots, logger: logger)
        self.enforcer = enforcer
        enforcer.store.attach(loop: loop, saveDelay: config.defaults.timelineSaveDelaySeconds)
        let supervisor = BundleSupervisor(logger: logger)
        self.supervisor = supervisor
        self.scheduler = TimelineScheduler(loop: loop, renderer: renderer, publisher: publisher,
                                           settings: Self.schedulerSettings(config), logger: logger) { [weak registry, weak supervisor] spec, request, reply in
            guard let registry, let supervisor, let bundle = registry.bundles[spec.bundleName] else {
                reply(.failure(WorkerFailure("bundle \(spec.bundleName) is not loaded"))); return
            }
            supervisor.call(registry, bundle, request, reply: reply)
        }
        pictures = pictureLauncher.map { PictureOutputs(config: config, loop: loop, launcher: $0, logger: logger) }
        scheduler.pictures = pictures
        pictures?.onProblem = { [weak scheduler] id, reason in scheduler?.setPictureProblem(reason, for: id) }
        desktopView = DesktopViewStream(loop: loop, logger: logger)
        LimitsWiring.connect(host: self)
        connectDesktopView()
        registry.onEvent = { [weak self] event in self?.registryChanged(event) }
        registry.isNeeded = { [weak self] name, manifest in self?.places(bundle: name, manifest) ?? true }
        registry.mayRest = { [weak self] bundle in self.map { WorkerRest.mayRest(bundle, host: $0) } ?? false }
        registry.manifestCache = snapshots ? BundleManifestCache(hostConfig: config) : nil
        pluginDebouncer = Debouncer(loop: loop, delay: Double(config.defaults.pluginSettleMs) / 1000) { [weak self] in
            self?.rescanPlugins()
        }
    }

    static func schedulerSettings(_ c: HostConfig) -> TimelineScheduler.Settings {
        var s = TimelineScheduler.Settings()
        s.minReloadSeconds = c.defaults.minReloadSeconds
        s.retryMaxSeconds = c.defaults.retryMaxSeconds
        return s
    }

    /// Creates the directories and loads every plugin in the folder.
    public func start() {
        for dir in [config.paths.plugins, config.paths.out, config.paths.containers] {
            do { try FileIO.makeDirectories(dir, mode: dir == config.paths.containers ? 0o700 : 0o755) }
            catch { logger.error("\(error)") }
        }
        StatePermissions.apply(state: config.paths.state, out: config.paths.out, logger: logger)
        // The saved entries first: the bar shows them before the /proc scan (~5 µs of system
        // time per process on the machine) and before any worker starts; the scan still comes
        // before the first worker, whose command line it would otherwise match.
        LimitsWiring.showSavedTimelines(host: self)
        LeftoverWorkers.kill(bundles: config.paths.state + "/bundles", logger: logger)
        logger.info("plugins: \(config.paths.plugins); outputs: \(config.paths.out); containers: \(config.paths.containers)")
        rescanPlugins()
    }

    /// Something changed in the plugin folder: rescan once it has been quiet for `pluginSettleMs`.
    public func pluginFolderChanged() { pluginDebouncer?.signal() }

    /// Rescans the plugin folder now.
    public func rescanPlugins() {
        guard let scanned = PluginFile.scan(config.paths.plugins) else {
            logger.error("cannot list the plugin folder \(config.paths.plugins): \(FileIO.errnoText()); the plugins are kept as they are, rescanning in 1 s")
            pluginRescanRetry = pluginRescanRetry ?? loop.makeTimer { [weak self] in self?.rescanPlugins() }
            pluginRescanRetry?.schedule(after: 1)
            return
        }
        let files = security.admissible(scanned, directory: config.paths.plugins)
        pluginStatus.retain(fileNames: Set(files.map(\.name)))
        registry.reconcile(files)
    }

    /// Something changed under `containers/<group>/` (`name`: the entry that changed, when known):
    /// the first event reloads at once, a burst that follows is coalesced into one more reload
    /// per window (throttle). Writers' temp and lock files are ignored: their rename onto the
    /// real name is the event that matters, and reloading on the temp file would read the old data.
    ///
    /// A temp file's event is no change, but says a writer is at work: inside an open window it
    /// lets the throttle hold the container's watch until the window's end
    /// (`BurstThrottle.noteActivity()`), so the rest of the burst wakes nobody.
    public func containerChanged(group: String, name: String? = nil) {
        guard let throttle = containerThrottles[group] else { return }
        if let name, Self.isScratchFile(name) { throttle.noteActivity(); return }
        throttle.signal()
    }

    /// The platform's watch of `group`'s container (nil: none any more), which the container's
    /// throttle holds while a burst's window is open (`HoldableEventSource`).
    public func attachContainerSource(group: String, _ source: (any HoldableEventSource)?) {
        containerSources[group] = source
        containerThrottles[group]?.source = source
    }

    /// The container folder of `group` is gone (removed, moved away, replaced by a file) or back.
    /// Gone: logged, and the widgets of the bundles that declare the group are marked stale (a
    /// write meanwhile cannot reach them). Back: logged; the watcher reports the change that
    /// follows, which reloads them (and a good reload clears the mark). Their workers are
    /// restarted first: a sandbox rule names the folder that was there when it started.
    public func containerPresence(group: String, present: Bool) {
        let dir = containerDirectories[group] ?? group
        let using = registry.bundles.values.filter { uses($0, group) }
        if group.hasPrefix(Self.folderKeyPrefix) {
            // A declared or granted folder that is not there is no fault (no calendars yet); when
            // it comes, the workers restart so their sandbox binds it, and the change reloads them.
            let readers = using.map(\.name).sorted().joined(separator: ", ")
            if present { logger.notice("\(dir), which \(readers) may read, is there: watched") }
            else { logger.debug("\(dir), which \(readers) may read, is not there") }
            if present { for b in using { registry.stopWorker(of: b) } }
            return
        }
        guard !present else {
            missingContainers[group] = nil
            logger.notice("container \(group) is back at \(dir): watched again")
            for b in using { registry.stopWorker(of: b) }
            return
        }
        let reason = "container \(group) is missing (\(dir))"
        missingContainers[group] = reason
        let users = Set(using.map(\.name))
        logger.error("container \(group) at \(dir) is gone or not a folder: its widgets are stale until it is back")
        scheduler.markStale(reason) { users.contains($0.bundleName) }
    }

    /// Why `spec` cannot be brought up to date: a container its bundle declares is missing.
    func unavailableReason(_ spec: InstanceSpec) -> String? {
        guard !missingContainers.isEmpty, let groups = registry.bundles[spec.bundleName]?.manifest.appGroups else { return nil }
        return groups.lazy.compactMap { self.missingContainers[$0] }.first
    }

    /// Temp files (`x.tmp`, `.defaults.123.tmp`), hidden lock and swap files (`.defaults.lock`,
    /// `.x.swp`) and backups (`x~`). A `.tmp` file is written to be renamed: a reload on its
    /// events reads the old data and costs a second reload when the rename lands.
    public static func isScratchFile(_ name: String) -> Bool {
        let base = name.lastPathComponent
        if base.hasSuffix("~") || base.hasSuffix(".tmp") { return true }
        guard base.hasPrefix(".") else { return false }
        return base.hasSuffix(".lock") || base.hasSuffix(".swp") || base.hasSuffix(".swx")
    }

    /// Reload requests (`WidgetCenter.reloadTimelines(ofKind:)`, `reload` command); nil = all.
    /// `budgeted: false` for the one reload after an interaction (a click).
    public func reload(kind: String?, reason: String, budgeted: Bool = true) {
        scheduler.reload(reason: reason, budgeted: budgeted) { kind == nil || $0.kind == kind }
    }

    /// Applies a new, already validated config: paths, defaults and widgets take effect now.
    public func apply(_ new: HostConfig) {
        let old = config
        guard new != old else { logger.info("configuration unchanged"); return }
        config = new
        logger.notice("configuration applied")
        scheduler.settings = Self.schedulerSettings(new)
        enforcer.config = new
        enforcer.store.saveDelay = new.defaults.timelineSaveDelaySeconds
        registry.requestTimeout = new.defaults.requestTimeoutSeconds
        if new.paths.out != old.paths.out { fileSink.directory = new.paths.out }
        pictures?.apply(new)
        if new.defaults.pluginSettleMs != old.defaults.pluginSettleMs {
            pluginDebouncer?.close()
            pluginDebouncer = Debouncer(loop: loop, delay: Double(new.defaults.pluginSettleMs) / 1000) { [weak self] in self?.rescanPlugins() }
        }
        if new.defaults.containerCoalesceMs != old.defaults.containerCoalesceMs {
            for t in containerThrottles.values { t.close() }
            containerThrottles = [:]
        }
        if new.paths.containers != old.paths.containers {
            for t in containerThrottles.values { t.close() }
            containerThrottles = [:]
            try? FileIO.makeDirectories(new.paths.containers, mode: 0o700)
        }
        if new.paths.plugins != old.paths.plugins {
            rescanPlugins()  // not created here: a folder the config names must exist (ConfigSource)
        }
        desktopSnapshotDue = true  // the replan's refresh sends it
        replan(changedBundles: [], removedReason: "widget removed from the configuration")
    }

    /// Stops every worker and timer and saves the timelines still waiting. Output files are
    /// complete (every write is a rename).
    public func shutdown() {
        scheduler.close()
        pictures?.close()
        enforcer.store.close()
        pluginDebouncer?.close()
        pluginRescanRetry?.close(); pluginRescanRetry = nil
        for t in containerThrottles.values { t.close() }
        containerThrottles = [:]
        desktopView.close()
        entityOptions.close()
        registry.stopAll()
        fileSink.close()
        logger.notice("stopped")
    }

    private func registryChanged(_ event: RegistryEvent) {
        pluginStatus.handle(event)
        switch event {
        case .loaded(let b): replan(changedBundles: [b.name], removedReason: "widget no longer configured")
        case .replaced(_, let b): replan(changedBundles: [b.name], removedReason: "widget no longer declared by \(b.name)")
        case .removed(let b): replan(changedBundles: [b.name], removedReason: "plugin \(b.name) removed")
        case .rejected: if !registry.isValidating { replan(changedBundles: [], removedReason: "plugin could not be loaded") }
        }
    }

    func replan(changedBundles: Set<String>, removedReason: String) {
        let names = registry.bundles.keys.sorted()
        let plan = WidgetInstancePlanner.plan(config: config, bundles: names.map { registry.bundles[$0]!.manifest }, bundleNames: names,
                                              desktopColorScheme: desktopColorScheme)
        // While bundles are still being validated (at start) a kind may just not be loaded yet.
        if !registry.isValidating && plan.unresolved != lastUnresolved {
            for u in plan.unresolved where !lastUnresolved.contains(u) { logger.warning("\(u)") }
            lastUnresolved = plan.unresolved
        }
        if !registry.isValidating && plan.unplaced != unplacedKinds {
            for u in plan.unplaced where !unplacedKinds.contains(u) { logger.info("\(u.line(configFile: configFile))") }
            unplacedKinds = plan.unplaced
        }
        updateContainers()
        updateBusWatches()
        scheduler.keepPreloaded = registry.isValidating
        scheduler.setInstances(plan.instances, changedBundles: changedBundles, removedReason: removedReason)
        registry.retireUnneededWorkers()
        refreshDesktopView()
    }

    /// Whether the configuration places a kind of the bundle `name` with `manifest`: without a
    /// `widgets` list every kind is placed; with one, an entry of one of its kinds that names no
    /// bundle or names this one (by id or file name).
    func places(bundle name: String, _ manifest: BundleManifest) -> Bool {
        guard let widgets = config.widgets else { return true }
        return widgets.contains { w in
            manifest.widgets.contains { $0.kind == w.kind } && (w.bundle == nil || w.bundle == manifest.bundleId || w.bundle == name)
        }
    }

    /// The watch key of a folder outside the containers that a bundle reads (`FilesystemGrant`):
    /// such folders are watched and throttled as containers are, under `fs:<path>`.
    static let folderKeyPrefix = "fs:"

    /// The folders and files the bundle `b` reads besides its containers (declared or granted),
    /// resolved as its worker's sandbox has them; each is watched (a file through its folder).
    func readPaths(_ b: LoadedBundle) -> [String] {
        guard b.manifest.filesystems?.isEmpty == false || !config.grantedFilesystems(fileName: b.name, bundleId: b.manifest.bundleId).isEmpty else { return [] }
        return config.sandboxSpec(fileName: b.name, manifest: b.manifest, environment: ProcessEnvironment.current(), isolate: false).readOnly
    }

    /// Whether the watch key `key` names a folder or file a bundle reads (not a container).
    public func isReadPathKey(_ key: String) -> Bool { key.hasPrefix(Self.folderKeyPrefix) }

    /// A file a bundle reads (watch key `fs:<path>`) was replaced (renamed over, created anew)
    /// or removed: the workers that read it are stopped, as their sandbox holds the old file;
    /// the change the watcher reports next reloads them.
    public func readFileReplaced(key: String) {
        let using = registry.bundles.values.filter { uses($0, key) }
        logger.debug("\(key.dropFirst(Self.folderKeyPrefix.count)) was replaced: restarting the workers of \(using.map(\.name).sorted().joined(separator: ", "))")
        for b in using { registry.stopWorker(of: b) }
    }

    /// Whether bundle `b` reads what the watch key `key` names: an app group it declares, or a
    /// folder or file it declares or was granted.
    func uses(_ b: LoadedBundle, _ key: String) -> Bool {
        key.hasPrefix(Self.folderKeyPrefix) ? readPaths(b).contains(String(key.dropFirst(Self.folderKeyPrefix.count))) : b.manifest.appGroups.contains(key)
    }

    private func updateContainers() {
        var dirs: [String: String] = [:]
        for b in registry.bundles.values {
            for g in b.manifest.appGroups {
                guard AppGroupContainer.isValidGroupID(g) else {
                    logger.warning("\(b.name): ignoring invalid app group id \"\(g)\""); continue
                }
                dirs[g] = config.paths.containers + "/" + g
            }
            // Only while a widget of the bundle is placed: an unplaced bundle costs no watch (W1).
            if places(bundle: b.name, b.manifest) { for path in readPaths(b) { dirs[Self.folderKeyPrefix + path] = path } }
        }
        for (g, t) in containerThrottles where dirs[g] == nil { t.close(); containerThrottles[g] = nil }
        for (g, dir) in dirs where containerThrottles[g] == nil {
            if !g.hasPrefix(Self.folderKeyPrefix) {
                do { try FileIO.makeDirectories(dir, mode: 0o700) } catch { logger.error("\(error)") }
            }
            // One budgeted reload per burst: the trailing one only completes it (issue 15).
            containerThrottles[g] = BurstThrottle(loop: loop, window: Double(config.defaults.containerCoalesceMs) / 1000) { [weak self] leading in
                guard let self else { return }
                let users = Set(self.registry.bundles.values.filter { self.uses($0, g) }.map(\.name))
                self.scheduler.reload(reason: leading ? "container \(g) changed" : "container \(g) changed (end of the burst, free)",
                                      budgeted: leading) { users.contains($0.bundleName) }
            }
            containerThrottles[g]?.source = containerSources[g]
        }
        if dirs != containerDirectories {
            containerDirectories = dirs
            onContainerDirectoriesChanged(dirs)
        }
    }
}
