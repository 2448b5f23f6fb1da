import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// A render process that answers only when the test says so.
final class FakeRenderConnection: PictureRenderConnection {
    var requests: [(request: PictureRenderRequest, view: ViewNode, timeout: Double)] = []
    var replies: [(Result<PictureRenderReply, WorkerFailure>) -> Void] = []
    var stopped = false

    func send(_ payload: Data, timeout: Double, reply: @escaping (Result<PictureRenderReply, WorkerFailure>) -> Void) {
        let (r, v) = try! PictureRenderFrame.decode(payload)
        requests.append((r, v, timeout))
        replies.append(reply)
    }
    func stop() { stopped = true }

    /// Answers the oldest request as written (every path it named) or with `failure`.
    func answer(written: Bool = true, failure: String? = nil) {
        let reply = replies.removeFirst()
        let r = requests[requests.count - replies.count - 1].request
        if let failure { reply(.failure(WorkerFailure(failure))); return }
        reply(.success(PictureRenderReply(ok: true, written: written ? [r.png, r.svg, r.regions].compactMap { $0 } : [])))
    }
}

final class FakeRenderLauncher: PictureRenderLauncher {
    var launched: [FakeRenderConnection] = []
    var limits: [PictureRenderLimits] = []
    var current: FakeRenderConnection { launched.last! }
    func launch(_ limits: PictureRenderLimits, onExit: @escaping (WorkerFailure) -> Void) -> Result<any PictureRenderConnection, WorkerFailure> {
        self.limits.append(limits)
        launched.append(FakeRenderConnection())
        return .success(launched.last!)
    }
}

@Suite struct PictureOutputsTests {
    let logger = Logger(label: "test")

    func config(out: String = "/tmp/out", _ json: String = "") throws -> HostConfig {
        var c = try ConfigParser.parse(Data(json.utf8), baseDirectory: "/tmp", environment: ["HOME": "/tmp"])
        c.paths.out = out
        return c
    }

    func spec(_ id: String, _ outputs: [HostConfig.Output]) -> InstanceSpec {
        InstanceSpec(id: id, bundleName: "b.so", kind: "k", family: .systemSmall, outputs: outputs)
    }

    func text(_ s: String) -> ViewNode { var n = ViewNode(kind: .text); n.text = s; return n }

    // MARK: config

    @Test func pictureOutputsAndSettingsParseWithDefaultsAndOverrides() throws {
        let c = try config(#"""
        {"defaults": {"outputs": ["files", "png"], "picture": {"scale": 3, "colorScheme": "dark", "signal": 8}},
         "widgets": [{"kind": "a"}, {"kind": "b", "outputs": ["svg"], "picture": {"scale": 1, "signalProcess": "mybar"}}]}
        """#)
        #expect(c.defaults.outputs == [.files, .png])
        #expect(c.widgets?[0].outputs == [.files, .png])
        #expect(c.widgets?[1].outputs == [.svg])
        #expect(c.pictureSettings(for: "a").scale == 3)
        #expect(c.pictureSettings(for: "a").colorScheme == .dark)
        let b = c.pictureSettings(for: "b")
        #expect(b.scale == 1 && b.colorScheme == .dark && b.signal == 8 && b.signalProcess == "mybar")
        #expect(c.pictureSettings(for: "auto-created").scale == 3)
        // Nothing said: text outputs only, scale 2, light, no signal.
        let plain = try config("")
        #expect(plain.defaults.outputs == [.files, .stdout])
        #expect(plain.defaults.picture == PictureSettings())
        #expect(PictureSettings().scale == 2 && PictureSettings().signal == nil)
    }

    @Test func malformedPictureValuesAreNamedByTheirJSONPath() {
        let json = #"""
        {"defaults": {"outputs": ["jpeg"], "picture": {"scale": 4, "colorScheme": "sepia", "signal": 31, "size": 1}},
         "widgets": [{"kind": "a", "picture": {"scale": 1.5, "signalProcess": "/usr/bin/waybar", "timeoutSeconds": 0}},
                     {"kind": "b", "picture": "big"}]}
        """#
        let errors = ConfigParser.check(Data(json.utf8), baseDirectory: "/tmp", environment: [:]).errors.map(\.description)
        #expect(errors.contains { $0.hasPrefix("defaults.outputs[0]: unknown output \"jpeg\" (one of: files, txt, json, stdout, png, svg)") })
        #expect(errors.contains { $0.hasPrefix("defaults.picture.scale: must be between 1.0 and 3.0") })
        #expect(errors.contains { $0.hasPrefix("defaults.picture.colorScheme: unknown colour scheme \"sepia\"") })
        #expect(errors.contains { $0.hasPrefix("defaults.picture.signal: must be between 1.0 and 30.0") })
        #expect(errors.contains { $0.hasPrefix("defaults.picture.size: unknown key") })
        #expect(errors.contains { $0 == "widgets[0].picture.scale: must be 1, 2 or 3, found 1.5" })
        #expect(errors.contains { $0.hasPrefix("widgets[0].picture.signalProcess: must be a process name") })
        #expect(errors.contains { $0.hasPrefix("widgets[0].picture.timeoutSeconds: must be between 0.1") })
        #expect(errors.contains { $0 == "widgets[1].picture: expected an object, found a string" })
        #expect(errors.count == 9, "\(errors)")
    }

    // MARK: the render process

    @Test func aRequestFrameDecodesToWhatWasSentAndWritesTheRequestAsJSONEncoderWould() throws {
        var view = text("Habit 6/8 — “quoted” \\ /")
        view.date = DateText(style: "timer", date: Date(timeIntervalSince1970: 1_800_000_000.25))
        let encodedView = try WireCodec.encode(view)
        for request in [PictureRenderRequest(id: "a\"b", family: .systemMedium, now: Date(timeIntervalSince1970: 1_800_000_123.5), scale: 3,
                                             dark: true, png: "/o/a.png", svg: nil, regions: "/o/a.regions.json"),
                        PictureRenderRequest(id: "w", family: .accessoryInline, now: Date(timeIntervalSince1970: 0), scale: 1,
                                             dark: false, png: nil, svg: "/o/w.svg", regions: nil)] {
            let payload = PictureRenderFrame.payload(request, view: encodedView)
            let (r, v) = try PictureRenderFrame.decode(payload)
            #expect(r == request)
            #expect(v == view)
            let expected = "{\"request\":" + String(decoding: try WireCodec.encode(request), as: UTF8.self)
                + ",\"view\":" + String(decoding: encodedView, as: UTF8.self) + "}"
            #expect(String(decoding: payload, as: UTF8.self) == expected)
        }
    }

    @Test func aHostWithTextOutputsOnlyNeverStartsTheRenderProcess() throws {
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(), loop: loop, launcher: launcher, logger: logger)
        for i in 0..<5 { p.show(spec("w\(i)", [.files, .stdout]), view: text("\(i)"), now: loop.now, live: true) }
        #expect(launcher.launched.isEmpty)
        p.show(spec("pic", [.files, .png]), view: text("x"), now: loop.now, live: false)
        #expect(launcher.launched.count == 1, "started on first need")
        let r = try #require(launcher.current.requests.first?.request)
        #expect(r == PictureRenderRequest(id: "pic", family: .systemSmall, now: loop.now, scale: 2, dark: false,
                                          png: "/tmp/out/pic.png", svg: nil, regions: "/tmp/out/pic.regions.json", maxBytes: 4096 * 1024))
        #expect(launcher.current.requests.first?.timeout == 2, "the widget's budget (2 s) under picture.timeoutSeconds (5 s)")
    }

    /// The render process parses plugins' trees, so its replies are not trusted either: a drawing
    /// time of 10³⁰⁰ ms (valid JSON) once made the debug log's `Int(ms * 1000)` trap the host.
    @Test func aReplyWithAnAbsurdDrawingTimeIsLoggedWithoutATrap() throws {
        var debugLogger = Logger(label: "test")
        debugLogger.logLevel = .debug
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(), loop: loop, launcher: launcher, logger: debugLogger)
        for ms in [1e300, -1e300, .infinity, .nan] {
            p.show(spec("pic", [.files, .png]), view: text("\(ms)"), now: loop.now, live: false)
            let reply = try #require(launcher.current.replies.first)
            launcher.current.replies.removeFirst()
            reply(.success(PictureRenderReply(ok: true, written: [], milliseconds: ms)))
        }
        #expect(launcher.launched.count == 1, "every reply was taken; the render process was never restarted")
    }

    @Test func anEntryWithoutLiveDatesIsDrawnOnceAndALiveOneOnEveryTick() throws {
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(#"{"defaults": {"picture": {"colorScheme": "dark", "scale": 3}}}"#), loop: loop, launcher: launcher, logger: logger)
        let s = spec("w", [.png, .svg])
        p.show(s, view: text("a"), now: loop.now, live: false)
        launcher.current.answer()
        p.show(s, view: text("a"), now: loop.now.addingTimeInterval(60), live: false)  // stale mark, same timeline again
        #expect(launcher.current.requests.count == 1)
        #expect(launcher.current.requests[0].request.dark && launcher.current.requests[0].request.scale == 3)
        #expect(launcher.current.requests[0].request.svg == "/tmp/out/w.svg")
        p.show(s, view: text("b"), now: loop.now, live: false)
        #expect(launcher.current.requests.count == 2, "a new tree is drawn")
        launcher.current.answer()
        for t in 1...3 { p.show(s, view: text("b"), now: loop.now.addingTimeInterval(Double(t)), live: true) }
        // One in flight, the newest waiting: tick 2 was replaced by tick 3.
        #expect(launcher.current.requests.count == 3)
        launcher.current.answer()
        #expect(launcher.current.requests.count == 4)
        #expect(launcher.current.requests[3].request.now == loop.now.addingTimeInterval(3))
        #expect(launcher.launched.count == 1)
    }

    @Test func oneWidgetsPicturesWaitTheirTurnWithoutStarvingOthers() throws {
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(), loop: loop, launcher: launcher, logger: logger)
        p.show(spec("timer", [.png]), view: text("0"), now: loop.now, live: true)
        p.show(spec("timer", [.png]), view: text("0"), now: loop.now.addingTimeInterval(1), live: true)
        p.show(spec("habit", [.png]), view: text("h"), now: loop.now, live: false)
        p.show(spec("timer", [.png]), view: text("0"), now: loop.now.addingTimeInterval(2), live: true)
        launcher.current.answer(); launcher.current.answer()
        #expect(launcher.current.requests.map(\.request.id) == ["timer", "timer", "habit"])
    }

    @Test func aCrashCostsOnePictureAndTheNextStartsANewProcess() throws {
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(), loop: loop, launcher: launcher, logger: logger)
        let s = spec("w", [.png])
        p.show(s, view: text("a"), now: loop.now, live: false)
        p.show(spec("other", [.png]), view: text("o"), now: loop.now, live: false)
        launcher.current.answer(failure: "the render process was killed by signal 9")
        #expect(launcher.launched[0].stopped)
        #expect(p.failureCount == 1)
        // The waiting picture of another widget is drawn by a new process at once.
        #expect(launcher.launched.count == 2)
        #expect(launcher.current.requests.map(\.request.id) == ["other"])
        launcher.current.answer()
        // A second failure on the same tree (after the widget's 1 s backoff): that tree waits for
        // the widget's next entry.
        p.show(s, view: text("a"), now: loop.now, live: true)
        loop.advance(by: 1)
        launcher.current.answer(failure: "crash")
        loop.advance(by: 1)
        p.show(s, view: text("a"), now: loop.now, live: true)
        #expect(launcher.launched.count == 2, "the poisoned tree is not drawn: no new process")
        p.show(s, view: text("b"), now: loop.now, live: false)
        loop.advance(by: 1)  // two failures in a row: 2 s of backoff
        #expect(launcher.launched.count == 3)
        #expect(launcher.current.requests.map(\.request.id) == ["w"])
    }

    @Test func goingBackToTheDrawnTreeWhileAnotherIsPendingDrawsItAgain() throws {
        // A drawn, B being drawn, back to A (a toggle clicked twice): the picture must end as A.
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(), loop: loop, launcher: launcher, logger: logger)
        let s = spec("w", [.png])
        p.show(s, view: text("a"), now: loop.now, live: false)
        launcher.current.answer()
        p.show(s, view: text("b"), now: loop.now, live: false)
        p.show(s, view: text("a"), now: loop.now, live: false)
        launcher.current.answer()
        #expect(launcher.current.requests.map(\.view) == [text("a"), text("b"), text("a")])
        launcher.current.answer()
        p.show(s, view: text("a"), now: loop.now, live: false)
        #expect(launcher.current.requests.count == 3, "nothing pending: the same tree is not drawn again")
    }

    @Test func aSuccessBetweenTwoFailuresOfOneTreeDoesNotPutItAside() throws {
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(), loop: loop, launcher: launcher, logger: logger)
        let s = spec("w", [.png])
        p.show(s, view: text("t"), now: loop.now, live: true)
        launcher.current.answer(failure: "missed its deadline")
        p.show(s, view: text("t"), now: loop.now, live: true)
        loop.advance(by: 1)  // the widget's backoff after one failure
        launcher.current.answer()
        p.show(s, view: text("t"), now: loop.now, live: true)
        launcher.current.answer(failure: "missed its deadline")
        loop.advance(by: 1)
        p.show(s, view: text("t"), now: loop.now, live: true)
        #expect(launcher.current.requests.count == 1, "the live tree is still drawn on its ticks")
    }

    @Test func closingWhileAPictureIsDrawnIsNoFailure() throws {
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(), loop: loop, launcher: launcher, logger: logger)
        p.show(spec("w", [.png]), view: text("a"), now: loop.now, live: false)
        p.close()
        #expect(launcher.current.stopped)
        launcher.current.answer(failure: "the render process was stopped")  // what stop() reports
        #expect(p.failureCount == 0)
        loop.advance(by: 60)
        #expect(launcher.launched.count == 1, "no restart after close")
    }

    @Test func onChangedRunsOnlyWhenAPictureFileWasReplaced() throws {
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(#"{"defaults": {"picture": {"signal": 8}}}"#), loop: loop, launcher: launcher, logger: logger)
        var changes: [String] = []
        p.onChanged = { id, settings in changes.append("\(id):\(settings.signal ?? 0)") }
        let s = spec("w", [.png])
        p.show(s, view: text("a"), now: loop.now, live: true)
        launcher.current.answer(written: true)
        p.show(s, view: text("a"), now: loop.now.addingTimeInterval(1), live: true)
        launcher.current.answer(written: false)
        #expect(changes == ["w:8"])
    }

    @Test func aRemovedWidgetOrADroppedOutputTakesItsFilesAway() throws {
        let dir = TestDirectory(); defer { dir.remove() }
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(out: dir.path), loop: loop, launcher: launcher, logger: logger)
        for name in ["w.png", "w.svg", "w.regions.json"] { try FileIO.writeAtomically(Data("x".utf8), to: dir.path + "/" + name) }
        p.show(spec("w", [.png, .svg]), view: text("a"), now: loop.now, live: false)
        launcher.current.answer()
        p.show(spec("w", [.png]), view: text("a"), now: loop.now, live: false)
        launcher.current.answer()
        #expect(!FileIO.exists(dir.path + "/w.svg"), "svg no longer an output")
        #expect(FileIO.exists(dir.path + "/w.png"))
        p.show(spec("w", [.files]), view: text("a"), now: loop.now, live: false)
        #expect(!FileIO.exists(dir.path + "/w.png") && !FileIO.exists(dir.path + "/w.regions.json"))
    }

    @Test func newPictureSettingsDrawAgain() throws {
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let p = PictureOutputs(config: try config(), loop: loop, launcher: launcher, logger: logger)
        p.show(spec("w", [.png]), view: text("a"), now: loop.now, live: false)
        launcher.current.answer()
        p.apply(try config(#"{"defaults": {"picture": {"scale": 1}}}"#))
        #expect(launcher.current.requests.last?.request.scale == 1)
        #expect(launcher.current.requests.count == 2)
        p.apply(try config(#"{"defaults": {"picture": {"scale": 1}, "minReloadSeconds": 5}}"#))
        #expect(launcher.current.requests.count == 2, "other settings: nothing to draw")
    }
}

@Suite struct BarRefreshSignalTests {
    @Test func processesAreFoundByTheirCommNameAsPkillMatchesIt() throws {
        let dir = TestDirectory(); defer { dir.remove() }
        for (pid, comm) in [(101, "waybar"), (102, "waybar-helper"), (103, "a-very-long-pro"), (104, "sway")] {
            try FileIO.makeDirectories(dir.path + "/\(pid)")
            try FileIO.writeAtomically(Data((comm + "\n").utf8), to: dir.path + "/\(pid)/comm")
        }
        try FileIO.makeDirectories(dir.path + "/self")
        let s = BarRefreshSignal(loop: VirtualLoop(), procRoot: dir.path)
        let found = s.processes(named: ["waybar", BarRefreshSignal.commName("a-very-long-program-name")])
        #expect(found["waybar"] == [101])
        #expect(found["a-very-long-pro"] == [103], "comm holds the first 15 bytes of the name")
        #expect(s.comm(of: 104) == "sway")
        #expect(s.comm(of: 999) == nil)
    }
}
