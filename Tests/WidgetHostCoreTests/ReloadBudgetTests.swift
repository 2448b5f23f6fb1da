import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The reload budget on virtual time: budgeted reloads stop at the budget, the entry stays on
/// screen marked stale with the date the budget allows, requests coalesce, free reloads pass,
/// and the ledger survives a restart.
@Suite struct ReloadBudgetTests {
    let logger = Logger(label: "test")

    final class Harness {
        let loop = VirtualLoop()
        let sink = RecordingSink()
        var calls = 0
        let enforcer: LimitsEnforcer
        var scheduler: TimelineScheduler!
        init(logger: Logger, budget: Int, state: String? = nil, limits: Limits? = nil,
             timeline: @escaping (Harness) -> WireResponse) {
            var config = HostConfig(paths: .init(plugins: "/nonexistent", out: "/nonexistent", containers: "/nonexistent",
                                                 state: state ?? "/nonexistent"))
            config.defaults.limits = limits ?? Limits()
            config.defaults.limits.reloadBudget = budget
            enforcer = LimitsEnforcer(config: config, budgetEnabled: true, persistent: state != nil, logger: logger)
            let publisher = OutputPublisher(sinks: [sink])
            scheduler = TimelineScheduler(loop: loop, renderer: StandardEntryRenderer(), publisher: publisher, logger: logger) { [unowned self] _, _, reply in
                self.calls += 1
                reply(.success(timeline(self)))
            }
            scheduler.limits = enforcer
            scheduler.setInstances([InstanceSpec(id: "w", bundleName: "b.so", kind: "k", family: .systemSmall, outputs: [.stdout])])
        }
        var last: WidgetOutput? { sink.written.last { $0.id == "w" } }
    }

    @Test func scheduledReloadsStopAtTheBudgetAndTheEntryGoesStale() {
        let h = Harness(logger: logger, budget: 3) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now, "n\(h.calls)")],
                         policy: WirePolicy(type: "after", date: h.loop.now + 60))
        }
        #expect(h.calls == 1, "first load is free")
        for _ in 0..<10 { h.loop.advance(by: 60) }
        #expect(h.calls == 4, "first load + 3 budgeted reloads")
        #expect(h.last?.text == "n4")
        #expect(h.last?.stale == true)
        #expect(h.last?.error?.hasPrefix("reload budget exhausted until ") == true)
        // A request while exhausted is deferred, not sent.
        h.scheduler.reload(reason: "container changed") { _ in true }
        #expect(h.calls == 4)
        // An interaction is free.
        h.scheduler.reload(.interaction("click")) { _ in true }
        #expect(h.calls == 5)
        #expect(h.last?.stale == false)
        // 24 h after the first charge the budget allows one again.
        h.loop.advance(by: 86_400)
        #expect(h.calls > 5)
    }

    @Test func aTimelineAlreadyOverWaitsFiveMinutes() {
        let h = Harness(logger: logger, budget: 60) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now - 100, "old")], policy: WirePolicy(type: "atEnd"))
        }
        for _ in 0..<60 { h.loop.advance(by: 1) }
        #expect(h.calls == 1, "no reload within a minute of a past .atEnd timeline")
        h.loop.advance(by: 240)
        #expect(h.calls == 2)
    }

    @Test func theLedgerAndTheLastTimelineSurviveARestart() {
        let dir = "/tmp/widgethost-budget-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = system("rm -rf '\(dir)'") }
        let first = Harness(logger: logger, budget: 2, state: dir) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now, "a\(h.calls)"), textEntry(h.loop.now + 3600, "later")],
                         policy: WirePolicy(type: "never"))
        }
        first.scheduler.reload(reason: "request") { _ in true }
        first.scheduler.reload(reason: "request") { _ in true }
        #expect(first.calls == 3)
        // A new host on the same state directory: the restored entry shows before any answer,
        // and the two charges still count.
        var answered = false
        let second = Harness(logger: logger, budget: 2, state: dir) { h in
            answered = true
            return WireResponse(ok: false, error: "not now")
        }
        #expect(answered)
        #expect(second.sink.written.contains { $0.text == "a3" }, "the saved entry was shown")
        second.scheduler.reload(reason: "request") { _ in true }
        #expect(second.calls == 1, "the budget was already spent before the restart")
        #expect(second.enforcer.ledger.charges["w"]?.count == 2)
    }
}
