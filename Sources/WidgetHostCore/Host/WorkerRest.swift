import FoundationEssentials

/// When a bundle's worker may stop between calls (issue 26, "a bundle whose widgets need no call
/// for hours may sleep too"): the system clock asks for a timeline every 5 minutes and its
/// worker's three processes (worker, guardian, sandboxed child) held ~6 MB of PSS in between.
///
/// A worker rests when all of these hold: every widget of its bundle has its timeline (no
/// failure being retried, no request in flight or pending) and its next reload at least
/// `minimumRest` seconds away (or none planned); and the bundle declares no app group, since a
/// container write may ask for a reload at any moment and must be answered within W2's
/// latency, not after a worker's start (~20 ms of CPU, tens of ms of wall time). A click on a
/// rested widget's button, a `reload` command or the planned reload starts the worker again
/// (`PluginRegistry.call`). State a provider keeps in memory between reloads does not survive
/// a rest, as it does not survive iOS ending a widget extension.
///
/// Threading: loop thread only (reads the scheduler and the registry).
enum WorkerRest {
    /// The shortest wait for the next call worth a worker's restart: a restart costs ~20 ms of
    /// CPU, so resting for 2 minutes or more costs at most 0.17 ms per second.
    static let minimumRest: Double = 120

    static func mayRest(_ bundle: LoadedBundle, host: WidgetHost) -> Bool {
        guard bundle.manifest.appGroups.isEmpty else { return false }
        let widgets = host.scheduler.instances.values.filter { $0.spec.bundleName == bundle.name }
        guard !widgets.isEmpty else { return false }  // unplaced: `retireUnneededWorkers`' case
        let restUntil = host.loop.now.addingTimeInterval(minimumRest)
        return widgets.allSatisfy { w in
            !w.inFlight && w.pendingReason == nil && w.lastError == nil && !w.entries.isEmpty
                && (w.nextReload.map { $0 >= restUntil } ?? true)
        }
    }
}
