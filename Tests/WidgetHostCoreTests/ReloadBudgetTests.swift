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
        /// `answerDelay`: seconds of virtual time between a request and its answer (a slow
        /// provider); the answer is what `timeline` returned at request time.
        init(logger: Logger, budget: Int, state: String? = nil, limits: Limits? = nil, answerDelay: Double = 0,
             timeline: @escaping (Harness) -> WireResponse) {
            var config = HostConfig(paths: .init(plugins: "/nonexistent", out: "/nonexistent", containers: "/nonexistent",
                                                 state: state ?? "/nonexistent"))
            config.defaults.limits = limits ?? Limits()
            config.defaults.limits.reloadBudget = budget
            enforcer = LimitsEnforcer(config: config, budgetEnabled: true, persistent: state != nil, logger: logger)
            let publisher = OutputPublisher(sinks: [sink])
            scheduler = TimelineScheduler(loop: loop, renderer: StandardEntryRenderer(), publisher: publisher, logger: logger) { [unowned self] _, _, reply in
                self.calls += 1
                let answer = timeline(self)
                guard answerDelay > 0 else { reply(.success(answer)); return }
                self.loop.makeTimer { reply(.success(answer)) }.schedule(after: answerDelay)
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

    /// CardioBot's provider: one entry dated when the provider ran, `.atEnd`. The entry is a
    /// moment after the request but over when the answer arrives: it must wait like a past
    /// timeline, not reload every `minReloadSeconds` (61 requests in 70 s before the fix).
    @Test func anAtEndTimelineOverOnArrivalWaitsFiveMinutes() {
        let h = Harness(logger: logger, budget: 60, answerDelay: 0.2) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now + 0.05, "now")], policy: WirePolicy(type: "atEnd"))
        }
        h.loop.advance(by: 70)
        #expect(h.calls == 1, "one request in 70 s, not one a second")
        #expect(h.last?.stale == false)
        h.loop.advance(by: 300)
        #expect(h.calls == 2, "reloaded five minutes after the answer arrived")
    }

    /// A provider slower than its own `.after` interval (9 s to answer `.after(now + 5 s)`):
    /// the answer arrives past its date, so it waits like a past timeline instead of being
    /// reloaded, and charged, on every arrival.
    @Test func anAnswerArrivingAfterItsOwnAfterDateWaits() {
        let h = Harness(logger: logger, budget: 60, answerDelay: 9) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now, "tick")], policy: WirePolicy(type: "after", date: h.loop.now + 5))
        }
        h.loop.advance(by: 120)
        #expect(h.calls == 1)
        #expect(h.enforcer.ledger.charges["w"]?.count ?? 0 == 0, "no budgeted reload yet")
        h.loop.advance(by: 200)
        #expect(h.calls == 2)
    }

    /// A timeline with a future end still reloads at its end, as before.
    @Test func anAtEndTimelineWithAFutureEntryReloadsAtItsEnd() {
        let h = Harness(logger: logger, budget: 60, answerDelay: 0.2) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now, "a"), textEntry(h.loop.now + 30, "b")], policy: WirePolicy(type: "atEnd"))
        }
        h.loop.advance(by: 29)
        #expect(h.calls == 1)
        h.loop.advance(by: 2)
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
