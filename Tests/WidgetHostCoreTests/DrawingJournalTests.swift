import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// A host that dies while drawing a widget must not die the same way at every restart (issue
/// 23): `DrawingJournal` remembers what was being drawn, and the next start knows.
@Suite struct DrawingJournalTests {
    let logger = Logger(label: "test")

    @Test func aDrawingThatNeverEndedIsFoundAtTheNextStart() {
        let dir = TestDirectory(); defer { dir.remove() }
        let first = DrawingJournal(directory: dir.path, logger: logger)
        #expect(first.interrupted == nil)
        first.willDraw("a-widget"); first.didDraw()
        first.willDraw("the-crashing-one")  // …and the host dies here
        let second = DrawingJournal(directory: dir.path, logger: logger)
        #expect(second.interrupted?.id == "the-crashing-one" && second.interrupted?.times == 1)
        #expect(second.notice(for: "the-crashing-one") == "the host stopped while drawing this widget; its saved timeline was set aside")
        #expect(!second.refuses("the-crashing-one") && second.notice(for: "a-widget") == nil)
        // It dies drawing the same widget again: the third start does not draw it.
        second.willDraw("the-crashing-one")
        let third = DrawingJournal(directory: dir.path, logger: logger)
        #expect(third.interrupted?.times == 2)
        #expect(third.refuses("the-crashing-one") && !third.refuses("a-widget"))
        #expect(third.notice(for: "the-crashing-one")?.hasPrefix("not drawn: the host stopped while drawing this widget at the last 2 starts") == true)
        // A run that ends without such a crash clears the count.
        let fourth = DrawingJournal(directory: dir.path, logger: logger)
        #expect(fourth.interrupted == nil && !fourth.refuses("the-crashing-one"))
        fourth.willDraw("the-crashing-one")
        #expect(DrawingJournal(directory: dir.path, logger: logger).interrupted?.times == 1)
    }

    @Test func aShorterIdAfterALongerOneIsReadWhole() {
        let dir = TestDirectory(); defer { dir.remove() }
        let j = DrawingJournal(directory: dir.path, logger: logger)
        j.willDraw("a-very-long-instance-id-systemLarge"); j.didDraw()
        j.willDraw("b")
        #expect(DrawingJournal(directory: dir.path, logger: logger).interrupted?.id == "b")
    }

    /// The scheduler brackets each drawing with the guard and shows a refused widget's notice
    /// instead of drawing it.
    @Test func theSchedulerAsksTheGuard() {
        final class Recorder: DrawingGuard {
            var events: [String] = []
            func willDraw(_ id: String) { events.append("will \(id)") }
            func didDraw() { events.append("did") }
            func notice(for id: String) -> String? { id == "refused" ? "not drawn: test" : nil }
            func refuses(_ id: String) -> Bool { id == "refused" }
        }
        let loop = VirtualLoop()
        let sink = RecordingSink()
        let scheduler = TimelineScheduler(loop: loop, renderer: StandardEntryRenderer(), publisher: OutputPublisher(sinks: [sink]),
                                          logger: logger) { _, _, _ in }
        let recorder = Recorder()
        scheduler.drawGuard = recorder
        let now = loop.now
        scheduler.preload([(InstanceSpec(id: "drawn", bundleName: "b.so", kind: "k", family: .accessoryInline), [textEntry(now, "hello")]),
                           (InstanceSpec(id: "refused", bundleName: "b.so", kind: "k", family: .accessoryInline), [textEntry(now, "poison")])])
        #expect(recorder.events == ["will drawn", "did"])
        let drawn = sink.written.last { $0.id == "drawn" }, refused = sink.written.last { $0.id == "refused" }
        #expect(drawn?.text == "hello")
        #expect(refused?.text == "" && refused?.error == "not drawn: test" && refused?.stale == true)
    }
}
