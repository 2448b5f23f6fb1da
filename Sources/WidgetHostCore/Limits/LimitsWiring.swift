import FoundationEssentials

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
        registry.workerArguments = { [weak enforcer, weak registry] bundle in
            guard let enforcer else { return [] }
            // The bundle id is not known before `describe`; per-file settings apply from the start.
            let l = enforcer.config.limits(fileName: bundle.name, bundleId: registry?.bundles[bundle.name]?.bundleId)
            var args = l.workerArguments
            if WorkerSandbox.landlockABI != nil {
                args += ["--sandbox", enforcer.config.sandboxSpec(fileName: bundle.name, manifest: bundle.manifest, environment: ProcessEnvironment.current(),
                                                                   isolate: WorkerSandbox.isolationAvailable).argument]
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
