import FoundationEssentials
import Logging
import OpenWidgetKit
import WidgetRendering

/// One widget instance's timeline state. Loop thread only.
public final class WidgetInstance {
    public let spec: InstanceSpec
    public var id: String { spec.id }
    /// The current timeline, ascending by date whoever assigns it (`entryIndex` searches it by
    /// halves).
    public internal(set) var entries: [WireEntry] = [] {
        didSet {
            if !TimelineScheduler.isAscending(entries) { entries.sort { $0.date < $1.date } }
        }
    }
    public internal(set) var policy: ReloadPolicy = .atEnd
    /// The earliest next reload; nil = only on request.
    public internal(set) var nextReload: Date?
    var nextReloadReason = "first load"
    /// Whether the reload at `nextReload` spends budget (policy reloads and deferred requests do).
    var nextReloadBudgeted = false
    public internal(set) var inFlight = false
    var pendingReason: String?
    var pendingBudgeted = true
    /// When set, budgeted reloads wait until this date (the budget is spent).
    public internal(set) var budgetBlockedUntil: Date?
    var lastRequest: Date?
    public internal(set) var consecutiveFailures = 0
    public internal(set) var lastError: String?
    /// Why the widget's picture is behind its entry (`PictureOutputs.onProblem`), nil when it
    /// is not: shown as stale like `lastError`, which it yields to.
    public internal(set) var pictureProblem: String?
    /// What the outputs show as the widget's error: the reload's, else the picture's.
    var shownError: String? { lastError ?? pictureProblem }
    /// Index of the entry on screen.
    public internal(set) var shownIndex: Int?
    var liveChange: Date?
    /// Shown from the saved timeline at start, before its bundle was loaded.
    var preloaded = false
    /// The policy of the timeline last accepted (nil also when none was given).
    var acceptedPolicy: WirePolicy?
    /// Timeline requests sent (for tests and status).
    public internal(set) var requestCount = 0
    /// Why the last timeline request was sent, and how long its answer took (status).
    public internal(set) var lastReloadReason: String?
    public internal(set) var lastReloadSeconds: Double?
    /// Whether the log has named the widget for lacking a `containerBackground` (once, not per reload).
    var reportedWithoutBackground = false

    init(spec: InstanceSpec) { self.spec = spec }

    /// The entry that should be on screen at `now`: the last one dated at or before it (the
    /// first when all are in the future).
    func entryIndex(at now: Date) -> Int? {
        guard !entries.isEmpty else { return nil }
        // The first entry dated after `now`, by halves: a clock's 300 entries were scanned
        // from the end on every tick (issue 16).
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].date <= now { lo = mid + 1 } else { hi = mid }
        }
        return max(lo - 1, 0)
    }
}

/// Runs the timelines of all widget instances (DESIGN §5).
///
/// - Requests a timeline per instance (first load, then as the policy says, or on request).
/// - Swaps entries at their dates with no plugin call.
/// - Keeps ONE wall-clock timer armed at the earliest instant anything is due (next entry, next
///   reload, next live-date tick), and nothing armed when nothing is due: no polling.
/// - Re-evaluates everything when the wall clock is set (forward or back) or after a resume.
/// - A failed reload keeps the last entries on screen marked `stale` with the `error`, and
///   retries with exponential backoff.
///
/// Threading: loop thread only. `fetch` must call its reply on the loop thread.
public final class TimelineScheduler {
    public typealias Fetch = (InstanceSpec, WireRequest, @escaping (Result<WireResponse, WorkerFailure>) -> Void) -> Void

    public struct Settings: Equatable, Sendable {
        public var minReloadSeconds: Double = 1
        public var retryBaseSeconds: Double = 5
        public var retryMaxSeconds: Double = 300
        public init() {}
    }

    public private(set) var instances: [String: WidgetInstance] = [:] { didSet { ordered = nil } }
    /// `instances` by id (the order every pass visits them in), sorted once per change of the set:
    /// a reload round evaluates once per answer.
    private var ordered: [WidgetInstance]?
    private var orderedInstances: [WidgetInstance] {
        if let o = ordered { return o }
        let o = instances.values.sorted { $0.id < $1.id }
        ordered = o
        return o
    }
    public var settings: Settings
    private let loop: any HostLoop
    private let renderer: any EntryRenderer
    private let publisher: OutputPublisher
    private let fetch: Fetch
    private let logger: Logger
    /// While true, instances shown from saved timelines survive a plan that lacks them (their
    /// bundle is still being validated at start).
    public var keepPreloaded = false
    /// Reload budget, size limits and durable timelines (nil: none, e.g. in unit tests).
    public weak var limits: (any TimelineLimits)?
    /// The `png` / `svg` outputs: shown each entry (and live-date tick) after the text outputs.
    public weak var pictures: PictureOutputs?
    /// Told each entry shown, after the outputs, with the very tree the pictures are given (the
    /// desktop view stream; live-date ticks show the same entry again).
    public var onShown: (WidgetInstance, WireEntry) -> Void = { _, _ in }
    /// Told around each in-process drawing; may refuse an instance (`DrawingJournal`).
    public weak var drawGuard: (any DrawingGuard)?
    private var timer: (any WallClockTimer)?
    private var closed = false
    private var evaluating = false
    private var evaluateAgain = false

    public init(loop: any HostLoop, renderer: any EntryRenderer, publisher: OutputPublisher,
                settings: Settings = Settings(), logger: Logger, fetch: @escaping Fetch) {
        self.loop = loop; self.renderer = renderer; self.publisher = publisher
        self.settings = settings; self.logger = logger; self.fetch = fetch
        self.timer = nil
        self.timer = loop.makeWallClockTimer(
            fire: { [weak self] in self?.evaluate() },
            clockChanged: { [weak self] in
                self?.logger.info("wall clock changed: re-evaluating every schedule")
                self?.evaluate()
            })
    }

    /// The date the wall-clock timer is armed for (nil: nothing due).
    public var armedDate: Date? { timer?.armedDate }

    /// Replaces the set of instances. New ones load; ones whose spec changed reload with
    /// `reason`; ones in `reloadAll` reload with "new plugin version"; vanished ones are
    /// published as removed.
    public func setInstances(_ specs: [InstanceSpec], changedBundles: Set<String> = [], removedReason: String = "widget removed") {
        let incoming = Dictionary(specs.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (id, inst) in instances where incoming[id] == nil {
            if inst.preloaded && keepPreloaded { continue }
            instances[id] = nil
            publishRemoved(inst, reason: removedReason)
        }
        for spec in specs {
            if let old = instances[spec.id] {
                if old.spec == spec && !changedBundles.contains(spec.bundleName) { continue }
                if old.spec.outputs != spec.outputs { publisher.outputsChanged(spec.id, to: spec.outputs) }
                let inst = WidgetInstance(spec: spec)
                inst.entries = old.entries
                instances[spec.id] = inst
                request(inst, reason: old.spec == spec ? "new plugin version" : "configuration changed")
            } else {
                let inst = WidgetInstance(spec: spec)
                inst.entries = limits?.restoredEntries(for: spec) ?? []
                inst.lastError = drawGuard?.notice(for: spec.id)
                instances[spec.id] = inst
                request(inst, reason: "first load")
            }
        }
        evaluate()
    }

    /// Shows saved timelines at start, before the instances' bundles have answered; each
    /// instance loads for real when a plan with its bundle arrives (`setInstances`). One
    /// evaluation for them all (one per timeline was quadratic in the number of widgets).
    public func preload(_ saved: [(spec: InstanceSpec, entries: [WireEntry])]) {
        for (spec, entries) in saved where instances[spec.id] == nil {
            let inst = WidgetInstance(spec: spec)
            inst.entries = entries
            inst.preloaded = true
            instances[spec.id] = inst
        }
        evaluate()
    }

    /// Asks for new timelines of the instances matching `filter` (coalesced with one in flight).
    /// `budgeted`: reload requests and container changes spend the reload budget; the one reload
    /// after an interaction does not (`ReloadReason.interaction`). Over budget, the request waits
    /// until the budget allows, coalesced with any other.
    public func reload(reason: String, budgeted: Bool = true, where filter: (InstanceSpec) -> Bool) {
        for inst in orderedInstances where filter(inst.spec) {
            if inst.inFlight {
                inst.pendingBudgeted = inst.pendingReason == nil ? budgeted : (inst.pendingBudgeted && budgeted)
                inst.pendingReason = reason
            } else { request(inst, reason: reason, budgeted: budgeted) }
        }
        evaluate()
    }

    /// `reload(reason:budgeted:where:)` with a typed reason.
    public func reload(_ reason: ReloadReason, where filter: (InstanceSpec) -> Bool) {
        reload(reason: reason.text, budgeted: reason.isBudgeted, where: filter)
    }

    /// Stops the timer at shutdown (which is NOT removal: nothing is published as removed).
    /// Answers still in flight (workers stopped at shutdown fail them) are then ignored, so a
    /// stop neither marks a widget stale in its output nor logs it.
    public func close() { timer?.close(); timer = nil; closed = true }

    private func publishRemoved(_ inst: WidgetInstance, reason: String) {
        publisher.publish(WidgetOutput(id: inst.id, text: "", class: ["removed"], kind: inst.spec.kind,
                                       family: inst.spec.family.rawValue, stale: true, error: reason, removed: true),
                          to: inst.spec.outputs)
        publisher.forget(inst.id)
        pictures?.remove(inst.id)
    }

    private func request(_ inst: WidgetInstance, reason: String, budgeted: Bool = false) {
        let now = loop.now
        if budgeted, let limits {
            if let until = limits.admitReload(inst.spec, now: now) {
                // Over budget: keep the last entry, mark it stale, reload when the budget allows.
                // Further requests land on the same date (coalesced).
                if inst.budgetBlockedUntil != until {
                    logger.notice("reload budget of \(inst.id) exhausted: \(reason) deferred until \(LocalTime.system.dayAndTime(until, now: now))")
                }
                inst.budgetBlockedUntil = until
                inst.nextReload = until
                inst.nextReloadReason = reason
                inst.nextReloadBudgeted = true
                inst.lastError = "reload budget exhausted until \(LocalTime.system.dayAndTime(until, now: now))"
                inst.shownIndex = nil
                return
            }
        }
        if budgeted && inst.budgetBlockedUntil != nil { logger.info("reload budget of \(inst.id) restored") }
        inst.budgetBlockedUntil = nil
        inst.inFlight = true
        inst.lastRequest = now
        inst.requestCount += 1
        inst.lastReloadReason = reason
        logger.debug("reload \(inst.id) (\(inst.spec.bundleName) \(inst.spec.kind) \(inst.spec.family)): \(reason)")
        let req = WireRequest(op: .timeline, kind: inst.spec.kind, family: inst.spec.family,
                              displaySize: inst.spec.family.nominalSize, configuration: inst.spec.parameters, isPreview: false,
                              colorScheme: inst.spec.colorScheme == .light ? nil : inst.spec.colorScheme,
                              renderingMode: inst.spec.renderingMode)
        fetch(inst.spec, req) { [weak self, weak inst] result in
            guard let self, let inst, !self.closed, self.instances[inst.id] === inst else { return }
            self.received(result, for: inst)
        }
    }

    private func received(_ result: Result<WireResponse, WorkerFailure>, for inst: WidgetInstance) {
        inst.inFlight = false
        let now = loop.now
        inst.lastReloadSeconds = inst.lastRequest.map { now.timeIntervalSince($0) }
        var failure: String?
        switch result {
        case .failure(let f): failure = f.description
        case .success(let r):
            if !r.ok { failure = "timeline failed: \(r.error ?? "no reason given")" }
            else if let problem = limits?.violation(in: r, for: inst.spec) { failure = problem }
            else if let entries = r.entries, !entries.isEmpty {
                // The same timeline again (a container change that touched another widget's
                // data, a clock answering within the same second) is neither saved nor drawn
                // again; only the next reload is planned.
                // `entries` sorts what it is given only when it is not ascending already (as
                // providers return them): an answer remembered by the connection
                // (`WireAnswerMemo`) then shares its storage with the entries accepted from it,
                // and comparing the two is one pointer comparison.
                let previous = inst.entries
                inst.entries = entries
                let unchanged = inst.lastError == nil && inst.entries == previous && r.policy == inst.acceptedPolicy
                inst.acceptedPolicy = r.policy
                inst.policy = ReloadPolicy(r.policy)
                inst.nextReload = inst.policy.nextReload(entries: inst.entries, requestedAt: inst.lastRequest ?? now, arrivedAt: now,
                                                         minInterval: settings.minReloadSeconds,
                                                         pastTimelineInterval: limits?.pastTimelineReloadSeconds(inst.spec) ?? 0)
                inst.nextReloadBudgeted = true
                if !unchanged {
                    limits?.accepted(entries: inst.entries, policy: r.policy, for: inst.spec)
                    reportMissingBackground(inst)
                }
                inst.nextReloadReason = {
                    switch inst.policy {
                    case .atEnd: "timeline ended (policy atEnd)"
                    case .after: "policy after(date) reached"
                    case .never: ""
                    }
                }()
                if inst.consecutiveFailures > 0 {
                    logger.info("\(inst.id) recovered after \(inst.consecutiveFailures) failed reload\(inst.consecutiveFailures == 1 ? "" : "s")")
                }
                inst.consecutiveFailures = 0
                inst.lastError = nil
                if !unchanged { inst.shownIndex = nil }
            } else { failure = "timeline returned no entries" }
        }
        if let failure {
            inst.consecutiveFailures += 1
            inst.lastError = failure
            let delay = min(settings.retryMaxSeconds, settings.retryBaseSeconds * Double(1 << min(inst.consecutiveFailures - 1, 20)))
            inst.nextReload = now.addingTimeInterval(delay)
            inst.nextReloadReason = "retry after failure"
            inst.nextReloadBudgeted = false
            inst.shownIndex = nil
            // A state change at warning (the widget goes stale), the retries that follow at debug.
            logger.log(level: inst.consecutiveFailures == 1 ? .warning : .debug,
                       "reload failed: \(inst.id): \(failure) (retry in \(Int(delay)) s)\(inst.consecutiveFailures == 1 ? "; \(inst.id) is stale" : "")")
        }
        if let pending = inst.pendingReason {
            inst.pendingReason = nil
            request(inst, reason: pending, budgeted: inst.pendingBudgeted)
            inst.pendingBudgeted = true
        }
        evaluate()
    }

    /// Logs, once per instance, that its timeline has an entry without the `containerBackground`
    /// iOS 17 requires of a home-screen widget (drawn as before; a port's to-do).
    private func reportMissingBackground(_ inst: WidgetInstance) {
        guard !inst.reportedWithoutBackground,
              inst.entries.contains(where: { ContainerBackgroundCheck.isMissing(in: $0.view, family: inst.spec.family) }) else { return }
        inst.reportedWithoutBackground = true
        logger.info("\(inst.id): \(ContainerBackgroundCheck.line(kind: inst.spec.kind, families: [inst.spec.family]))")
    }

    static func isAscending(_ entries: [WireEntry]) -> Bool {
        var i = 1
        while i < entries.count {
            if entries[i].date < entries[i - 1].date { return false }
            i += 1
        }
        return true
    }

    /// Shows the due entry of every instance, starts due reloads and re-arms the timer.
    public func evaluate() {
        guard !evaluating else { evaluateAgain = true; return }
        evaluating = true
        defer { evaluating = false }
        repeat {
            evaluateAgain = false
            evaluatePass()
        } while evaluateAgain
    }

    private func evaluatePass() {
        let now = loop.now
        var next: Date?
        func consider(_ d: Date?) { if let d { next = next.map { min($0, d) } ?? d } }
        for inst in orderedInstances {
            if let r = inst.nextReload, !inst.inFlight {
                if r <= now {
                    inst.nextReload = nil
                    request(inst, reason: inst.nextReloadReason, budgeted: inst.nextReloadBudgeted)
                    if !inst.inFlight { consider(inst.nextReload) }
                } else { consider(r) }
            }
            guard let idx = inst.entryIndex(at: now) else {
                if let err = inst.lastError {
                    publisher.publish(WidgetOutput(id: inst.id, text: "", class: ["error"], kind: inst.spec.kind,
                                                   family: inst.spec.family.rawValue, stale: true, error: err), to: inst.spec.outputs)
                }
                continue
            }
            let liveDue = inst.liveChange.map { $0 <= now } ?? false
            if idx != inst.shownIndex || liveDue {
                inst.shownIndex = idx
                show(inst, inst.entries[idx], now: now)
            }
            if idx + 1 < inst.entries.count, inst.entries[idx + 1].date > now { consider(inst.entries[idx + 1].date) }
            consider(inst.liveChange)
        }
        if let next { timer?.arm(at: next) } else { timer?.disarm() }
    }

    /// The text and URL `inst`'s current entry renders to at `now` (what its text outputs would
    /// show), for `status`; nil before its first entry.
    public func currentText(_ inst: WidgetInstance, now: Date) -> (text: String, url: String?)? {
        guard let entry = inst.currentEntry else { return nil }
        let r = renderer.render(entry.view, family: inst.spec.family, now: now)
        return (r.text, r.url)
    }

    private func show(_ inst: WidgetInstance, _ entry: WireEntry, now: Date) {
        if let drawGuard, drawGuard.refuses(inst.id) {
            inst.liveChange = nil
            publisher.publish(WidgetOutput(id: inst.id, text: "", class: ["error"], kind: inst.spec.kind, family: inst.spec.family.rawValue,
                                           stale: true, error: drawGuard.notice(for: inst.id)), to: inst.spec.outputs)
            return
        }
        // A widget with no text output (the desktop only, or pictures only) is not rendered as
        // text for nobody: `status` renders its text when asked (`currentText`). For a ticking
        // desktop clock that was a third of the host's CPU per second (issue 26).
        guard inst.spec.outputs.contains(where: { !$0.isPicture }) else {
            // Nor does the host tick the live dates of a widget that has no picture output
            // either (the desktop only): the desktop surface ticks them itself, and nothing the
            // host writes changes at the next second — a ticking desktop clock wakes no host.
            let pictured = inst.spec.outputs.contains(where: \.isPicture)
            inst.liveChange = pictured ? renderer.nextChange(of: entry.view, after: now) : nil
            pictures?.show(inst.spec, view: entry.view, now: now, live: inst.liveChange != nil)
            onShown(inst, entry)
            return
        }
        drawGuard?.willDraw(inst.id)
        let r = renderer.render(entry.view, family: inst.spec.family, now: now)
        inst.liveChange = renderer.nextChange(of: entry.view, after: now)
        drawGuard?.didDraw()
        var classes = r.classes
        if inst.shownError != nil && !classes.contains("stale") { classes.append("stale") }
        let out = WidgetOutput(id: inst.id, text: r.text, alt: r.alt, tooltip: r.tooltip, class: classes,
                               percentage: r.percentage, kind: inst.spec.kind, family: inst.spec.family.rawValue,
                               date: WidgetOutput.isoDate(entry.date), url: r.url,
                               stale: inst.shownError != nil, error: inst.shownError,
                               pango: r.pango, relevance: entry.relevance?.score, background: r.background)
        publisher.publish(out, to: inst.spec.outputs)
        pictures?.show(inst.spec, view: entry.view, now: now, live: inst.liveChange != nil)
        onShown(inst, entry)
    }
}
