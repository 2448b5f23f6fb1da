import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetDesktopScene
import WidgetHostCore
@testable import WidgetDesktopSurface
#if canImport(Glibc)
import Glibc
#endif

/// `DesktopSurfaceLoop` on its own thread with a fake display backend (a pipe to wake it, outputs
/// the test changes) and a fake host serving a fixed snapshot; stopped with a SIGTERM to that
/// thread (the loop's signalfd). Waits are for conditions.
@Suite struct DesktopSurfaceLoopTests {
    static let monitor = DisplayOutput(id: 7, connector: "DP-1", logicalWidth: 1280, logicalHeight: 800, scale: 2, isPrimary: true)

    /// A monitor unplugged and plugged back (RandR gives it the same id) gets its window again:
    /// the loop tells the backend its area anew, and draws it.
    @Test func aMonitorPluggedBackGetsItsWidgetsAgain() throws {
        let host = try FakeViewHost()
        defer { host.stop() }
        let backend = FakeDisplayBackend(outputs: [Self.monitor])
        let loop = DesktopSurfaceLoop(backend: backend, stream: ViewStreamClient(socketPath: host.path), scene: DesktopScene(),
                                      actions: WidgetActions(controlSocket: host.path, configPath: "/nonexistent", environment: [:],
                                                             editExecutable: "/nonexistent", log: { _ in }),
                                      log: { _ in })
        let running = LoopThread(loop)
        let peer = try #require(host.accept())
        #expect(host.readLine(peer) == #"{"op":"watch"}"#)
        host.write(peer, try ViewStreamClientTests.line(ViewStreamClientTests.snapshot))
        #expect(backend.eventually { $0.areas.count == 1 && $0.presents == 1 }, "\(backend.state)")

        backend.change(outputs: [])            // unplugged: the backend drops its window itself
        #expect(backend.eventually { $0.changesSeen == 1 })
        backend.change(outputs: [Self.monitor])  // plugged back, same id
        #expect(backend.eventually { $0.areas.count == 2 && $0.presents == 2 }, "\(backend.state)")
        #expect(backend.state.areas.allSatisfy { $0.output == 7 && $0.area != nil })
        #expect(running.stop() == 0)
        close(peer)
    }

    /// With `WIDGETHOST_DESKTOP_FRAME_LOG`, each frame presented writes one line: its monotonic
    /// time and what the stream changed since the frame before (the benchmark's latency from a
    /// widget's change to the screen); a change that draws nothing new writes nothing.
    @Test func theFrameLogNamesWhatEachFrameShowsNew() throws {
        let host = try FakeViewHost()
        defer { host.stop() }
        let logPath = host.directory + "/frames.log"
        defer { unlink(logPath) }
        let backend = FakeDisplayBackend(outputs: [Self.monitor])
        let loop = DesktopSurfaceLoop(backend: backend, stream: ViewStreamClient(socketPath: host.path), scene: DesktopScene(),
                                      actions: WidgetActions(controlSocket: host.path, configPath: "/nonexistent", environment: [:],
                                                             editExecutable: "/nonexistent", log: { _ in }),
                                      log: { _ in })
        var warnings: [String] = []
        loop.frameLog = FrameTimingLog.fromEnvironment(["WIDGETHOST_DESKTOP_FRAME_LOG": logPath], warn: { warnings.append($0) })
        #expect(loop.frameLog != nil && warnings.isEmpty, "\(warnings)")
        #expect(FrameTimingLog.fromEnvironment([:], warn: { _ in }) == nil)
        let before = monotonicNanoseconds()
        let running = LoopThread(loop)
        let peer = try #require(host.accept())
        #expect(host.readLine(peer) == #"{"op":"watch"}"#)
        host.write(peer, try ViewStreamClientTests.line(ViewStreamClientTests.snapshot))
        #expect(backend.eventually { $0.presents == 1 }, "\(backend.state)")
        #expect(backend.eventually { _ in Self.lines(logPath).count == 1 })
        let first = Self.lines(logPath)
        #expect(first.first?.words == ["snapshot", "clock-systemSmall"], "\(first)")

        // The same tree again draws nothing and logs nothing; a new one is the next line.
        var same = ViewStreamClientTests.snapshot
        same.snapshot = false
        same.layout = nil
        host.write(peer, try ViewStreamClientTests.line(same))
        var changed = same
        changed.widgets[0].view = text("12:01")
        host.write(peer, try ViewStreamClientTests.line(changed))
        #expect(backend.eventually { $0.presents == 2 }, "\(backend.state)")
        #expect(backend.eventually { _ in Self.lines(logPath).count == 2 })
        let all = Self.lines(logPath)
        #expect(all.count == 2 && all[1].words == ["clock-systemSmall"], "\(all)")
        let after = monotonicNanoseconds()
        #expect(all.allSatisfy { $0.time >= before && $0.time <= after } && all[0].time <= all[1].time, "\(all) not in \(before)...\(after)")
        #expect(running.stop() == 0)
        #expect(Self.lines(logPath).count == 2, "a stop writes no line")
        close(peer)
    }

    static func lines(_ path: String) -> [(time: Int64, words: [String])] {
        let text = (try? FileIO.readRegularFile(path)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return text.split(separator: "\n").compactMap { line in
            let w = line.split(separator: " ").map(String.init)
            guard let t = w.first.flatMap({ Int64($0) }) else { return nil }
            return (t, Array(w.dropFirst()))
        }
    }

    func monotonicNanoseconds() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }
}

/// Runs a loop on a thread of its own; `stop()` sends that thread SIGTERM and returns the status.
final class LoopThread: @unchecked Sendable {
    private var thread = pthread_t()
    private let done = DispatchSemaphore(value: 0)
    private var status: Int32 = -1

    init(_ loop: DesktopSurfaceLoop) {
        let started = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let loop = loop
        DispatchQueue.global().async { [self] in
            thread = pthread_self()
            started.signal()
            status = loop.run()
            done.signal()
        }
        started.wait()
    }

    func stop() -> Int32? {
        pthread_kill(thread, SIGTERM)
        return done.wait(timeout: .now() + 10) == .success ? status : nil
    }
}

/// A display backend in memory: outputs the test sets (applied in `dispatch`, on the loop's
/// thread, after a byte on its pipe wakes the loop), a buffer per output's area, and a record of
/// what the loop asked.
final class FakeDisplayBackend: DisplayBackend, @unchecked Sendable {
    struct State {
        var areas: [(output: DisplayOutput.ID, area: LogicalRect?)] = []
        var presents = 0
        var changesSeen = 0
    }

    let modeDescription = "a fake display"
    weak var delegate: (any DisplayBackendDelegate)?
    private(set) var outputs: [DisplayOutput]
    private var pipeFDs: [Int32] = [-1, -1]
    var pollDescriptor: Int32 { pipeFDs[0] }
    private var lock = pthread_mutex_t()
    private var pending: [[DisplayOutput]] = []
    private var recorded = State()
    private var buffers: [DisplayOutput.ID: (pixels: UnsafeMutableRawPointer, width: Int, height: Int)] = [:]

    init(outputs: [DisplayOutput]) {
        self.outputs = outputs
        pipe(&pipeFDs)
        _ = fcntl(pipeFDs[0], F_SETFL, O_NONBLOCK)
        pthread_mutex_init(&lock, nil)
    }

    deinit { for b in buffers.values { b.pixels.deallocate() } }

    private func locked<T>(_ body: () -> T) -> T { pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }; return body() }

    var state: State { locked { recorded } }

    func change(outputs: [DisplayOutput]) {
        locked { pending.append(outputs) }
        var byte: UInt8 = 1
        _ = write(pipeFDs[1], &byte, 1)
    }

    /// Waits (at most 10 s) until `condition` holds of the recorded state.
    func eventually(_ condition: (State) -> Bool) -> Bool {
        for _ in 0..<1000 {
            if condition(state) { return true }
            usleep(10_000)
        }
        return false
    }

    func dispatch() throws {
        var sink = [UInt8](repeating: 0, count: 64)
        while read(pipeFDs[0], &sink, sink.count) > 0 {}
        for next in locked({ defer { pending = [] }; return pending }) {
            for id in buffers.keys where !next.contains(where: { $0.id == id }) { buffers.removeValue(forKey: id)?.pixels.deallocate() }
            outputs = next
            locked { recorded.changesSeen += 1 }
            delegate?.displayOutputsChanged(self)
        }
    }

    func flush() throws {}

    func setArea(_ area: LogicalRect?, on output: DisplayOutput.ID) {
        locked { recorded.areas.append((output, area)) }
        buffers.removeValue(forKey: output)?.pixels.deallocate()
        guard let area, let o = outputs.first(where: { $0.id == output }) else { return }
        let w = Int((area.width * o.scale).rounded(.up)), h = Int((area.height * o.scale).rounded(.up))
        let pixels = UnsafeMutableRawPointer.allocate(byteCount: w * h * 4, alignment: 16)
        memset(pixels, 0, w * h * 4)
        buffers[output] = (pixels, w, h)
    }

    func nextBuffer(for output: DisplayOutput.ID) -> PixelBuffer? {
        guard let b = buffers[output], let o = outputs.first(where: { $0.id == output }) else { return nil }
        return PixelBuffer(output: output, pixels: b.pixels, width: b.width, height: b.height, stride: b.width * 4, scale: o.scale, age: 0, token: 0)
    }

    func present(_ buffer: PixelBuffer, damage: [PixelRect]) { locked { recorded.presents += 1 } }

    func setInputRegion(_ rects: [LogicalRect], on output: DisplayOutput.ID) {}
}
