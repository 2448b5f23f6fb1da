import FoundationEssentials

extension TimelineScheduler {
    /// Marks the instances matching `filter` stale with `reason` (their entries stay on screen,
    /// with `stale: true` and the reason in `error`) until their next successful reload clears
    /// it — e.g. while a container they read is missing. Loop thread only.
    public func markStale(_ reason: String, where filter: (InstanceSpec) -> Bool) {
        for inst in instances.values where filter(inst.spec) && inst.lastError != reason {
            inst.lastError = reason
            inst.shownIndex = nil  // shown again, now stale
        }
        evaluate()
    }
}
