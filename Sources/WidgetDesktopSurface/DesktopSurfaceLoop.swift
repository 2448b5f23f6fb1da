import CSurfaceLoop
import FoundationEssentials
import OpenWidgetKit
import WidgetDesktopScene
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The lean surface's main loop: one thread in `poll(2)` on the display backend's descriptor,
/// the view stream's socket, a realtime timerfd at the scene's next live-date tick (re-armed
/// after the clock is set or a suspend: `TFD_TIMER_CANCEL_ON_SET`), a monotonic one for
/// reconnecting to the host, and a signalfd for SIGTERM/SIGINT. It draws only when the scene
/// has something new for an output and the backend lends a buffer (nothing while a window is
/// covered), and presents only the damaged rectangles. While no host streams, the last widgets
/// stay, dimmed and marked "not running", and the stream is retried (0.25 s doubling to 2 s).
///
/// Threading: the thread that calls `run()`, which owns backend, stream and scene.
public final class DesktopSurfaceLoop: DisplayBackendDelegate {
    private let backend: any DisplayBackend
    private let stream: ViewStreamClient
    private let scene: any SurfaceScene
    private let actions: WidgetActions
    private let log: (String) -> Void
    private let clock: () -> Date
    private var placements: [DisplayOutput.ID: ScenePlacement] = [:]
    private var placementsStale = true
    private var tickTimer: Int32 = -1
    private var retryTimer: Int32 = -1
    private var signals: Int32 = -1
    private var retryDelay = 0.25
    private var hostMissingSaid = false
    private var stopStatus: Int32?
    /// Called after each snapshot with the number of widgets placed (the start-up line).
    public var onSnapshot: (Int) -> Void = { _ in }
    /// Called with each snapshot's layout before the grid is placed (the backend's fallback scale).
    public var onLayout: (DesktopViewMessage.Layout) -> Void = { _ in }

    public init(backend: any DisplayBackend, stream: ViewStreamClient, scene: any SurfaceScene, actions: WidgetActions,
                clock: @escaping () -> Date = { Date() }, log: @escaping (String) -> Void) {
        self.backend = backend; self.stream = stream; self.scene = scene; self.actions = actions
        self.clock = clock; self.log = log
    }

    deinit { for fd in [tickTimer, retryTimer, signals] where fd >= 0 { close(fd) } }

    /// Runs until SIGTERM/SIGINT (0) or the display goes away (1).
    public func run() -> Int32 {
        backend.delegate = self
        tickTimer = widgethost_timerfd(1)
        retryTimer = widgethost_timerfd(0)
        signals = widgethost_termination_signalfd()
        signal(SIGPIPE, SIG_IGN)
        connectStream()
        while stopStatus == nil {
            refresh()
            do { try backend.flush() } catch { return displayLost(error) }
            var fds = [pollfd(fd: backend.pollDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stream.descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: tickTimer, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: retryTimer, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, nfds_t(fds.count), -1)
            if n < 0 { if errno == EINTR { continue }; log("poll: \(String(cString: strerror(errno)))"); return 1 }
            if fds[4].revents != 0 { return 0 }
            // The display first: its events may be waiting in Xlib's queue even when the
            // descriptor is quiet, so dispatch every round.
            do { try backend.dispatch() } catch { return displayLost(error) }
            if fds[1].revents != 0 { readStream() }
            if fds[2].revents != 0 { drain(tickTimer); scene.tick(now: clock()) }
            if fds[3].revents != 0 { drain(retryTimer); connectStream() }
        }
        return stopStatus ?? 0
    }

    private func displayLost(_ error: any Error) -> Int32 {
        log("the display went away (\(error)); stopping")
        return 1
    }

    // MARK: - The stream

    private func connectStream() {
        if let why = stream.connect() {
            if !hostMissingSaid { log("\(why): widgets are shown as not running until a host streams them") }
            hostMissingSaid = true
            scene.hostRunning = false
            arm(retryTimer, after: retryDelay)
            retryDelay = min(retryDelay * 2, 2)
            return
        }
        retryDelay = 0.25
        hostMissingSaid = false
    }

    private func readStream() {
        for event in stream.readAvailable() {
            switch event {
            case .message(let m):
                scene.hostRunning = true
                scene.apply(m)
                placementsStale = true
                if m.snapshot {
                    snapshotPending = true
                    if let layout = m.layout { onLayout(layout) }
                }
            case .malformed(let why):
                log("view stream: \(why)")
            case .disconnected(let why):
                log("\(why): widgets are shown as not running")
                hostMissingSaid = true
                scene.hostRunning = false
                arm(retryTimer, after: retryDelay)
            }
        }
    }

    private var snapshotPending = false

    // MARK: - Drawing

    /// Places the grid on each output when the widgets or outputs changed, then draws every
    /// output that has something new and a buffer to draw into, and re-arms the tick.
    private func refresh() {
        let outputs = backend.outputs
        if placementsStale {
            placementsStale = false
            var next: [DisplayOutput.ID: ScenePlacement] = [:]
            for output in outputs {
                let p = scene.placement(on: output, among: outputs)
                next[output.id] = p
                if p != placements[output.id] {
                    if p?.area != placements[output.id]?.area { backend.setArea(p?.area, on: output.id) }
                    backend.setInputRegion(p?.inputRects ?? [], on: output.id)
                }
            }
            placements = next
            if snapshotPending {
                snapshotPending = false
                onSnapshot(next.values.reduce(0) { $0 + $1.items.count })
            }
        }
        let now = clock()
        for output in outputs {
            guard let p = placements[output.id], scene.needsFrame(p), let buffer = backend.nextBuffer(for: output.id) else { continue }
            let damage = scene.draw(buffer, placement: p, now: now)
            backend.present(buffer, damage: damage)
        }
        if let next = scene.nextTick(after: now) { armAbsolute(tickTimer, at: next) } else { disarm(tickTimer) }
    }

    public func displayOutputsChanged(_ backend: any DisplayBackend) { placementsStale = true }

    public func displayFrameWanted(_ backend: any DisplayBackend, output: DisplayOutput.ID) {}

    public func displayPointer(_ backend: any DisplayBackend, event: PointerEvent) {
        guard case .press(let button) = event.kind, let p = placements[event.output],
              let hit = scene.hit(x: event.x, y: event.y, placement: p, now: clock()) else { return }
        actions.click(hit, button: button)
    }

    public func displayKey(_ backend: any DisplayBackend, event: KeyEvent) {}

    // MARK: - Timers

    private func arm(_ fd: Int32, after seconds: Double) { _ = widgethost_timerfd_arm(fd, max(seconds, 1e-9), 0) }

    /// At `date` on the wall clock (a date before 1970 or past year 33 000 disarms).
    private func armAbsolute(_ fd: Int32, at date: Date) { _ = widgethost_timerfd_arm(fd, date.timeIntervalSince1970, 1) }

    private func disarm(_ fd: Int32) { _ = widgethost_timerfd_arm(fd, 0, 0) }

    /// Reads a timer's expirations (ECANCELED after the clock was set: the next `refresh`
    /// re-arms from the new time).
    private func drain(_ fd: Int32) {
        var count: UInt64 = 0
        _ = read(fd, &count, 8)
    }
}
