import FoundationEssentials
import Logging
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// Connects the limits layer to a host's scheduler, registry and supervisor (kept out of
/// WidgetHost.swift so the host stays small).
enum LimitsWiring {
    static func connect(host: WidgetHost) {
        let enforcer = host.enforcer, registry = host.registry
        host.scheduler.limits = enforcer
        host.scheduler.drawGuard = enforcer.drawing
        enforcer.bundleIds = { [weak registry] name in registry?.bundles[name]?.bundleId }
        enforcer.unavailable = { [weak host] spec in host?.unavailableReason(spec) }
        host.supervisor.threshold = { [weak enforcer] b in
            enforcer?.config.limits(fileName: b.name, bundleId: b.bundleId).quarantineAfterFailures ?? 5
        }
        let busFolders = BusFolders(logger: host.logger)
        registry.workerArguments = { [weak enforcer, weak registry] bundle in
            guard let enforcer else { return [] }
            // The bundle id is not known before `describe`; per-file settings apply from the start.
            let l = enforcer.config.limits(fileName: bundle.name, bundleId: registry?.bundles[bundle.name]?.bundleId)
            var args = l.workerArguments
            if WorkerSandbox.landlockABI != nil {
                let bus = busFolders.make(for: bundle.name, bundle.manifest, state: enforcer.config.paths.state)
                args += ["--sandbox", enforcer.config.sandboxSpec(fileName: bundle.name, manifest: bundle.manifest, environment: ProcessEnvironment.current(),
                                                                   isolate: WorkerSandbox.isolationAvailable, busDirectory: bus?.folder,
                                                                   sessionBus: bus?.session ?? false, systemBus: bus?.system ?? false).argument]
            }
            return args
        }
        if let reason = WorkerSandbox.unavailableReason { host.logger.warning("\(reason)") }
    }

    /// At start: the last good timeline of every instance whose plugin file is still there is
    /// on screen at once, before any worker has answered (DESIGN §8) — except the one the
    /// previous host stopped while drawing, which is set aside (`DrawingJournal`).
    static func showSavedTimelines(host: WidgetHost) {
        if let crashed = host.enforcer.drawing.interrupted {
            host.enforcer.store.setAside(id: crashed.id, reason: "the host stopped while drawing it")
        }
        host.scheduler.preload(host.enforcer.store.saved(pluginDirectory: host.config.paths.plugins).map { (spec: $0.0, entries: $0.1) })
    }
}

extension Limits {
    /// The `widgethost worker` options that hold a worker to these limits.
    public var workerArguments: [String] {
        ["--memory-mb", "\(workerMemoryMB)", "--max-response-bytes", "\(maxResponseBytes)", "--view-deadline-ms", "\(viewRenderMilliseconds)"]
    }
}

/// The folders where workers' bus proxies listen (`<state>/bus/<n>`, 0700, one per worker
/// start; `BusProxyProcess` removes its own), made for a bundle that declares valid bus names
/// when the host has that bus (the session bus's `DBUS_SESSION_BUS_ADDRESS`; the system bus,
/// `BusProxyRule.systemBusAddress`, whose socket is there); without it, a line in the log, once
/// per bus, and no proxy for it (the worker then has no such bus at all). Loop thread only.
final class BusFolders {
    private let logger: Logger
    private var count = 0
    private var toldNoBus = false, toldNoSystemBus = false
    private var told: Set<String> = []
    init(logger: Logger) { self.logger = logger }

    /// The folder, and which buses the worker gets proxies for; nil when none.
    func make(for name: String, _ manifest: BundleManifest, state: String) -> (folder: String, session: Bool, system: Bool)? {
        let declared = manifest.busNames ?? [], declaredSystem = manifest.systemBusNames ?? []
        guard !declared.isEmpty || !declaredSystem.isEmpty else { return nil }
        if let problem = BusProxyRule.problem(declared) ?? BusProxyRule.problem(declaredSystem).map({ "system bus: " + $0 }),
           told.insert(name).inserted { logger.warning("\(name): \(problem)") }
        let environment = ProcessEnvironment.current()
        var session = !BusProxyRule.accepted(declared).isEmpty
        var system = !BusProxyRule.accepted(declaredSystem).isEmpty
        if session, environment["DBUS_SESSION_BUS_ADDRESS"]?.isEmpty ?? true {
            if !toldNoBus { toldNoBus = true; logger.warning("no session bus (DBUS_SESSION_BUS_ADDRESS is not set): \(name) and other bundles that declare bus names get none") }
            session = false
        }
        if system, let missing = BusProxyRule.systemBusMissing(BusProxyRule.systemBusAddress(environment)) {
            if !toldNoSystemBus { toldNoSystemBus = true; logger.warning("\(missing): \(name) and other bundles that declare system bus names get none") }
            system = false
        }
        guard session || system else { return nil }
        count += 1
        let folder = state + "/bus/\(getpid())-\(count)"
        do {
            try FileIO.makeDirectories(state + "/bus", mode: 0o700)
            try FileIO.makeDirectories(folder, mode: 0o700)
        } catch {
            logger.error("\(name): cannot make its bus folder: \(error)"); return nil
        }
        guard folder.utf8.count + 7 < 108 else {
            logger.error("\(name): its bus sockets' path \(folder)/system is longer than a Unix socket's 107 bytes: no bus"); return nil
        }
        return (folder, session, system)
    }
}
