import FoundationEssentials
import Logging
import OpenWidgetKit
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The render process (`widgethost-render --serve`) driven from the loop: the core's
/// `PictureRenderConnection` (DESIGN §11). Request frames (`Framing`, as the workers') go to its
/// stdin, reply frames from its stdout answer them in order; its stderr is logged at debug and
/// its last line is the failure reason. It leads a process group of its own; a request past its
/// deadline gets the group SIGKILLed. When it exits, pending requests fail with the reason and
/// `onExit` runs unless `stop()` was called. Loop thread only.
public final class PictureRenderProcess: PictureRenderConnection {
    private struct Pending {
        let reply: (Result<PictureRenderReply, WorkerFailure>) -> Void
        let deadline: UInt64
    }

    private let loop: UVLoop
    private let process: UVProcess
    private let logger: Logger
    private var decoder = FrameDecoder()
    private var pending: [Pending] = []
    private var deadlineTimer: UVTimer?
    private var killTimer: UVTimer?
    private var stderrLine: [UInt8] = []
    private var lastStderrLine: String?
    private var stopped = false
    private var exited = false
    private var timedOut = false
    private var onExit: (WorkerFailure) -> Void
    /// Kept alive until the process has exited, so its handles are always closed.
    private var keepAlive: PictureRenderProcess?

    public var pid: Int32 { process.pid }

    public init(loop: UVLoop, executable: String, arguments: [String] = ["--serve"], environment: [String: String], logger: Logger,
                onExit: @escaping (WorkerFailure) -> Void) throws(WorkerFailure) {
        self.loop = loop
        self.logger = logger
        self.onExit = onExit
        var exitBox: ((Int64, Int32) -> Void)?
        do {
            process = try UVProcess(loop: loop, executable: executable, arguments: arguments, environment: environment,
                                    ownGroup: true) { status, signal in exitBox?(status, signal) }
        } catch {
            throw WorkerFailure(error.description)
        }
        exitBox = { [weak self] status, signal in self?.exited(status: status, signal: signal) }
        deadlineTimer = UVTimer(loop: loop) { [weak self] in self?.deadlinePassed() }
        process.stdoutPipe.onData = { [weak self] bytes in self?.stdoutData(bytes) }
        process.stderrPipe.onData = { [weak self] bytes in self?.stderrData(bytes) }
        process.stdinPipe.onWriteError = { [weak self] status in
            self?.logger.debug("write to the render process failed: \(UVError.describe(status))")
        }
        process.stdoutPipe.startReading()
        process.stderrPipe.startReading()
        keepAlive = self
    }

    public func send(_ payload: Data, timeout: Double, reply: @escaping (Result<PictureRenderReply, WorkerFailure>) -> Void) {
        // Killed at a deadline but not yet reaped: a new request would be blamed for that kill.
        guard !stopped, !exited, !timedOut else { reply(.failure(WorkerFailure("the render process is not running"))); return }
        pending.append(Pending(reply: reply, deadline: loop.nowMilliseconds + UInt64(max(1, timeout * 1000))))
        if pending.count == 1 { armDeadline() }
        process.stdinPipe.write([UInt8](Framing.frame(payload)))
    }

    public func stop() {
        guard !stopped else { return }
        stopped = true
        failAll(WorkerFailure("the render process was stopped"))
        process.stdinPipe.close()  // EOF: it exits 0
        if !exited {
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
        guard let head = pending.first, !exited else { return }
        if head.deadline > loop.nowMilliseconds { armDeadline(); return }
        timedOut = true
        logger.warning("the render process missed its deadline: killed")
        process.killGroup(SIGKILL)
    }

    private func stdoutData(_ bytes: [UInt8]) {
        guard !timedOut else { return }  // being killed: its late answers are not believed
        let frames: [Data]
        do { frames = try decoder.append(bytes) } catch {
            failAll(WorkerFailure("render process: \(error)"))
            process.killGroup(SIGKILL)
            return
        }
        for frame in frames {
            guard !pending.isEmpty else { continue }  // an answer to a request `stop()` failed
            let p = pending.removeFirst()
            armDeadline()
            do { p.reply(.success(try WireCodec.decode(PictureRenderReply.self, from: frame))) } catch {
                p.reply(.failure(WorkerFailure("the render process answered with a malformed reply (\(frame.count) bytes)")))
            }
        }
    }

    private func stderrData(_ bytes: [UInt8]) {
        for b in bytes {
            if b == 0x0a {
                let line = String(decoding: stderrLine, as: UTF8.self)
                if !line.allSatisfy(\.isWhitespace) {
                    lastStderrLine = line
                    logger.debug("render process: \(line)")
                }
                stderrLine.removeAll(keepingCapacity: true)
            } else if stderrLine.count < 4096 { stderrLine.append(b) }
        }
    }

    private func exited(status: Int64, signal: Int32) {
        exited = true
        deadlineTimer?.close(); deadlineTimer = nil
        killTimer?.close(); killTimer = nil
        process.killGroup(SIGKILL)
        let how = signal != 0 ? "was killed by signal \(signal)" : "exited with status \(status)"
        let reason: String
        if timedOut { reason = "the render process missed its deadline and was killed" }
        else if let line = lastStderrLine { reason = "the render process \(how): \(line)" }
        else { reason = "the render process \(how)" }
        let failure = WorkerFailure(reason)
        failAll(failure)
        process.stdinPipe.close(); process.stdoutPipe.close(); process.stderrPipe.close()
        let cb = onExit
        onExit = { _ in }
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

/// Starts `widgethost-render --serve --out DIR --memory-mb N` (next to `widgethost`, or
/// `WIDGETHOST_RENDER_EXECUTABLE`) with `SWIFT_BACKTRACE=enable=no` and the daemon's environment
/// cut to what drawing needs (`RenderEnvironment`); the process confines itself
/// to the `PictureRenderLimits` given. Loop thread only.
public final class UVPictureRenderLauncher: PictureRenderLauncher {
    private let loop: UVLoop
    private let executable: String
    private let logger: Logger

    public init(loop: UVLoop, executable: String, logger: Logger) {
        self.loop = loop; self.executable = executable; self.logger = logger
    }

    public func launch(_ limits: PictureRenderLimits, onExit: @escaping (WorkerFailure) -> Void) -> Result<any PictureRenderConnection, WorkerFailure> {
        var env = RenderEnvironment.cut(ProcessEnvironment.current())
        env["SWIFT_BACKTRACE"] = "enable=no"
        let arguments = ["--serve", "--out", limits.outDirectory, "--memory-mb", String(limits.memoryMB)]
        do {
            let p = try PictureRenderProcess(loop: loop, executable: executable, arguments: arguments, environment: env,
                                             logger: logger, onExit: onExit)
            logger.debug("render process started: pid \(p.pid) (\(executable))")
            return .success(p)
        } catch {
            return .failure(error)
        }
    }
}
