import FoundationEssentials
import OpenWidgetKit
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// A `HostLoop` on virtual time: `advance(by:)` moves both clocks and fires what falls due, in
/// order; `jumpClock(by:)` sets the wall clock as `date -s` would (monotonic time stays) and
/// tells armed wall-clock timers, as a timerfd's ECANCELED does. Single-threaded, like the loop.
final class VirtualLoop: HostLoop {
    var now: Date
    private(set) var monotonic: Double = 0
    fileprivate var timers: [VirtualTimer] = []
    fileprivate var wallTimers: [VirtualWallTimer] = []
    /// Callbacks fired (each one is a wake-up of a real loop).
    private(set) var wakeups = 0

    init(now: Date = Date(timeIntervalSince1970: 1_800_000_000)) { self.now = now }

    func makeTimer(_ fire: @escaping () -> Void) -> any HostTimer {
        let t = VirtualTimer(loop: self, fire: fire); timers.append(t); return t
    }

    func makeWallClockTimer(fire: @escaping () -> Void, clockChanged: @escaping () -> Void) -> any WallClockTimer {
        let t = VirtualWallTimer(fire: fire, clockChanged: clockChanged); wallTimers.append(t); return t
    }

    /// Moves time forward by `seconds`, firing every timer that falls due on the way.
    func advance(by seconds: Double) {
        let end = monotonic + seconds
        while true {
            let nextMono = timers.compactMap { $0.deadline }.min()
            let nextWall = wallTimers.compactMap { $0.armedDate }.min().map { monotonic + max(0, $0.timeIntervalSince(now)) }
            guard let next = [nextMono, nextWall].compactMap({ $0 }).min(), next <= end + 1e-6 else { break }
            now = now.addingTimeInterval(next - monotonic)
            monotonic = next
            if let t = timers.first(where: { $0.deadline.map { $0 <= next } ?? false }) {
                t.deadline = nil; wakeups += 1; t.fire()
            } else if let w = wallTimers.first(where: { $0.armedDate.map { $0.timeIntervalSince(now) <= 1e-6 } ?? false }) {
                if let d = w.armedDate, d > now { now = d }   // fire no earlier than the armed date
                w.armedDate = nil; wakeups += 1; w.fire()
            }
        }
        now = now.addingTimeInterval(end - monotonic)
        monotonic = end
    }

    /// Sets the wall clock by `seconds` (negative: back).
    func jumpClock(by seconds: Double) {
        now = now.addingTimeInterval(seconds)
        for w in wallTimers where w.armedDate != nil {
            w.armedDate = nil; wakeups += 1; w.clockChanged()
        }
    }

    var armedWallDates: [Date] { wallTimers.compactMap(\.armedDate) }

    /// Monotonic timers armed now (each one a wake-up to come).
    var scheduledTimers: Int { timers.filter { $0.deadline != nil }.count }
}

final class VirtualTimer: HostTimer {
    weak var loop: VirtualLoop?
    var deadline: Double?
    var fire: () -> Void
    init(loop: VirtualLoop, fire: @escaping () -> Void) { self.loop = loop; self.fire = fire }
    func schedule(after seconds: Double) { deadline = (loop?.monotonic ?? 0) + seconds }
    func cancel() { deadline = nil }
    var isScheduled: Bool { deadline != nil }
    func close() { deadline = nil; fire = {} }
}

final class VirtualWallTimer: WallClockTimer {
    var armedDate: Date?
    var fire: () -> Void
    var clockChanged: () -> Void
    init(fire: @escaping () -> Void, clockChanged: @escaping () -> Void) { self.fire = fire; self.clockChanged = clockChanged }
    func arm(at date: Date) { armedDate = date }
    func disarm() { armedDate = nil }
    func close() { armedDate = nil; fire = {}; clockChanged = {} }
}

/// A worker that answers synchronously from a closure.
final class FakeWorker: WorkerConnection {
    var answer: (WireRequest) -> Result<WireResponse, WorkerFailure>
    private(set) var requests: [WireRequest] = []
    private(set) var stopped = false
    /// What `sendSettings` delivered, in order, with the number of requests sent before each.
    private(set) var settings: [(arguments: [String], afterRequests: Int)] = []
    /// The `worker` arguments it was launched with.
    var arguments: [String] = []
    init(answer: @escaping (WireRequest) -> Result<WireResponse, WorkerFailure>) { self.answer = answer }
    func sendSettings(_ arguments: [String]) { settings.append((arguments, requests.count)) }
    func send(_ request: WireRequest, timeout: Double, reply: @escaping (Result<WireResponse, WorkerFailure>) -> Void) {
        requests.append(request)
        if stopped { reply(.failure(WorkerFailure("stopped"))); return }
        reply(answer(request))
    }
    func stop() { stopped = true }
}

/// Launches `FakeWorker`s; what a worker answers is looked up by plugin path at launch time,
/// standing in for the contents of the `.so` file.
final class FakeLauncher: WorkerLauncher {
    var plugins: [String: (WireRequest) -> Result<WireResponse, WorkerFailure>] = [:]
    private(set) var workers: [FakeWorker] = []
    func launch(pluginPath: String, onExit: @escaping (WorkerFailure) -> Void) -> Result<any WorkerConnection, WorkerFailure> {
        guard let answer = plugins[pluginPath] else { return .failure(WorkerFailure("\(pluginPath): cannot open")) }
        let w = FakeWorker(answer: answer)
        workers.append(w)
        return .success(w)
    }
    func launch(pluginPath: String, arguments: [String], onExit: @escaping (WorkerFailure) -> Void) -> Result<any WorkerConnection, WorkerFailure> {
        let result = launch(pluginPath: pluginPath, onExit: onExit)
        workers.last?.arguments = arguments
        return result
    }
    var timelineRequests: Int { workers.reduce(0) { $0 + $1.requests.filter { $0.op == .timeline }.count } }
}

/// A plugin's answers: `describe` with one widget, `timeline` from `timeline`.
func fakePlugin(bundleId: String = "org.test", kind: String = "k", families: [WidgetFamily] = [.systemSmall],
                appGroups: [String] = [], timeline: @escaping (WireRequest) -> WireResponse) -> (WireRequest) -> Result<WireResponse, WorkerFailure> {
    { req in
        switch req.op {
        case .describe:
            return .success(WireResponse(ok: true, manifest: BundleManifest(
                bundleId: bundleId, sdkVersion: openWidgetKitVersion, abiVersion: 1,
                widgets: [WidgetDescriptor(kind: kind, displayName: kind, description: "", families: families,
                                           parameters: [], configuration: "StaticConfiguration")],
                appGroups: appGroups)))
        default: return .success(timeline(req))
        }
    }
}

func textEntry(_ date: Date, _ text: String) -> WireEntry {
    var v = ViewNode(kind: .text); v.text = text
    return WireEntry(date: date, view: v)
}

/// Records what reaches the stdout sink.
final class RecordingSink: OutputSink {
    let output = HostConfig.Output.stdout
    private(set) var written: [WidgetOutput] = []
    func write(_ output: WidgetOutput) { written.append(output) }
    func texts(_ id: String) -> [String] { written.filter { $0.id == id }.map(\.text) }
}

struct TestDirectory {
    let path: String
    init() {
        var template = Array("/tmp/widgethost-core-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
    func remove() { _ = system("rm -rf '\(path)'") }
}
