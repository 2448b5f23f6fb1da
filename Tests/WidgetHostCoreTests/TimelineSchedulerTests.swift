import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// The scheduler on virtual time: entries swap at their dates without plugin calls, policies set
/// the next reload, clock jumps re-evaluate, and nothing is armed when nothing is due.
@Suite struct TimelineSchedulerTests {
    let logger = Logger(label: "test")

    /// A scheduler over one instance `w` whose timelines come from `timeline`; counts calls.
    final class Harness {
        let loop = VirtualLoop()
        let sink = RecordingSink()
        var calls = 0
        var scheduler: TimelineScheduler!
        init(logger: Logger, timeline: @escaping (Harness) -> WireResponse) {
            let publisher = OutputPublisher(sinks: [sink])
            scheduler = TimelineScheduler(loop: loop, renderer: StandardEntryRenderer(), publisher: publisher, logger: logger) { [unowned self] _, _, reply in
                self.calls += 1
                reply(.success(timeline(self)))
            }
            scheduler.setInstances([InstanceSpec(id: "w", bundleName: "b.so", kind: "k", family: .systemSmall, outputs: [.stdout])])
        }
        var t0: Date { Date(timeIntervalSince1970: 1_800_000_000) }
        var shown: String? { sink.texts("w").last }
    }

    @Test func entriesSwapAtTheirDatesWithNoPluginCall() {
        let h = Harness(logger: logger) { h in
            WireResponse(ok: true, entries: [textEntry(h.t0, "A"), textEntry(h.t0 + 10, "B"), textEntry(h.t0 + 20, "C")],
                         policy: WirePolicy(type: "never"))
        }
        #expect(h.calls == 1)
        #expect(h.shown == "A")
        #expect(h.scheduler.armedDate == h.t0 + 10)
        h.loop.advance(by: 9.9)
        #expect(h.shown == "A")
        h.loop.advance(by: 0.1)
        #expect(h.shown == "B")
        h.loop.advance(by: 10)
        #expect(h.shown == "C")
        #expect(h.calls == 1, "entry swaps must not call the plugin")
        #expect(h.sink.texts("w") == ["A", "B", "C"])
    }

    @Test func atEndReloadsAfterTheLastEntry() {
        let h = Harness(logger: logger) { h in
            let now = h.loop.now
            return WireResponse(ok: true, entries: [textEntry(now, "x\(h.calls)"), textEntry(now + 30, "y\(h.calls)")],
                                policy: WirePolicy(type: "atEnd"))
        }
        #expect(h.calls == 1)
        #expect(h.scheduler.armedDate == h.t0 + 30)
        h.loop.advance(by: 29)
        #expect(h.calls == 1)
        h.loop.advance(by: 1)
        #expect(h.calls == 2)
        #expect(h.shown == "x2")
    }

    @Test func afterDateReloadsAtThatDate() {
        let h = Harness(logger: logger) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now, "n\(h.calls)")],
                         policy: WirePolicy(type: "after", date: h.loop.now + 300))
        }
        #expect(h.scheduler.armedDate == h.t0 + 300)
        h.loop.advance(by: 299)
        #expect(h.calls == 1)
        h.loop.advance(by: 1)
        #expect(h.calls == 2)
        #expect(h.scheduler.armedDate == h.t0 + 600)
    }

    @Test func neverReloadsOnlyOnRequestAndArmsNothing() {
        let h = Harness(logger: logger) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now, "n\(h.calls)")], policy: WirePolicy(type: "never"))
        }
        #expect(h.scheduler.armedDate == nil, "nothing due: no timer")
        let before = h.loop.wakeups
        h.loop.advance(by: 86_400 * 30)
        #expect(h.loop.wakeups == before, "a month with nothing due makes no wake-up")
        #expect(h.calls == 1)
        h.scheduler.reload(reason: "container changed") { _ in true }
        #expect(h.calls == 2)
        #expect(h.shown == "n2")
    }

    @Test func aPolicyInThePastIsHeldToTheMinimumInterval() {
        let h = Harness(logger: logger) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now - 100, "old")], policy: WirePolicy(type: "atEnd"))
        }
        #expect(h.scheduler.armedDate == h.t0 + 1)
        h.loop.advance(by: 10)
        #expect(h.calls <= 11, "at most one reload per minReloadSeconds")
    }

    @Test func clockJumpForwardShowsTheDueEntryAndReloads() {
        let h = Harness(logger: logger) { h in
            let now = h.loop.now
            return WireResponse(ok: true, entries: [textEntry(now, "A\(h.calls)"), textEntry(now + 3600, "B\(h.calls)")],
                                policy: WirePolicy(type: "after", date: now + 7200))
        }
        #expect(h.shown == "A1")
        h.loop.jumpClock(by: 3700)          // e.g. resume after a suspend, or `date -s`
        #expect(h.shown == "B1")
        #expect(h.scheduler.armedDate == h.t0 + 7200)
        h.loop.jumpClock(by: 3600)
        #expect(h.calls == 2, "the overdue reload happens at once")
    }

    @Test func clockJumpBackShowsTheEarlierEntryAndReArms() {
        let h = Harness(logger: logger) { h in
            WireResponse(ok: true, entries: [textEntry(h.t0, "A"), textEntry(h.t0 + 60, "B"), textEntry(h.t0 + 120, "C")],
                         policy: WirePolicy(type: "never"))
        }
        h.loop.advance(by: 60)
        #expect(h.shown == "B")
        #expect(h.scheduler.armedDate == h.t0 + 120)
        h.loop.jumpClock(by: -60)
        #expect(h.shown == "A")
        #expect(h.scheduler.armedDate == h.t0 + 60)
        #expect(h.calls == 1)
    }

    @Test func aFailedReloadKeepsTheLastEntryMarkedStaleAndRetries() {
        var fail = false
        let h = Harness(logger: logger) { h in
            fail ? WireResponse.failure("boom")
                 : WireResponse(ok: true, entries: [textEntry(h.loop.now, "good")], policy: WirePolicy(type: "never"))
        }
        fail = true
        h.scheduler.reload(reason: "test") { _ in true }
        let last = h.sink.written.last
        #expect(last?.text == "good")
        #expect(last?.stale == true)
        #expect(last?.error?.contains("boom") == true)
        #expect(h.scheduler.armedDate == h.loop.now + 5)
        fail = false
        h.loop.advance(by: 5)
        #expect(h.sink.written.last?.stale == false)
        #expect(h.sink.written.last?.error == nil)
    }
}
