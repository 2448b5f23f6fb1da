import FoundationEssentials
import OpenWidgetKit

/// What `widgethost status` shows (DESIGN §9): per bundle its worker state and widgets, per
/// widget instance its schedule, last reload and its reason, last error, timings, the entry on
/// screen and its controls — a `WidgetCenter.currentConfigurations` listing. Value type.
public struct HostStatus: Codable, Equatable, Sendable {
    public struct Control: Codable, Equatable, Sendable {
        /// `action.id`, the `click --target` address.
        public var id: String
        public var title: String?
        public var intent: String
        /// `button` or `toggle`.
        public var kind: String
        public var isOn: Bool?
    }

    public struct Widget: Codable, Equatable, Sendable {
        public var id: String
        public var kind: String
        public var family: String
        public var bundle: String
        public var parameters: [String: JSONValue]
        public var text: String?
        public var relevance: Double?
        public var entryDate: Date?
        public var entries: Int
        public var nextReload: Date?
        public var nextReloadReason: String?
        public var lastReload: Date?
        public var lastReloadReason: String?
        /// Seconds the last timeline request took to answer.
        public var lastReloadSeconds: Double?
        public var reloading: Bool
        public var timelineRequests: Int
        public var consecutiveFailures: Int
        public var lastError: String?
        public var url: String?
        public var controls: [Control]
        /// Set while the reload budget holds the widget's reloads back: when it allows one again.
        public var budgetExhaustedUntil: Date? = nil
    }

    public struct Bundle: Codable, Equatable, Sendable {
        public var name: String
        public var bundleId: String
        /// `running` or `idle` (no worker process now; one starts on demand).
        public var worker: String
        public var kinds: [String]
        public var appGroups: [String]
        /// What the bundle's manifest declares it reads (`reads(_:)`); absent when nothing.
        public var reads: [String]? = nil

        /// What a bundle declares it reads, one item each: `container <group>` per app group,
        /// `network`, `network-counters`, `mount-sizes` (the permissions it declares),
        /// `files <path>` per read-only path of its `filesystems` (as declared; the person's
        /// grants are in config.json), `bus <name>` per session-bus name its proxy lets it talk to,
        /// `system bus <name>` per system-bus name.
        public static func reads(_ m: BundleManifest) -> [String] {
            let permissions = m.permissions ?? []
            return m.appGroups.map { "container " + $0 }
                + ["network", "network-counters", "mount-sizes"].filter(permissions.contains)
                + (m.filesystems ?? []).map { "files " + $0 }
                + BusProxyRule.accepted(m.busNames ?? []).map { "bus " + $0 }
                + BusProxyRule.accepted(m.systemBusNames ?? []).map { "system bus " + $0 }
        }
    }

    public struct Rejected: Codable, Equatable, Sendable {
        public var name: String
        public var reason: String
    }

    /// The `png` / `svg` outputs' render process (absent while no widget has had a picture).
    public struct Pictures: Codable, Equatable, Sendable {
        /// `running` or `stopped` (it is started again on the next picture).
        public var renderProcess: String
        /// Times it was started, pictures asked for, pictures that failed.
        public var starts: Int
        public var requests: Int
        public var failures: Int
        public var lastFailure: String?
        public init(renderProcess: String, starts: Int, requests: Int, failures: Int, lastFailure: String? = nil) {
            self.renderProcess = renderProcess; self.starts = starts; self.requests = requests
            self.failures = failures; self.lastFailure = lastFailure
        }
    }

    public var pid: Int32?
    public var pictures: Pictures?
    /// Host-wide problems a user must know about (e.g. reload budget charges that cannot be
    /// recorded); absent when there are none.
    public var warnings: [String]?
    public var bundles: [Bundle]
    public var rejected: [Rejected]
    public var widgets: [Widget]
    /// The plugin folder the host scans (`paths.plugins`), so an empty one can be pointed at.
    public var pluginDirectory: String?
    /// Kinds of loaded bundles that no configured widget places; absent when there are none.
    public var unplaced: [UnplacedKind]?
    /// The config file the host runs with when it is not the default one (the `--config` of the
    /// commands `status` suggests).
    public var configFile: String?

    public init(pid: Int32? = nil, bundles: [Bundle], rejected: [Rejected], widgets: [Widget], pluginDirectory: String? = nil) {
        self.pid = pid; self.bundles = bundles; self.rejected = rejected; self.widgets = widgets
        self.pluginDirectory = pluginDirectory
    }
}

extension WidgetHost {
    /// The status of every bundle and widget instance now.
    public func status(pid: Int32? = nil) -> HostStatus {
        let bundles = registry.bundles.values.sorted { $0.name < $1.name }.map { b in
            HostStatus.Bundle(name: b.name, bundleId: b.bundleId, worker: b.isWorkerRunning ? "running" : (b.isAsleep ? "asleep" : "idle"),
                              kinds: b.manifest.widgets.map(\.kind), appGroups: b.manifest.appGroups,
                              reads: HostStatus.Bundle.reads(b.manifest).nilIfEmpty)
        }
        let rejected = registry.rejected.keys.sorted().map { HostStatus.Rejected(name: $0, reason: registry.rejected[$0]!.reason) }
        let widgets = scheduler.instances.values.sorted { $0.id < $1.id }.map { inst -> HostStatus.Widget in
            let entry = inst.currentEntry
            let out = publisher.current(inst.id)
            // A widget with no text output publishes nothing: its text is rendered now.
            let rendered = out == nil ? scheduler.currentText(inst, now: loop.now) : nil
            return HostStatus.Widget(
                id: inst.id, kind: inst.spec.kind, family: inst.spec.family.rawValue, bundle: inst.spec.bundleName,
                parameters: inst.spec.parameters, text: out?.text ?? rendered?.text, relevance: entry?.relevance?.score, entryDate: entry?.date,
                entries: inst.entries.count, nextReload: inst.nextReload,
                nextReloadReason: inst.nextReload == nil ? nil : inst.nextReloadReason,
                lastReload: inst.lastRequest, lastReloadReason: inst.lastReloadReason, lastReloadSeconds: inst.lastReloadSeconds,
                reloading: inst.inFlight, timelineRequests: inst.requestCount, consecutiveFailures: inst.consecutiveFailures,
                lastError: inst.lastError, url: out?.url ?? rendered?.url,
                controls: entry.map { InteractionTargets.controls(in: $0.view) } ?? [],
                budgetExhaustedUntil: inst.budgetBlockedUntil)
        }
        var status = HostStatus(pid: pid, bundles: bundles, rejected: rejected, widgets: widgets, pluginDirectory: config.paths.plugins)
        status.unplaced = unplacedKinds.isEmpty ? nil : unplacedKinds
        status.configFile = configFile
        var warnings: [String] = []
        if let e = enforcer.ledger.saveError { warnings.append("reload budget not recorded (a restart forgets today's charges): \(e)") }
        if let reason = WorkerSandbox.unavailableReason { warnings.append(reason) }
        status.warnings = warnings.isEmpty ? nil : warnings
        if let p = pictures, p.launchCount > 0 {
            status.pictures = HostStatus.Pictures(renderProcess: p.isRunning ? "running" : "stopped", starts: p.launchCount,
                                                  requests: p.requestCount, failures: p.failureCount, lastFailure: p.lastFailure)
        }
        return status
    }
}

extension Array {
    /// nil when empty (an optional field left out of the JSON).
    var nilIfEmpty: [Element]? { isEmpty ? nil : self }
}
