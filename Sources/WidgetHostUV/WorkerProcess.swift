import FoundationEssentials
import Logging
import OpenWidgetKit
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// One worker process (`<executable> worker --plugin <path>`) driven from the loop: the core's
/// `WorkerConnection` (DESIGN §3, docs/plugin-abi.md).
///
/// Requests are framed onto the worker's stdin; response frames from its stdout answer them in
/// order. Its stderr is read line by line (logged at debug; the last line is the failure reason).
/// A request that misses its deadline gets the worker SIGKILLed. When the worker exits, every
/// pending request fails with the reason, and `onExit` runs unless `stop()` was called.
///
/// The worker leads a process group of its own, and every kill goes to the whole group: a plugin
/// that forks cannot leave a child behind. The end of a worker is known from its exit (libuv's
/// exit callback), not from its pipes: at exit the group is killed (so no child it left keeps
/// running), and the pipes are read to their end for at most `drainMilliseconds` more — a child
/// that escaped the group (its own `setsid`) and still holds them cannot hide the exit.
///
/// A worker's stderr is read at a bounded rate (`stderrBytesPerSecond`, after a burst of
/// `stderrBurstBytes`): past it the host stops reading for a moment, the pipe fills and the
/// plugin blocks in `write` — a flood is throttled where it is written instead of costing the
/// host a core (issue 15); only the last line is kept (the failure reason), and lines are logged
/// at debug while within the rate. Loop thread only.
public final class WorkerProcess: WorkerConnection {
    private struct Pending {
        let request: WireRequest
        let reply: (Result<WireResponse, WorkerFailure>) -> Void
        let deadline: UInt64
    }

    public let pluginPath: String
    private let loop: UVLoop
    private let process: UVProcess
    private let logger: Logger
    private var decoder = FrameDecoder()
    private var memo = WireAnswerMemo()
    private var pending: [Pending] = []
    private var deadlineTimer: UVTimer?
    /// Request frames sent during this loop iteration, written together at its end: a reload
    /// round asks every widget of the bundle at once, and one write wakes the worker once.
    private var outgoing: [UInt8] = []
    private var flushTimer: UVTimer?
    private var killTimer: UVTimer?
    private var drainTimer: UVTimer?
    public static let stderrBytesPerSecond = 256.0 * 1024
    public static let stderrBurstBytes = 4.0 * 1024 * 1024
    private var stderrTokens = WorkerProcess.stderrBurstBytes
    private var stderrRefilled: UInt64 = 0
    private var stderrPaused = false
    private var stderrResume: UVTimer?
    private var floodLogged = false
    /// How long the pipes are read after the worker exited, for its last answer and stderr line.
    public static let drainMilliseconds: UInt64 = 500
    private var stderrLine: [UInt8] = []
    /// The last non-blank stderr line, as bytes (decoded only when it becomes a failure reason).
    private var lastStderrBytes: [UInt8]?
    private var lastStderrLine: String? { lastStderrBytes.map { String(decoding: $0, as: UTF8.self) } }
    /// Lines logged (at debug) in the current second, at most `loggedLinesPerSecond`.
    private var loggedLines = 0
    private var loggedSecond: UInt64 = 0
    private static let loggedLinesPerSecond = 50
    private var stopped = false
    private var exitStatus: (Int64, Int32)?
    private var timedOut: Double?
    private var openStreams = 2
    private var finished = false
    private var onExit: (WorkerFailure) -> Void
    /// Called once when the process has exited and its streams are drained, stopped or not.
    var onFinished: () -> Void = {}
    /// The process keeps its wrapper alive until it has exited and its streams are drained, so
    /// handles are always closed even after the owner lets go (e.g. after `stop()`).
    private var keepAlive: WorkerProcess?

    public var pid: Int32 { process.pid }
    /// The worker's bus proxies, when its sandbox spec has them (`--sandbox` at start, or in
    /// the settings after `describe`): started by the worker's first spec with a bus folder — one
    /// for its session-bus names, one for its system-bus names —, ended when the worker exits.
    /// Requests wait (`waitingForProxies`) until they listen, so no plugin code ever meets the
    /// folder without its sockets.
    private var busProxies: [BusProxyProcess]?
    private var waitingForProxies = 0
    private let busAddress: String?
    private let systemBusAddress: String?
    private let proxyEnvironment: [String: String]
    /// The session-bus proxy's pid (0: none), for `status` and the tests.
    public var busProxyPID: Int32 { busProxies?.first { $0.socketName == "bus" }?.pid ?? 0 }

    /// - Parameter argv0: what `ps` shows for the worker (the executable's own path when it is
    ///   started from a held descriptor, `/proc/self/fd/N`).
    /// - Parameter busAddress: the host's session bus, for a bus proxy (nil: none).
    /// - Parameter systemBusAddress: the host's system bus, for a system-bus proxy (nil: none).
    public init(loop: UVLoop, executable: String, argv0: String? = nil, pluginPath: String, arguments: [String] = [], environment: [String: String],
                busAddress: String? = nil, systemBusAddress: String? = nil, proxyEnvironment: [String: String] = [:],
                logger: Logger, onExit: @escaping (WorkerFailure) -> Void) throws(WorkerFailure) {
        self.loop = loop
        self.pluginPath = pluginPath
        self.logger = logger
        self.onExit = onExit
        self.busAddress = busAddress
        self.systemBusAddress = systemBusAddress
        self.proxyEnvironment = proxyEnvironment
        var exitBox: ((Int64, Int32) -> Void)?
        do {
            process = try UVProcess(loop: loop, executable: executable, argv0: argv0, arguments: ["worker", "--plugin", pluginPath] + arguments,
                                    environment: environment, ownGroup: true) { status, signal in exitBox?(status, signal) }
        } catch {
            throw WorkerFailure(error.description)
        }
        exitBox = { [weak self] status, signal in self?.exited(status: status, signal: signal) }
        deadlineTimer = UVTimer(loop: loop) { [weak self] in self?.deadlinePassed() }
        flushTimer = UVTimer(loop: loop) { [weak self] in self?.flushRequests() }
        process.stdoutPipe.onData = { [weak self] bytes in self?.stdoutData(bytes) }
        process.stdoutPipe.onEnd = { [weak self] in self?.streamEnded() }
        process.stderrPipe.onData = { [weak self] bytes in self?.stderrData(bytes) }
        process.stderrPipe.onEnd = { [weak self] in self?.streamEnded() }
        process.stdinPipe.onWriteError = { [weak self] status in
            self?.logger.debug("write to worker \(pluginPath) failed: \(UVError.describe(status))")
        }
        process.stdoutPipe.startReading()
        process.stderrPipe.startReading()
        keepAlive = self
        startBusProxy(for: arguments)
    }

    /// Starts the bus proxies the `--sandbox` spec in `arguments` asks for, once per worker.
    private func startBusProxy(for arguments: [String]) {
        guard busProxies == nil, let i = arguments.firstIndex(of: "--sandbox"), i + 1 < arguments.count,
              let spec = WorkerSandbox.Spec.parse(arguments[i + 1]), let directory = spec.busDirectory else { return }
        // The host makes no bus folder without a bus, nor names one it does not have.
        let wanted = [(busAddress, spec.busNames, "bus"), (systemBusAddress, spec.systemBusNames, "system")]
            .compactMap { address, names, socket in address.flatMap { names.isEmpty ? nil : ($0, names, socket) } }
        waitingForProxies = wanted.count
        busProxies = wanted.map { address, names, socket in
            BusProxyProcess(loop: loop, busAddress: address, directory: directory, socketName: socket, names: names,
                            environment: proxyEnvironment, logger: logger) { [weak self] in
                guard let self else { return }
                self.waitingForProxies -= 1
                if self.waitingForProxies == 0, !self.outgoing.isEmpty { self.flushTimer?.start(milliseconds: 0) }
            }
        }
    }

    public func send(_ request: WireRequest, timeout: Double, reply: @escaping (Result<WireResponse, WorkerFailure>) -> Void) {
        guard !stopped, exitStatus == nil else { reply(.failure(WorkerFailure("worker of \(pluginPath) is not running"))); return }
        let payload = memo.encode(request)
        pending.append(Pending(request: request, reply: reply, deadline: loop.nowMilliseconds + UInt64(max(1, timeout * 1000))))
        if pending.count == 1 { armDeadline() }
        if outgoing.isEmpty { flushTimer?.start(milliseconds: 0) }  // runs once this iteration's callbacks are done
        outgoing.append(contentsOf: Framing.frame(payload))
    }

    public func sendSettings(_ arguments: [String]) {
        guard !stopped, exitStatus == nil else { return }
        if outgoing.isEmpty { flushTimer?.start(milliseconds: 0) }
        outgoing.append(contentsOf: Framing.frame(WorkerSettings.encode(arguments)))
        startBusProxy(for: arguments)
    }

    private func flushRequests() {
        guard !outgoing.isEmpty, !stopped, exitStatus == nil else { outgoing = []; return }
        guard waitingForProxies == 0 else { return }  // sent when the proxies listen
        process.stdinPipe.write(outgoing)
        outgoing.removeAll(keepingCapacity: true)
    }

    public func stop() {
        guard !stopped else { return }
        stopped = true
        failAll(WorkerFailure("worker of \(pluginPath) was stopped"))
        outgoing = []
        process.stdinPipe.close()  // EOF: the worker exits 0
        if exitStatus == nil {
            killTimer = UVTimer(loop: loop) { [weak self] in self?.process.killGroup(SIGKILL) }
            killTimer?.start(milliseconds: 1000)
        }
    }

    private func armDeadline() {
        guard let head = pending.first else { deadlineTimer?.stop(); return }
        let now = loop.nowMilliseconds
        deadlineTimer?.start(milliseconds: head.deadline > now ? head.deadline - now : 0)
    }

    private func deadlinePassed() {
        guard let head = pending.first, exitStatus == nil else { return }
        if head.deadline > loop.nowMilliseconds { armDeadline(); return }
        timedOut = Double(head.deadline) / 1000
        logger.warning("worker of \(pluginPath) missed its deadline: killed")
        process.killGroup(SIGKILL)
    }

    private func stdoutData(_ bytes: [UInt8]) {
        let frames: [Data]
        do { frames = try decoder.append(bytes) } catch {
            failAll(WorkerFailure("\(pluginPath): \(error)"))
            process.killGroup(SIGKILL)
            return
        }
        for frame in frames {
            guard !pending.isEmpty else {
                // After `stop()` a late answer to a request it failed is expected, not news.
                if !stopped { logger.warning("worker of \(pluginPath) sent an unsolicited frame (\(frame.count) bytes)") }
                continue
            }
            let p = pending.removeFirst()
            armDeadline()
            do {
                p.reply(.success(try memo.decode(frame, answering: p.request)))
            } catch let invalid as WireValidationError {
                p.reply(.failure(WorkerFailure("\(pluginPath): timeline rejected: \(invalid)")))
            } catch {
                let preview = String(decoding: frame.prefix(80), as: UTF8.self)
                p.reply(.failure(WorkerFailure("\(pluginPath): the plugin answered with a malformed response (\(frame.count) bytes: \(preview.debugDescription))")))
            }
        }
    }

    private func stderrData(_ bytes: [UInt8]) {
        let now = loop.nowMilliseconds
        stderrTokens = min(Self.stderrBurstBytes, stderrTokens + Double(now - stderrRefilled) / 1000 * Self.stderrBytesPerSecond)
        stderrRefilled = now
        stderrTokens -= Double(bytes.count)
        if now / 1000 != loggedSecond { loggedSecond = now / 1000; loggedLines = 0 }
        var start = 0
        while let nl = bytes[start...].firstIndex(of: 0x0a) {
            stderrLine.append(contentsOf: bytes[start..<min(nl, start + max(0, 4096 - stderrLine.count))])
            if !stderrLine.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0d }) {
                lastStderrBytes = stderrLine
                if loggedLines < Self.loggedLinesPerSecond {
                    loggedLines += 1
                    logger.debug("plugin \(pluginPath.lastPathComponent): \(String(decoding: stderrLine, as: UTF8.self))")
                }
            }
            stderrLine.removeAll(keepingCapacity: true)
            start = nl + 1
        }
        stderrLine.append(contentsOf: bytes[start..<min(bytes.count, start + max(0, 4096 - stderrLine.count))])
        if stderrTokens < 0 && exitStatus == nil { pauseStderr() }
    }

    /// Over the rate: stop reading until the bucket has refilled to zero (at least 50 ms).
    private func pauseStderr() {
        if !floodLogged {
            floodLogged = true
            logger.warning("worker of \(pluginPath) floods its output: read at \(Int(Self.stderrBytesPerSecond / 1024)) KiB/s from now on")
        }
        stderrPaused = true
        process.stderrPipe.stopReading()
        if stderrResume == nil { stderrResume = UVTimer(loop: loop) { [weak self] in self?.resumeStderr() } }
        stderrResume?.start(milliseconds: max(50, UInt64(-stderrTokens / Self.stderrBytesPerSecond * 1000)))
    }

    private func resumeStderr() {
        guard stderrPaused else { return }
        stderrPaused = false
        process.stderrPipe.startReading()
    }

    private func exited(status: Int64, signal: Int32) {
        exitStatus = (status, signal)
        busProxies?.forEach { $0.stop() }
        deadlineTimer?.stop()
        killTimer?.close(); killTimer = nil
        process.killGroup(SIGKILL)  // whatever the worker started ends with it
        resumeStderr()  // drain what is left
        if openStreams > 0 {
            drainTimer = UVTimer(loop: loop) { [weak self] in
                guard let self, self.openStreams > 0 else { return }
                self.logger.warning("worker of \(self.pluginPath) exited but its pipes are still open (held by a process outside its group): closed")
                self.openStreams = 0
                self.finishIfDone()
            }
            drainTimer?.start(milliseconds: Self.drainMilliseconds)
        }
        finishIfDone()
    }

    private func streamEnded() {
        openStreams -= 1
        finishIfDone()
    }

    /// Reports the exit once the process has exited and both its output streams are drained,
    /// so the last response and the last stderr line are never lost.
    private func finishIfDone() {
        guard let (status, signal) = exitStatus, openStreams <= 0, !finished else { return }
        finished = true
        if !stderrLine.isEmpty { lastStderrBytes = stderrLine; stderrLine = [] }
        let how = signal != 0 ? "was killed by signal \(signal)" : "exited with status \(status)"
        let reason: String
        if timedOut != nil { reason = "\(pluginPath): worker missed its deadline and was killed" }
        else if let line = lastStderrLine, line.hasPrefix("widgethost worker:") { reason = line }
        else if let line = lastStderrLine { reason = "\(pluginPath): worker \(how): \(line)" }
        else { reason = "\(pluginPath): worker \(how)" }
        let failure = WorkerFailure(reason)
        failAll(failure)
        deadlineTimer?.close(); deadlineTimer = nil
        flushTimer?.close(); flushTimer = nil
        drainTimer?.close(); drainTimer = nil
        stderrResume?.close(); stderrResume = nil
        process.stdinPipe.close(); process.stdoutPipe.close(); process.stderrPipe.close()
        let cb = onExit
        onExit = { _ in }
        onFinished()
        onFinished = {}
        keepAlive = nil
        if !stopped { cb(failure) }
    }

    private func failAll(_ failure: WorkerFailure) {
        let p = pending
        pending = []
        deadlineTimer?.stop()
        for item in p { item.reply(.failure(failure)) }
    }
}

/// Starts workers as children of this process: `<executable> worker --plugin <path>`, where the
/// executable is the pinned `widgethost-worker` (`WorkerExecutable`: a replaced file cannot
/// cause version skew), in the host's environment cut to what a worker may see
/// (`WorkerSandbox.spawnEnvironment`), with `SWIFT_BACKTRACE=enable=no`
/// (the backtracer costs 30–60 ms per crash) and `WIDGETHOST_CONTAINERS` set. Loop thread only.
public final class UVWorkerLauncher: WorkerLauncher {
    private let loop: UVLoop
    private let executable: String
    private let argv0: String?
    private let logger: Logger
    public var containersRoot: String
    /// The pids of the workers started here that have not ended yet (each leads its process
    /// group): the control socket refuses them and what they start (`ControlPeerPolicy`).
    public private(set) var livePIDs: Set<Int32> = []

    /// - Parameter argv0: the workers' argv[0] (`WorkerProcess`).
    public init(loop: UVLoop, executable: String, argv0: String? = nil, containersRoot: String, logger: Logger) {
        self.loop = loop; self.executable = executable; self.argv0 = argv0; self.containersRoot = containersRoot; self.logger = logger
    }

    public func launch(pluginPath: String, onExit: @escaping (WorkerFailure) -> Void) -> Result<any WorkerConnection, WorkerFailure> {
        launch(pluginPath: pluginPath, arguments: [], onExit: onExit)
    }

    public func launch(pluginPath: String, arguments: [String], onExit: @escaping (WorkerFailure) -> Void) -> Result<any WorkerConnection, WorkerFailure> {
        let hostEnvironment = ProcessEnvironment.current()
        var env = WorkerSandbox.spawnEnvironment(hostEnvironment)
        env["SWIFT_BACKTRACE"] = "enable=no"
        env["WIDGETHOST_CONTAINERS"] = containersRoot
        do {
            let w = try WorkerProcess(loop: loop, executable: executable, argv0: argv0, pluginPath: pluginPath, arguments: arguments,
                                      environment: env, busAddress: hostEnvironment["DBUS_SESSION_BUS_ADDRESS"],
                                      systemBusAddress: BusProxyRule.systemBusAddress(hostEnvironment),
                                      proxyEnvironment: hostEnvironment, logger: logger, onExit: onExit)
            logger.debug("worker started: pid \(w.pid) for \(pluginPath)")
            let pid = w.pid
            livePIDs.insert(pid)
            w.onFinished = { [weak self] in self?.livePIDs.remove(pid) }
            return .success(w)
        } catch {
            return .failure(error)
        }
    }
}
