import FoundationEssentials
import Logging
import WidgetHostCore
import WidgetHostUV
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost run` wired together: one libuv loop on the calling thread, the core `WidgetHost`
/// on it, and the platform side — watches on the plugin folder, on `config.json` (through its
/// directory, so an editor's rename is seen) and on every container directory tree; SIGHUP
/// (config + plugin rescan), SIGTERM/SIGINT (clean shutdown).
///
/// Threading: a nonisolated class whose methods all run on the loop thread (DESIGN §10: loop
/// callbacks are never written in a @MainActor context).
final class DaemonRuntime {
    private let loop = UVLoop()
    private let hostLoop: UVHostLoop
    private let launcher: UVWorkerLauncher
    private let source: ConfigSource
    private let logger: Logger
    private let host: WidgetHost
    private var signals: [UVSignal] = []
    private var pluginWatcher: UVFileWatcher?
    private var watchedPluginDir: String?
    /// The output directory `.widgethost.pid` was written to.
    private var presenceDirectory: String?
    private var configWatcher: UVFileWatcher?
    private var configSettle: UVTimer?
    private var containerWatchers: [String: DirectoryTreeWatcher] = [:]
    /// The session-bus connection for the bundles' declared signals, while some bundle has one.
    private var busSignals: BusSignalWatch?
    private var busSignalsFailed = false
    private var systemBusSignals: BusSignalWatch?
    private var systemBusSignalsFailed = false
    private var shuttingDown = false
    private var shutdownForced = false
    private var control: DaemonControl?
    private let i3bar: I3BarSink?
    private let systemdNotifier = SystemdNotifier(environment: ProcessEnvironment.current())
    private var systemd: SystemdService?
    /// `picture.signal`: waybar's `image` modules told when a picture changed.
    private let barSignal: BarRefreshSignal

    init(source: ConfigSource, config: HostConfig, stdout: RunCommand.StdoutFormat, sortByRelevance: Bool = false,
         budget: Bool = true, glyphs: GlyphMap = .unicode, logger: Logger) {
        ignoreSIGPIPE()
        unblockAllSignals()
        self.source = source
        self.logger = logger
        hostLoop = UVHostLoop(loop: loop)
        // The worker executable found at start, held open: an upgrade that replaces it under
        // this daemon cannot mix versions (`WorkerExecutable`).
        let workerExecutable: String
        switch WorkerExecutable.pinned() {
        case .success(let pinned): workerExecutable = pinned
        case .failure(let f):
            logger.error("\(f.description): no plugin can run")
            workerExecutable = WorkerExecutable.path()
        }
        launcher = UVWorkerLauncher(loop: loop, executable: workerExecutable, argv0: WorkerExecutable.path(),
                                    containersRoot: config.paths.containers, logger: logger)
        var extra: [any OutputSink] = []
        if stdout == .jsonl { extra.append(JSONLinesSink { data in StandardOutput.write(data) }) }
        i3bar = stdout == .i3bar ? I3BarSink(sortByRelevance: sortByRelevance) { StandardOutput.write(Data($0)) } : nil
        if let i3bar { extra.append(i3bar) }
        host = WidgetHost(config: config, loop: hostLoop, launcher: launcher, renderer: StandardEntryRenderer(glyphs: glyphs, locale: .currentTime),
                          extraSinks: extra,
                          pictureLauncher: UVPictureRenderLauncher(loop: loop, executable: PreviewPictures.renderExecutable(), logger: logger),
                          budget: budget, logger: logger)
        barSignal = BarRefreshSignal(loop: hostLoop)
        host.pictures?.onChanged = { [barSignal] _, settings in barSignal.pictureChanged(settings) }
    }

    /// Runs until SIGTERM/SIGINT; returns the exit status.
    func run() -> Int32 {
        // First, so a SIGTERM that arrives while the host starts stops it cleanly (libuv holds
        // the signal until the loop runs) instead of killing it with the socket left behind.
        signals.append(UVSignal(loop: loop, signal: SIGHUP) { [weak self] _ in self?.hangup() })
        for s in [SIGTERM, SIGINT] {
            signals.append(UVSignal(loop: loop, signal: s) { [weak self] n in self?.shutdown(signal: n) })
        }
        host.onContainerDirectoriesChanged = { [weak self] dirs in self?.watchContainers(dirs) }
        host.onBusWatchesChanged = { [weak self] watches in self?.watchBus(watches) }
        i3bar?.start()
        control = DaemonControl(loop: loop, host: host, workerPIDs: { [launcher] in launcher.livePIDs }, logger: logger)
        control?.listen(path: ControlSocketPath.resolve(host.config.paths, environment: ProcessEnvironment.current()))
        if i3bar != nil { control?.readClicks() }
        publishPresence()
        host.configFile = source.path == HostPaths.defaultConfigFile(source.environment) ? nil : source.path
        // A worker at rest: the answer it gave was decoded; its transient memory goes back
        // (`ProcessMemory`). The host's code is not paged out: that drops it from the page cache,
        // and the next reload, container write or click would read it back from the disk.
        host.registry.onWorkerRested = { _ in
            ProcessMemory.trimHeap()
        }
        // The plugin folder's watch before the host's first scan of it (in `start`): a bundle
        // dropped in between would be in neither, and missed until the folder changed again (a
        // fresh-clone CI run saw it: a test's plugin, installed as the host started, never loaded).
        watchPlugins()
        host.start()
        watchConfig()
        // The signals are handled (installed first of all): READY=1 means SIGHUP and SIGTERM are understood.
        systemd = SystemdService(loop: loop, host: host, notifier: systemdNotifier, logger: logger)
        systemd?.start()
        logger.notice("widgethost running (pid \(getpid()), config \(source.path ?? "built-in defaults"))")
        loop.run()
        // After the shutdown guard stopped it, handles are still active: closing the loop would
        // run it again, for ever (a pipe held open by a process outside the host's reach).
        if !shutdownForced { loop.close() }
        return 0
    }

    /// Tells readers of `out/` which process writes it (`HostPresence`); moved with `paths.out`.
    private func publishPresence() {
        let out = host.config.paths.out
        guard out != presenceDirectory else { return }
        if let old = presenceDirectory { HostPresence.withdraw(from: old) }
        presenceDirectory = out
        do {
            try FileIO.makeDirectories(out)
            try HostPresence.publish(in: out)
        } catch { logger.warning("cannot write \(out)/\(HostPresence.fileName): \(error)") }
    }

    private func watchPlugins() {
        let dir = host.config.paths.plugins
        guard dir != watchedPluginDir || pluginWatcher == nil else { return }  // retried until the watch holds
        pluginWatcher?.close()
        watchedPluginDir = dir
        pluginWatcher = UVFileWatcher(loop: loop, path: dir) { [weak self] _, _, _ in self?.host.pluginFolderChanged() }
        if pluginWatcher == nil { logger.error("cannot watch the plugin folder \(dir)") }
    }

    private func watchConfig() {
        guard let dir = source.directory, let name = source.fileName else { return }
        configSettle = UVTimer(loop: loop) { [weak self] in self?.reloadConfig(reason: "config.json changed") }
        configWatcher = UVFileWatcher(loop: loop, path: dir) { [weak self] changed, _, _ in
            guard changed == nil || changed == name else { return }
            self?.configSettle?.start(milliseconds: 100)
        }
        if configWatcher == nil { logger.error("cannot watch \(dir) for config changes") }
    }

    /// Connects to the session bus, and to the system bus, for the bundles' signals on first
    /// need (once each: a failure is logged once), follows their watches, and lets go of a bus
    /// when no bundle has one on it.
    private func watchBus(_ watches: [String: [BusWatch]]) {
        func on(system: Bool) -> [String: [BusWatch]] { watches.mapValues { $0.filter { $0.system == system } }.filter { !$0.value.isEmpty } }
        let environment = ProcessEnvironment.current()
        watchBus(on(system: false), &busSignals, &busSignalsFailed, address: environment["DBUS_SESSION_BUS_ADDRESS"], name: "session bus")
        // No system bus: the host said so once already, for the bundles' proxies (`BusFolders`).
        let system = BusProxyRule.systemBusAddress(environment)
        watchBus(on(system: true), &systemBusSignals, &systemBusSignalsFailed,
                 address: BusProxyRule.systemBusMissing(system) == nil ? system : nil, name: "system bus")
    }

    private func watchBus(_ watches: [String: [BusWatch]], _ watch: inout BusSignalWatch?, _ failed: inout Bool, address: String?, name: String) {
        if watches.isEmpty { watch?.close(); watch = nil; return }
        if watch == nil && !failed {
            watch = BusSignalWatch(loop: loop, address: address, busName: name, logger: logger) { [weak self] bundle, what in
                self?.host.busSignalArrived(bundle: bundle, what: what)
            }
            failed = watch == nil
        }
        watch?.update(watches)
    }

    private func watchContainers(_ dirs: [String: String]) {
        for (group, w) in containerWatchers where dirs[group] != w.root {
            host.attachContainerSource(group: group, nil)
            w.close(); containerWatchers[group] = nil
        }
        for (group, dir) in dirs where containerWatchers[group] == nil {
            // Temp files are reported too: the host ignores them as changes, but inside a burst's
            // window one lets it hold the watch (BurstThrottle.noteActivity).
            // A folder or file a bundle reads (`fs:` keys) may be a single file; a container may not.
            guard let w = DirectoryTreeWatcher(loop: loop, root: dir, fileRoot: host.isReadPathKey(group),
                                               onRootPresence: { [weak self] in self?.host.containerPresence(group: group, present: $0) },
                                               onOverflow: { [logger] in logger.warning("container \(group): the kernel's event queue overflowed (fs.inotify.max_queued_events), events were lost: watching the folder afresh and reloading its widgets") },
                                               onRootReplaced: { [weak self] in self?.host.readFileReplaced(key: group) },
                                               onChange: { [weak self] path in self?.host.containerChanged(group: group, name: path) }) else {
                logger.error("cannot watch container \(group) at \(dir): inotify_init1: \(String(cString: strerror(errno))) (fs.inotify.max_user_instances reached?); its widgets reload only on schedule")
                continue
            }
            containerWatchers[group] = w
            host.attachContainerSource(group: group, w)
            logger.debug("watching container \(group) at \(dir)")
        }
    }

    private func hangup() {
        logger.notice("SIGHUP: reloading the configuration and rescanning plugins")
        systemd?.reloading()
        reloadConfig(reason: "SIGHUP")
        host.rescanPlugins()
        systemd?.reloaded()
    }

    private func reloadConfig(reason: String) {
        guard !shuttingDown else { return }
        switch source.load() {
        case .failure(let e):
            logger.error("configuration rejected (\(reason)), the previous one stays in force: \(e)")
        case .success(let c):
            launcher.containersRoot = c.paths.containers
            host.apply(c)
            publishPresence()
            watchPlugins()
        }
    }

    private func shutdown(signal: Int32) {
        guard !shuttingDown else { return }
        shuttingDown = true
        logger.notice("signal \(signal): shutting down")
        systemd?.stopping(); systemd = nil
        host.shutdown()
        barSignal.close()
        if let out = presenceDirectory { HostPresence.withdraw(from: out) }
        control?.close(); control = nil
        pluginWatcher?.close(); pluginWatcher = nil
        configWatcher?.close(); configWatcher = nil
        configSettle?.close(); configSettle = nil
        for w in containerWatchers.values { w.close() }
        containerWatchers = [:]
        for s in signals { s.close() }
        signals = []
        // Workers exit on EOF (or are killed after 1 s); should anything linger, stop anyway.
        let guardTimer = UVTimer(loop: loop) { [weak self] in
            guard let self else { return }
            self.logger.warning("shutdown: stopping with handles still active: \(self.loop.activeHandleNames().joined(separator: ", "))")
            self.shutdownForced = true
            self.loop.stop()
        }
        guardTimer.start(milliseconds: 3000)
        guardTimer.unref()
    }
}

/// Blocking writes to fd 1 (`--stdout jsonl`); a closed stdout (EPIPE) is ignored.
enum StandardOutput {
    static func write(_ data: Data) {
        data.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = Glibc.write(1, raw.baseAddress! + off, raw.count - off)
                if n < 0 { if errno == EINTR { continue }; return }
                off += n
            }
        }
    }
}
