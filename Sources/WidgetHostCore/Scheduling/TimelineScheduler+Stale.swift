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

    /// The picture of `id` is behind its entry for `reason` (nil: no longer): its text outputs
    /// show the entry stale with the reason until then. Loop thread only.
    public func setPictureProblem(_ reason: String?, for id: String) {
        guard let inst = instances[id], inst.pictureProblem != reason else { return }
        inst.pictureProblem = reason
        inst.shownIndex = nil  // shown again, with the mark or without
        evaluate()
    }
}
