import FoundationEssentials
import Logging
import OpenWidgetKit

/// The scheduler's `TimelineLimits`: reload budget (with its persisted ledger), size limits on
/// timelines and durable last good timelines, each per bundle from the config in force.
/// Loop thread only.
public final class LimitsEnforcer: TimelineLimits {
    public var config: HostConfig
    /// `widgethost run --no-budget`: reloads are never deferred (charges are still not recorded).
    public var budgetEnabled: Bool
    public let ledger: ReloadLedger
    public let store: TimelineStore
    /// Which widget, if any, the previous host stopped while drawing (`DrawingJournal`).
    public let drawing: DrawingJournal
    /// Bundle file name → bundle id, for `bundles.<bundle id>` settings.
    public var bundleIds: (String) -> String? = { _ in nil }
    /// Why `spec` cannot be brought up to date now (a container it reads is missing), or nil:
    /// a timeline that arrives meanwhile is refused with that reason, so it cannot clear the
    /// widget's stale mark (`WidgetHost.containerPresence`).
    public var unavailable: (InstanceSpec) -> String? = { _ in nil }

    public init(config: HostConfig, budgetEnabled: Bool, persistent: Bool, logger: Logger) {
        self.config = config
        self.budgetEnabled = budgetEnabled
        let state = config.paths.state
        if persistent { try? FileIO.makeDirectories(state, mode: 0o700) }
        ledger = ReloadLedger(path: persistent ? state + "/reload-ledger.json" : nil, logger: logger)
        store = TimelineStore(directory: persistent ? state + "/timelines" : nil, logger: logger)
        drawing = DrawingJournal(directory: persistent ? state : nil, logger: logger)
    }

    public func limits(_ spec: InstanceSpec) -> Limits {
        config.limits(fileName: spec.bundleName, bundleId: bundleIds(spec.bundleName))
    }

    public func admitReload(_ spec: InstanceSpec, now: Date) -> Date? {
        guard budgetEnabled else { return nil }
        return ledger.charge(spec.id, budget: limits(spec).reloadBudget, now: now)
    }

    /// Budgeted reloads `spec` has left in the rolling 24 h.
    public func budgetLeft(_ spec: InstanceSpec, now: Date) -> Int {
        ledger.remaining(spec.id, budget: limits(spec).reloadBudget, now: now)
    }

    public func pastTimelineReloadSeconds(_ spec: InstanceSpec) -> Double { limits(spec).pastTimelineReloadSeconds }

    public func violation(in response: WireResponse, for spec: InstanceSpec) -> String? {
        unavailable(spec) ?? Self.violation(in: response, limits: limits(spec))
    }

    public static func violation(in response: WireResponse, limits l: Limits) -> String? {
        guard let entries = response.entries else { return nil }
        if entries.count > l.maxEntries {
            return "timeline rejected: \(entries.count) entries (limit maxEntries \(l.maxEntries))"
        }
        // Each entry read in place, not copied (a copy retains its view's boxes; every answer
        // of a reload round is checked, the clock's 60 entries among them).
        guard let (i, nodes, depth) = ViewNode.firstOversized(in: entries, maxNodes: l.maxTreeNodes, maxDepth: l.maxTreeDepth) else { return nil }
        if depth > l.maxTreeDepth { return "timeline rejected: entry \(i) has a view tree \(depth) deep (limit maxTreeDepth \(l.maxTreeDepth))" }
        return "timeline rejected: entry \(i) has \(nodes) view nodes (limit maxTreeNodes \(l.maxTreeNodes))"
    }

    public func accepted(entries: [WireEntry], policy: WirePolicy?, for spec: InstanceSpec) {
        store.save(entries: entries, policy: policy, for: spec)
    }

    public func restoredEntries(for spec: InstanceSpec) -> [WireEntry]? { store.load(for: spec) }
}
