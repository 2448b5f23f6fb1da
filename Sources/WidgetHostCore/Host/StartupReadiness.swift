extension WidgetHost {
    /// True once the start-up work is done: every plugin found has been validated (loaded or
    /// rejected) and every widget instance has had its first timeline answered or failed, or is
    /// waiting for its reload budget — so its output is written. What `READY=1` waits for under
    /// systemd (`SystemdService`). Loop thread only.
    public var hasSettled: Bool {
        guard !registry.isValidating else { return false }
        return scheduler.instances.values.allSatisfy { inst in
            (inst.requestCount > 0 && !inst.inFlight) || inst.budgetBlockedUntil != nil
        }
    }
}
