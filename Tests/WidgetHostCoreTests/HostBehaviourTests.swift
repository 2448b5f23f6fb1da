import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct BurstThrottleTests {
    @Test func firstEventFiresAtOnceAndABurstCoalesces() {
        let loop = VirtualLoop()
        var fired: [Double] = []
        var leading: [Bool] = []
        let throttle = BurstThrottle(loop: loop, window: 0.1) { fired.append(loop.monotonic); leading.append($0) }
        throttle.signal()
        #expect(fired == [0], "no latency for the first event")
        for _ in 0..<20 { loop.advance(by: 0.004); throttle.signal() }   // a burst over 80 ms
        #expect(fired.count == 1)
        loop.advance(by: 0.15)
        #expect(fired.count == 2, "one trailing reload covers the whole burst, once a window passed quietly")
        loop.advance(by: 1)
        #expect(fired.count == 2)
        throttle.signal()
        #expect(fired.count == 3 && fired.last == loop.monotonic, "a later change fires at once again")
        #expect(leading == [true, false, true], "the trailing call only completes the burst")
    }

    /// A 1 GB write into a container was charged as 25 reloads (issue 15): a burst of events for
    /// 3 s is one leading call and one trailing call.
    @Test func aLongBurstIsOneLeadingAndOneTrailingCall() {
        let loop = VirtualLoop()
        var leading: [Bool] = []
        let throttle = BurstThrottle(loop: loop, window: 0.1) { leading.append($0) }
        for _ in 0..<300 { throttle.signal(); loop.advance(by: 0.01) }
        loop.advance(by: 1)
        #expect(leading == [true, false])
        // A stream that never pauses is still refreshed, budgeted, every maxBurst (5 s).
        leading = []
        for _ in 0..<1200 { throttle.signal(); loop.advance(by: 0.01) }
        loop.advance(by: 1)
        #expect(leading.filter { $0 }.count == 3 && leading.last == false, "\(leading)")
    }

    /// `advance(by: 0)` is the end of the loop iteration: the leading call's work (a reload
    /// round's requests) has left. Events before it are covered by that call.
    @Test func eventsBeforeTheCallsWorkLeftAreCoveredByIt() {
        let loop = VirtualLoop()
        var calls: [(Double, Bool)] = []
        let throttle = BurstThrottle(loop: loop, window: 0.1) { calls.append((loop.monotonic, $0)) }
        for _ in 0..<10 { throttle.signal() }   // ten renames read in one inotify read
        loop.advance(by: 1)
        #expect(calls.map(\.0) == [0] && calls.map(\.1) == [true], "one reload for a burst read in one go: \(calls)")
    }

    @Test func anEventAfterTheCallsWorkLeftCausesTheTrailingCall() {
        let loop = VirtualLoop()
        var calls: [(Double, Bool)] = []
        let throttle = BurstThrottle(loop: loop, window: 0.1) { calls.append((loop.monotonic, $0)) }
        throttle.signal()
        loop.advance(by: 0)                     // the requests were written
        throttle.signal()                       // a change the worker may have missed
        loop.advance(by: 0.15)
        #expect(calls.count == 1, "the burst is still open at 0.15 s (it had an event in its first window)")
        loop.advance(by: 1)
        // The window's end is computed from wall-clock dates (~1e-7 s apart at 2027's magnitude).
        #expect(calls.count == 2 && calls[0].0 == 0 && abs(calls[1].0 - 0.2) < 1e-6, "\(calls)")
        #expect(calls.map(\.1) == [true, false])
        throttle.signal()
        #expect(calls.count == 3 && calls.last?.1 == true, "after the burst a change fires at once")
    }

    @Test func anIsolatedEventLeavesNoTimerArmed() {
        let loop = VirtualLoop()
        var calls = 0
        let throttle = BurstThrottle(loop: loop, window: 0.1) { _ in calls += 1 }
        throttle.signal()
        loop.advance(by: 0)
        #expect(calls == 1)
        #expect(loop.scheduledTimers == 0, "no wake-up at the end of a window nothing fell into")
        loop.advance(by: 0.05)
        throttle.signal()                       // inside the window: coalesced, its timer armed now
        #expect(calls == 1 && loop.scheduledTimers == 1)
        loop.advance(by: 1)
        #expect(calls == 2 && loop.scheduledTimers == 0)
        _ = throttle
    }

    /// A throttle with a 0.1-s window holding a fake source that delivers to it.
    private func heldThrottle(_ loop: VirtualLoop, _ action: @escaping (Bool) -> Void) -> (BurstThrottle, FakeEventSource) {
        let throttle = BurstThrottle(loop: loop, window: 0.1, action: action)
        let source = FakeEventSource(throttle)
        throttle.source = source
        return (throttle, source)
    }

    /// A burst's events after the first one inside a window wait in the source (the kernel's
    /// inotify queue) and are read once at the window's end: they wake nobody, and none is lost.
    @Test func aHeldSourceKeepsTheRestOfABurstForTheWindowsEnd() {
        let loop = VirtualLoop()
        var calls: [(Double, Bool)] = []
        let (throttle, source) = heldThrottle(loop) { calls.append((loop.monotonic, $0)) }
        source.event(.change)                   // file0 renamed: the leading reload
        loop.advance(by: 0)                     // its requests left
        #expect(calls.count == 1 && !source.held, "a change outside a window holds nothing")
        loop.advance(by: 0.001)
        source.event(.activity)                 // file1.tmp created: a writer at work
        #expect(source.held && source.holds == 1 && loop.scheduledTimers == 1)
        for _ in 0..<9 { loop.advance(by: 0.001); source.event(.activity); source.event(.change) }
        #expect(source.kept.count == 18 && source.delivered == 2, "the rest of the burst waits in the source")
        let wakeupsBefore = loop.wakeups
        loop.advance(by: 0.098)                 // the window's end (0.1): drained, it had changes
        #expect(source.kept.isEmpty && source.drains == 1 && source.held, "drained once, held for the next window")
        #expect(calls.count == 1, "the burst had events in its window: one more window")
        loop.advance(by: 1)
        #expect(calls.count == 2 && abs(calls[1].0 - 0.2) < 1e-6 && calls[1].1 == false, "\(calls)")
        #expect(!source.held && source.drains == 2 && loop.wakeups - wakeupsBefore == 3,
                "two window ends and the cover timer; no wake-up for the 18 events: \(loop.wakeups - wakeupsBefore)")
        source.event(.change)
        #expect(calls.count == 3 && calls.last?.1 == true, "after the burst a change fires at once again")
        _ = throttle  // the source holds it weakly
    }

    /// A change kept in the source when the window ends is the change the trailing call must
    /// see: with only activity before it, it still owes the call (no lost update).
    @Test func aChangeKeptInAHeldSourceGetsTheTrailingCall() {
        let loop = VirtualLoop()
        var leading: [Bool] = []
        let (throttle, source) = heldThrottle(loop) { leading.append($0) }
        source.event(.change)
        loop.advance(by: 0.01)
        source.event(.activity)                 // holds
        source.event(.change)                   // kept: the only change after the requests left
        loop.advance(by: 1)
        #expect(leading == [true, false], "\(leading)")
        #expect(!source.held)
        _ = throttle  // the source holds it weakly
    }

    @Test func activityAloneInAWindowOwesNoCall() {
        let loop = VirtualLoop()
        var leading: [Bool] = []
        let (throttle, source) = heldThrottle(loop) { leading.append($0) }
        source.event(.change)
        loop.advance(by: 0.05)
        source.event(.activity)                 // a temp file, never renamed
        #expect(source.held)
        loop.advance(by: 1)
        #expect(leading == [true] && !source.held && source.drains == 1 && loop.scheduledTimers == 0)
        source.event(.activity)                 // outside a window: nothing held, nothing armed
        #expect(!source.held && loop.scheduledTimers == 0 && leading == [true])
        _ = throttle  // the source holds it weakly
    }

    @Test func closingTheThrottleResumesItsHeldSource() {
        let loop = VirtualLoop()
        let (throttle, source) = heldThrottle(loop) { _ in }
        source.event(.change)
        loop.advance(by: 0.01)
        source.event(.change)
        #expect(source.held)
        throttle.close()
        #expect(!source.held, "a watch outlives its throttle (a new config makes a new one)")
    }

    @Test func aClockSetBackClosesTheWindow() {
        let loop = VirtualLoop()
        var leading: [Bool] = []
        let throttle = BurstThrottle(loop: loop, window: 0.1) { leading.append($0) }
        throttle.signal()
        loop.advance(by: 0.01)
        loop.jumpClock(by: -3600)
        throttle.signal()
        #expect(leading == [true, true], "a window that starts in the future is not open")
    }
}

@Suite struct ConfigParserTests {
    func parse(_ json: String) throws(ConfigError) -> HostConfig {
        try ConfigParser.parse(Data(json.utf8), baseDirectory: "/etc/wh", environment: ["HOME": "/home/u"])
    }

    func error(_ json: String) -> ConfigError? {
        do { _ = try parse(json); return nil } catch { return error }
    }

    @Test func defaultsAreXDGAndRelativePathsResolveAgainstTheFile() throws {
        let empty = try parse("{}")
        #expect(empty.paths.plugins == "/home/u/.local/share/widgethost/Plugins")
        #expect(empty.paths.out == "/home/u/.local/state/widgethost/out")
        #expect(empty.widgets == nil)
        let c = try parse(#"{"paths":{"plugins":"Plugins","out":"/var/out","state":"~/st"}}"#)
        #expect(c.paths.plugins == "/etc/wh/Plugins")
        #expect(c.paths.out == "/var/out")
        #expect(c.paths.state == "/home/u/st")
    }

    @Test func widgetsParseWithSanitizedIds() throws {
        let c = try parse(#"{"widgets":[{"kind":"clock","family":"systemSmall"},{"id":"my clock/2","kind":"clock","parameters":{"tz":"UTC"},"outputs":["files"]}]}"#)
        #expect(c.widgets?.map(\.id) == ["clock-systemSmall", "my_clock_2"])
        #expect(c.widgets?[1].parameters["tz"] == .string("UTC"))
        #expect(c.widgets?[1].outputs == [.files])
        #expect(c.widgets?[1].family == nil)
    }

    @Test(arguments: [
        (#"{"widgets":[{"kind":"a"},{"kind":"b"},{"kind":"c","family":"huge"}]}"#, "widgets[2].family"),
        (#"{"widgets":[{"kind":"a","colour":"red"}]}"#, "widgets[0].colour"),
        (#"{"widgets":[{"kind":3}]}"#, "widgets[0].kind"),
        (#"{"widgets":[{"family":"systemSmall"}]}"#, "widgets[0].kind"),
        (#"{"widgets":{"kind":"a"}}"#, "widgets"),
        (#"{"paths":{"plugins":42}}"#, "paths.plugins"),
        (#"{"defaults":{"containerCoalesceMs":"fast"}}"#, "defaults.containerCoalesceMs"),
        (#"{"defaults":{"outputs":["files","pigeon"]}}"#, "defaults.outputs[1]"),
        (#"{"widgets":[{"kind":"a"},{"kind":"a"}]}"#, "widgets[1]"),
        (#"{"colour":1}"#, "colour"),
    ])
    func errorsNameTheJSONPath(json: String, path: String) {
        let e = error(json)
        #expect(e?.path == path, "got \(String(describing: e))")
        #expect(e?.description.hasPrefix(path + ": ") == true)
    }

    @Test func invalidJSONIsAnError() {
        #expect(error("{\"widgets\": [") != nil)
    }
}

@Suite struct OutputTests {
    @Test func filesAreWrittenOnlyWhenTheRenderingChanges() throws {
        let dir = TestDirectory(); defer { dir.remove() }
        let files = FileOutputSink(directory: dir.path + "/out", logger: Logger(label: "t"))
        let publisher = OutputPublisher(sinks: [files])
        let a = WidgetOutput(id: "w", text: "12:00", kind: "clock", family: "systemSmall", date: "2026-01-01T12:00:00Z")
        #expect(publisher.publish(a, to: [.files]))
        #expect(files.writeCount == 2)
        var sameText = a; sameText.date = "2026-01-01T12:00:30Z"
        #expect(!publisher.publish(sameText, to: [.files]), "a new entry rendering the same is no update")
        #expect(files.writeCount == 2)
        var b = a; b.text = "12:01"
        #expect(publisher.publish(b, to: [.files]))
        #expect(files.writeCount == 4)
        let txt = String(decoding: FileIO.read(dir.path + "/out/w.txt") ?? Data(), as: UTF8.self)
        #expect(txt == "12:01\n")
        let json = try WireCodec.decode([String: JSONValue].self, from: FileIO.read(dir.path + "/out/w.json") ?? Data())
        #expect(json["text"] == .string("12:01"))
        #expect(json["class"] == .array([]))
        #expect(json["stale"] == .bool(false))
        #expect(json["kind"] == .string("clock"))
        #expect(json["family"] == .string("systemSmall"))
        // The spares of files rewritten often stay while the host runs (OutputDirectory).
        #expect(FileIO.list(dir.path + "/out")?.filter { !$0.hasSuffix(".\(getpid()).spare") } == ["w.json", "w.txt"],
                "no temp files left behind")
    }
}

/// A `HoldableEventSource` on virtual time: `event(_:)` is one inotify event of a change or of a
/// writer's temp file, delivered to the throttle at once, or kept while held.
final class FakeEventSource: HoldableEventSource {
    enum Event { case change, activity }
    private weak var throttle: BurstThrottle?
    private(set) var held = false
    private(set) var kept: [Event] = []
    private(set) var holds = 0, drains = 0, delivered = 0

    /// Delivers to `throttle`; none: only records holds (the host drives its own throttle).
    init(_ throttle: BurstThrottle? = nil) { self.throttle = throttle }

    func event(_ e: Event) { if held { kept.append(e) } else { deliver(e) } }
    private func deliver(_ e: Event) {
        delivered += 1
        switch e { case .change: throttle?.signal(); case .activity: throttle?.noteActivity() }
    }
    func hold() { held = true; holds += 1 }
    func drain() { drains += 1; let k = kept; kept = []; k.forEach(deliver) }
    func resume() { held = false; let k = kept; kept = []; k.forEach(deliver) }
}
