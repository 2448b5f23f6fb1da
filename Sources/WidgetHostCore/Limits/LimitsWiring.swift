import FoundationEssentials

/// Connects the limits layer to a host's scheduler, registry and supervisor (kept out of
/// WidgetHost.swift so the host stays small).
enum LimitsWiring {
    static func connect(host: WidgetHost) {
        let enforcer = host.enforcer, registry = host.registry
        host.scheduler.limits = enforcer
        enforcer.bundleIds = { [weak registry] name in registry?.bundles[name]?.bundleId }
        host.supervisor.threshold = { [weak enforcer] b in
            enforcer?.config.limits(fileName: b.name, bundleId: b.bundleId).quarantineAfterFailures ?? 5
        }
        registry.workerArguments = { [weak enforcer, weak registry] file in
            guard let enforcer else { return [] }
            // The bundle id is not known before `describe`; per-file settings apply from the start.
            let l = enforcer.config.limits(fileName: file.name, bundleId: registry?.bundles[file.name]?.bundleId)
            return l.workerArguments
        }
    }

    /// At start: the last good timeline of every instance whose plugin file is still there is
    /// on screen at once, before any worker has answered (DESIGN §8).
    static func showSavedTimelines(host: WidgetHost) {
        for (spec, entries) in host.enforcer.store.saved(pluginDirectory: host.config.paths.plugins) {
            host.scheduler.preload(spec, entries: entries)
        }
    }
}

extension Limits {
    /// The `widgethost worker` options that hold a worker to these limits.
    public var workerArguments: [String] {
        ["--memory-mb", "\(workerMemoryMB)", "--max-response-bytes", "\(maxResponseBytes)", "--view-deadline-ms", "\(viewRenderMilliseconds)"]
    }
}
