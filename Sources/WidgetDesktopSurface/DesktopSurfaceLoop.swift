import CSurfaceLoop
import FoundationEssentials
import OpenWidgetKit
import WidgetConfigEditing
import WidgetDesktopScene
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The lean surface's main loop: one thread in `poll(2)` on the display backend's descriptor,
/// the view stream's socket, a realtime timerfd at the scene's next live-date tick (re-armed
/// after the clock is set or a suspend: `TFD_TIMER_CANCEL_ON_SET`), a monotonic one for
/// reconnecting to the host, and a signalfd for SIGTERM/SIGINT. It asks the backend for a buffer
/// only where the `DesktopScene` has something new (the backend lends none while a window is
/// covered) and presents only the damaged rectangles. While no host streams, the last widgets
/// stay, dimmed and marked "not running", and the stream is retried (0.25 s doubling to 2 s).
/// Input goes to the scene; the `SceneAction`s it returns are performed by `WidgetActions`.
///
/// Threading: the thread that calls `run()`, which owns backend, stream and scene.
public final class DesktopSurfaceLoop: DisplayBackendDelegate {
    private let backend: any DisplayBackend
    private let stream: ViewStreamClient
    private let scene: DesktopScene
    private let actions: WidgetActions
    private let log: (String) -> Void
    private let clock: () -> Date
    /// What the backend was last told, per output.
    private var areas: [DisplayOutput.ID: LogicalRect] = [:]
    private var inputRegions: [DisplayOutput.ID: [LogicalRect]] = [:]
    private var keyboard: [DisplayOutput.ID: Bool] = [:]
    private var outputsStale = true
    /// A layout came (a snapshot): which widgets go on which output is worked out again.
    private var assignmentStale = true
    private var assignment = OutputAssignment()
    private var waitingSaid: [String: [String]] = [:]
    private var snapshotPending = false
    private var tickTimer: Int32 = -1
    private var retryTimer: Int32 = -1
    private var signals: Int32 = -1
    private var retryDelay = 0.25
    private var hostMissingSaid = false
    /// Called after each snapshot with the number of widgets placed (the start-up line).
    public var onSnapshot: (Int) -> Void = { _ in }
    /// Called once, after the first frame put on screen with every widget laid out
    /// (`DesktopScene.everyWidgetLaidOut`): the start-up is over (`ProcessMemory`).
    public var onFirstFullFrame: (() -> Void)?
    /// Called with each snapshot's layout before the grid is placed (the backend's fallback scale).
    public var onLayout: (DesktopViewMessage.Layout) -> Void = { _ in }
    /// Keyboard focus for the scene's menu and edit mode, when the backend can take it.
    public var setKeyboardWanted: (Bool, DisplayOutput.ID) -> Void = { _, _ in }
    /// More descriptors to serve (the AT-SPI bridge), polled after the loop's own.
    public var sources: [any SurfaceLoopSource] = []
    /// The benchmark's frame log (`FrameTimingLog`), nil when off: a line after each frame.
    public var frameLog: FrameTimingLog?
    /// With a frame log: waits until the display server has handled what was flushed (X11:
    /// `XSync`), so a frame's line is written once its pixels are on screen.
    public var syncDisplay: () -> Void = {}
    private var presented = false

    public init(backend: any DisplayBackend, stream: ViewStreamClient, scene: DesktopScene, actions: WidgetActions,
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
        while true {
            refresh()
            for source in sources { source.sceneRefreshed(scene, outputs: backend.outputs) }
            do { try backend.flush() } catch { return displayLost(error) }
            if presented, let frameLog {
                presented = false
                syncDisplay()
                frameLog.framePresented()
            }
            var fds = [pollfd(fd: backend.pollDescriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: stream.descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: tickTimer, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: retryTimer, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: signals, events: Int16(POLLIN), revents: 0)]
                + sources.map { pollfd(fd: $0.pollDescriptor, events: Int16(POLLIN), revents: 0) }
            // Xlib reads events into its queue while it waits for a reply (the X11 backend's
            // MIT-SHM sync): those wake no poll, so do not sleep while any wait there.
            let queued = (backend as? DisplayEventQueue)?.hasQueuedEvents ?? false
            let n = poll(&fds, nfds_t(fds.count), queued ? 0 : -1)
            if n < 0 { if errno == EINTR { continue }; log("poll: \(String(cString: strerror(errno)))"); return 1 }
            if fds[4].revents != 0 {
                // Take the signal: left pending on this thread (SIGTERM stays blocked), it would
                // stop at once the next loop run on it (the tests' loops share pool threads).
                var info = [UInt8](repeating: 0, count: 128)
                _ = read(signals, &info, info.count)
                return 0
            }
            // The display every round: Xlib may hold events read along with a reply.
            do { try backend.dispatch() } catch { return displayLost(error) }
            if fds[1].revents != 0 { readStream() }
            if fds[2].revents != 0 {
                drain(tickTimer)
                if scene.tick(now: clock()) { frameLog?.note("tick") }
            }
            if fds[3].revents != 0 { drain(retryTimer); connectStream() }
            for (i, source) in sources.enumerated() where fds[5 + i].revents != 0 { source.dispatch() }
        }
    }

    private func displayLost(_ error: any Error) -> Int32 {
        log("the display went away (\(error)); stopping")
        return 1
    }

    // MARK: - The stream

    /// Connects to the host again (a new `watch`: the stream's `colorScheme` changed); a host
    /// not there is retried as ever.
    public func reconnectStream() {
        stream.close()
        retryDelay = 0.25
        connectStream()
    }

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
                if m.snapshot, let layout = m.layout { onLayout(layout) }
                scene.apply(m, now: clock())
                if m.snapshot { snapshotPending = true }
                if m.layout != nil { assignmentStale = true }
                if let frameLog {
                    if m.snapshot { frameLog.note("snapshot") }
                    for w in m.widgets { frameLog.note(w.id) }
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

    // MARK: - Drawing

    /// Tells the backend where the scene's areas, input regions and keyboard wishes are now,
    /// draws every output that has something new and a buffer to draw into, and re-arms the tick.
    private func refresh() {
        let outputs = backend.outputs
        if outputsStale || assignmentStale {
            // Each widget on the output(s) its `desktop.output(s)` selector means now; those
            // whose monitor is away wait, and come back with it.
            let placed = scene.layout.map { assignment.assign($0, to: outputs) }
            scene.setOutputs(outputs, widgets: placed?.widgets ?? [:])
            if let waiting = placed?.waiting, waiting != waitingSaid {
                waitingSaid = waiting
                for (selector, ids) in waiting.sorted(by: { $0.key < $1.key }) {
                    log("\(ids.joined(separator: ", ")) wait(s) for the output \"\(selector)\" (connected: \(outputs.map(Self.describe).joined(separator: "; ")))")
                }
            }
            assignmentStale = false
        }
        // After the outputs changed, every area again: a monitor unplugged and plugged back keeps
        // its id, but its window went with it. What was sent to an output still there is kept,
        // so one whose widgets went to another monitor (the primary moved) loses its window.
        let resend = outputsStale
        if outputsStale {
            outputsStale = false
            inputRegions = [:]; keyboard = [:]
            areas = areas.filter { id, _ in outputs.contains { $0.id == id } }
        }
        for output in outputs {
            let area = scene.area(on: output.id)
            if area != areas[output.id] || (resend && area != nil) {
                backend.setArea(area, on: output.id)
                areas[output.id] = area
                inputRegions[output.id] = nil
            }
            guard area != nil else { continue }
            let region = scene.inputRegion(on: output.id)
            if region != inputRegions[output.id] {
                backend.setInputRegion(region, on: output.id)
                inputRegions[output.id] = region
            }
            if scene.wantsKeyboard != (keyboard[output.id] ?? false) {
                keyboard[output.id] = scene.wantsKeyboard
                setKeyboardWanted(scene.wantsKeyboard, output.id)
            }
        }
        if snapshotPending {
            snapshotPending = false
            onSnapshot(outputs.reduce(0) { $0 + (scene.placement(on: $1.id)?.widgets.count ?? 0) })
        }
        var drewFull = false
        for output in outputs where scene.needsFrame(on: output.id) {
            guard let buffer = backend.nextBuffer(for: output.id) else { continue }
            let damage = scene.draw(into: buffer)
            if !damage.isEmpty { backend.present(buffer, damage: damage); presented = true; drewFull = scene.everyWidgetLaidOut }
        }
        if drewFull, let first = onFirstFullFrame { onFirstFullFrame = nil; first() }
        if let next = scene.nextTick(after: clock()) { armAbsolute(tickTimer, at: next) } else { disarm(tickTimer) }
    }

    public func displayOutputsChanged(_ backend: any DisplayBackend) { outputsStale = true }

    /// "DP-1 (Dell Inc. DELL U2720Q 9XKL2)", for the log.
    static func describe(_ o: DisplayOutput) -> String {
        let identity = OutputAssignment.identity(of: o)
        return identity.isEmpty ? o.connector : "\(o.connector) (\(identity))"
    }

    /// The X11 backend repaints exposures from its own buffer; a frame wanted for any other
    /// reason comes with a buffer whose `age` says what it holds, so the scene need do nothing.
    public func displayFrameWanted(_ backend: any DisplayBackend, output: DisplayOutput.ID) {}

    public func displayPointer(_ backend: any DisplayBackend, event: PointerEvent) {
        let where_ = pixelPoint(event)
        perform(scene.handle(event), at: where_)
    }

    public func displayKey(_ backend: any DisplayBackend, event: KeyEvent) { perform(scene.handle(event), at: nil) }

    /// Input from a `SurfaceLoopSource` (an assistive technology's action), handled as the
    /// display's pointer events are.
    public func inject(_ event: PointerEvent) { perform(scene.handle(event), at: pixelPoint(event)) }

    /// The event's point in the widget's picture pixels, for the click's log line.
    private func pixelPoint(_ event: PointerEvent) -> String? {
        guard let w = scene.placement(on: event.output)?.widget(atX: event.x, y: event.y),
              let scale = backend.outputs.first(where: { $0.id == event.output })?.scale else { return nil }
        return "\(WidgetActions.wholePixel((event.x - w.frame.x) * scale)),\(WidgetActions.wholePixel((event.y - w.frame.y) * scale))"
    }

    private func perform(_ action: SceneAction, at point: String?) {
        switch action {
        case .nothing: break
        case .click(let id, _):
            if let request = action.controlRequest { actions.click(request, widget: id, at: point) }
        case .editWidget(let id): actions.editWidget(id)
        case .removeWidget(let id): actions.remove(id)
        case .move(let id, .before(let other)): actions.move(id, to: .before(other))
        case .move(let id, .index(let i)): actions.move(id, to: .position(i))
        case .openGallery: actions.openGallery()
        }
    }

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

/// The gallery's drags: the scene shows where the widget would land (`DropSlot(adding:)`) and
/// a drop adds it there (`WidgetActions.addDropped`, one edit of config.json). A payload that
/// cannot be read is refused while dragging (the source shows it) and logged when dropped.
extension DesktopSurfaceLoop: DisplayDropDelegate {
    public func displayDragOver(_ backend: any DisplayBackend, output: DisplayOutput.ID, x: Double, y: Double, payload: [UInt8]?) -> Bool {
        guard let payload else { return true }   // read at once; until then nothing to show
        guard let p = try? WidgetDragPayload(bytes: payload), let family = WidgetFamily(rawValue: p.placement.family) else {
            scene.dragInEnded()
            return false
        }
        return scene.dragIn(family: family, output: output, x: x, y: y) != nil
    }

    public func displayDrop(_ backend: any DisplayBackend, output: DisplayOutput.ID, x: Double, y: Double, payload: [UInt8]) -> Bool {
        var destination: GridDestination?
        if let p = try? WidgetDragPayload(bytes: payload), let family = WidgetFamily(rawValue: p.placement.family) {
            destination = scene.dragIn(family: family, output: output, x: x, y: y)?.destination
        }
        scene.dragInEnded()
        return actions.addDropped(payload, at: destination)
    }

    public func displayDragEnded(_ backend: any DisplayBackend) { scene.dragInEnded() }

    /// While a drag is on, the scene's areas hold the grid's reach (`DesktopScene.dragInPossible`).
    public func displayDragPossible(_ backend: any DisplayBackend, _ possible: Bool) { scene.dragInPossible = possible }
}

/// A display backend whose connection library can hold events already read from its
/// descriptor (Xlib's queue): the loop dispatches without polling while it does. Called on the
/// surface's thread.
public protocol DisplayEventQueue: AnyObject {
    /// Events read and not yet dispatched.
    var hasQueuedEvents: Bool { get }
}
