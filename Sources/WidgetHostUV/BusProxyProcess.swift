import CLibUV
import FoundationEssentials
import Logging
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// One of a worker's `xdg-dbus-proxy`s (docs/limits.md "D-Bus"): the bus at `busAddress` (the
/// session bus, or the system bus), filtered to the worker's declared names for it
/// (`BusProxyRule.proxyArguments`), listening at `<directory>/<socketName>` (`bus`, `system`) —
/// the folder the worker's sandbox binds (`WorkerSandbox.Spec.busDirectory`).
///
/// Its life is tied to a pipe: the proxy holds the write end (`--fd=3`), writes one byte to it
/// when it listens (`ready` runs, once, also when it failed: then the worker finds no bus), and
/// exits when the read end, which only this host holds, is closed — by `stop()` (the worker's
/// exit), or by the kernel when the host itself ends, even by SIGKILL. `stop()` also sends it
/// SIGTERM and removes the socket and the folder. Loop thread only.
public final class BusProxyProcess {
    public let directory: String
    public let socketName: String
    private var process: UVProcess?
    private var sync: UVPipe?
    private var ready: (() -> Void)?
    private let logger: Logger
    private var lastLine = ""
    public private(set) var pid: Int32 = 0

    /// Starts the proxy; on failure to start, logs why and calls `ready` at once (the worker then
    /// meets no bus, and its widget shows its own "no bus" state).
    public init(loop: UVLoop, busAddress: String, directory: String, socketName: String = "bus", names: [String],
                environment: [String: String], logger: Logger, ready: @escaping () -> Void) {
        self.directory = directory
        self.socketName = socketName
        self.logger = logger
        self.ready = ready
        var fds: [uv_file] = [-1, -1]
        let made = uv_pipe(&fds, 0, 0)  // both ends close-on-exec: only the proxy's copy at 3 is inherited
        guard made == 0 else {
            logger.error("bus proxy for \(directory)/\(socketName): cannot make its pipe: \(UVError.describe(made))")
            finishReady(); return
        }
        let arguments = BusProxyRule.proxyArguments(busAddress: busAddress, socket: directory + "/" + socketName, names: names, syncFD: 3)
        do {
            let p = try UVProcess(loop: loop, executable: "xdg-dbus-proxy", arguments: arguments, environment: environment,
                                  passing: [fds[1]]) { [weak self] status, signal in self?.exited(status: status, signal: signal) }
            process = p
            pid = p.pid
            p.stdinPipe.close()
            p.stdoutPipe.onData = { _ in }
            p.stdoutPipe.startReading()
            p.stderrPipe.onData = { [weak self] bytes in self?.stderr(bytes) }
            p.stderrPipe.startReading()
        } catch {
            logger.error("bus proxy for \(directory)/\(socketName): \(error) (install xdg-dbus-proxy: scripts/install-deps.sh)")
        }
        Glibc.close(fds[1])
        guard process != nil, let s = UVPipe.open(loop: loop, fd: fds[0]) else { Glibc.close(fds[0]); finishReady(); return }
        sync = s
        s.onData = { [weak self] _ in self?.finishReady() }
        s.onEnd = { [weak self] in self?.finishReady() }
        s.startReading()
        logger.debug("bus proxy started: pid \(pid) at \(directory)/\(socketName) for \(names.joined(separator: " "))")
    }

    private func finishReady() {
        let r = ready
        ready = nil
        r?()
    }

    private func stderr(_ bytes: [UInt8]) {
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.isEmpty {
            lastLine = String(line.prefix(400))
            logger.debug("bus proxy \(directory)/\(socketName): \(lastLine)")
        }
    }

    private func exited(status: Int64, signal: Int32) {
        process = nil
        if ready != nil {
            logger.warning("bus proxy for \(directory)/\(socketName) ended before it listened (status \(status), signal \(signal)): \(lastLine)")
        }
        finishReady()
    }

    /// Ends the proxy (closing its pipe, and SIGTERM) and removes its socket, and the folder
    /// once the worker's other proxy has removed its own.
    public func stop() {
        ready = nil
        sync?.close()
        sync = nil
        process?.kill(SIGTERM)
        unlink(directory + "/" + socketName)
        rmdir(directory)
    }
}
