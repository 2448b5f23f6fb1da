import FoundationEssentials
import OpenWidgetKit

extension WidgetHost {
    /// Keeps `busWatches` to the declarations of the loaded bundles the configuration places
    /// (`BusWatch.watches`) and tells the daemon when they change. Only while a widget of the
    /// bundle is placed: an unplaced bundle costs no bus connection (W1; the Batteries bundle,
    /// installed by default, declares system-bus signals). Loop thread only.
    func updateBusWatches() {
        var watches: [String: [BusWatch]] = [:]
        for b in registry.bundles.values where places(bundle: b.name, b.manifest) {
            let w = BusWatch.watches(for: b.manifest)
            if !w.isEmpty { watches[b.name] = w }
        }
        for (name, t) in busThrottles where watches[name] == nil { t.close(); busThrottles[name] = nil }
        guard watches != busWatches else { return }
        busWatches = watches
        onBusWatchesChanged(watches)
    }

    /// A signal that `bundle` declared arrived on the session bus (`what` names it): its widgets
    /// reload as for a container change — the first of a burst at once and budgeted, the rest of
    /// the burst coalesced into one free reload at its end (`BurstThrottle`). Loop thread only.
    public func busSignalArrived(bundle: String, what: String) {
        guard busWatches[bundle] != nil else { return }
        if busThrottles[bundle] == nil {
            busThrottles[bundle] = BurstThrottle(loop: loop, window: Double(config.defaults.containerCoalesceMs) / 1000) { [weak self] leading in
                self?.scheduler.reload(reason: leading ? "bus signal \(what)" : "bus signal \(what) (end of the burst, free)",
                                       budgeted: leading) { $0.bundleName == bundle }
            }
        }
        busThrottles[bundle]?.signal()
    }
}
