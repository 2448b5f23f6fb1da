import FoundationEssentials
import Logging
import WidgetHostCore
import WidgetHostUV
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's interactive side (DESIGN §8, §9): the control socket (`reload`, `click`,
/// `status`, and `watch`, which turns its connection into a subscription to the desktop view
/// stream), i3bar click events read from stdin, and the URL opener. Control connections are
/// held to a `ControlConnectionTable` (a cap from the descriptor limit, an idle timeout that
/// also ends half-sent lines; a subscription is a request in progress until it ends, so it is
/// neither idle nor evicted). Loop thread only.
final class DaemonControl {
    private let loop: UVLoop
    private let host: WidgetHost
    private let logger: Logger
    private let service: ControlService
    private var server: UVPipeServer?
    private var clients: [Int: UVPipe] = [:]
    /// The connections that are view-stream subscriptions.
    private var subscriptions: Set<Int> = []
    private var nextClient = 0
    private var table = ControlConnectionTable(capacity: ControlConnectionTable.capacity(forFileLimit: DaemonControl.fileLimit()))
    private var sweepTimer: UVTimer?
    private var refusedSinceLog = 0
    private var stdinPipe: UVPipe?
    private var clickParser = I3BarClickParser()

    /// The pids of this host's live workers, which the socket refuses (`ControlPeerPolicy`).
    private let workerPIDs: () -> Set<Int32>
    private var refusedPeersLogged = 0

    init(loop: UVLoop, host: WidgetHost, workerPIDs: @escaping () -> Set<Int32>, logger: Logger) {
        self.loop = loop
        self.workerPIDs = workerPIDs
        self.host = host
        self.logger = logger
        service = ControlService(host: host, pid: getpid(), logger: logger)
        host.openURL = { [weak self] url in self?.open(url) }
    }

    /// Listens on the control socket at `path`; a failure is logged, the host runs without it.
    func listen(path: String) {
        do {
            server = try UVPipeServer(loop: loop, path: path) { [weak self] client in self?.accept(client) }
            logger.debug("control socket: \(path)")
        } catch {
            logger.error("no control socket: \(error)")
        }
    }

    private var now: Double { Double(loop.nowMilliseconds) / 1000 }

    private func accept(_ client: UVPipe) {
        // A plugin may find the socket; neither it nor anything it started may use it.
        if let why = ControlPeerPolicy.refusal(peer: client.peerProcessID() ?? 0, workers: workerPIDs(), hostPID: getpid(),
                                               table: ControlPeerPolicy.LiveProcessTable()) {
            refusedPeersLogged += 1
            if refusedPeersLogged <= 5 || refusedPeersLogged.nonzeroBitCount == 1 {
                logger.warning("control socket: refused \(why) (\(refusedPeersLogged) refused so far)")
            }
            client.close()
            return
        }
        nextClient += 1
        let key = nextClient
        if let evicted = table.admit(key, now: now) {
            refusedSinceLog += 1
            if refusedSinceLog == 1 { logger.warning("control socket: \(table.capacity) connections open, the quietest is closed for a new one") }
            if evicted == key { client.close(); return }
            drop(evicted)
        }
        clients[key] = client
        var splitter = LineSplitter(maxLine: 64 << 10)
        client.onData = { [weak self, weak client] chunk in
            guard let self, let client else { return }
            self.table.activity(key, now: self.now)
            guard let lines = try? splitter.feed(chunk) else { self.drop(key); return }
            // A subscriber's further lines are not requests: answers would break its stream.
            guard !self.subscriptions.contains(key) else { return }
            for line in lines where !line.isEmpty {
                if let request = try? ControlCodec.decode(ControlRequest.self, line: line), request.op == .watch {
                    self.watch(key, client, request)
                    return
                }
                self.table.requestStarted(key, now: self.now)
                self.service.handle(line: line) { [weak self, weak client] reply in
                    guard let self else { return }
                    self.table.requestEnded(key, now: self.now)
                    self.armSweep()
                    client?.write(reply)
                }
            }
        }
        client.onEnd = { [weak self] in self?.drop(key) }
        client.onWriteError = { [weak self] _ in self?.drop(key) }
        client.startReading()
        armSweep()
    }

    /// Sweeps in a second while a connection could become idle; a view-stream subscriber alone
    /// never does, so a host serving only the desktop surface wakes for its entries, not for this.
    private func armSweep() {
        guard table.hasConnectionWithoutRequest else { return }
        if sweepTimer == nil { sweepTimer = UVTimer(loop: loop) { [weak self] in self?.sweep() } }
        if sweepTimer?.isActive == false { sweepTimer?.start(milliseconds: 1000) }
    }

    /// Makes connection `key` a subscriber of the desktop view stream, or tells it why not and
    /// closes it once that is written. A colour scheme it says is the desktop's from then on.
    private func watch(_ key: Int, _ client: UVPipe, _ request: ControlRequest) {
        table.requestStarted(key, now: now)  // ended only by the connection's end
        subscriptions.insert(key)
        let scheme: PictureSettings.ColorScheme?
        do { scheme = try request.watchedColorScheme() } catch {
            logger.warning("control socket: watch refused: \(error)")
            client.onWriteCompleted = { [weak self] in self?.drop(key) }
            client.write(ControlCodec.encode(ControlResponse.failure(error.description)))
            return
        }
        if let scheme { host.desktopColorSchemeReported(scheme) }
        let connection = ViewStreamConnection(pipe: client, onDrained: { [weak self] in self?.host.desktopView.drained(key) },
                                              onClose: { [weak self] _ in self?.drop(key) })
        if let refusal = host.desktopView.subscribe(id: key, connection) {
            logger.warning("control socket: watch \(refusal)")
            client.onWriteCompleted = { [weak self] in self?.drop(key) }
            client.write(ControlCodec.encode(ControlResponse.failure(refusal)))
        }
    }

    /// Closes idle connections (and those stuck on half a line); runs every second while any
    /// connection has no request in progress (`armSweep`).
    private func sweep() {
        for key in table.idle(now: now) { drop(key) }
        if table.count == 0 { refusedSinceLog = 0 }
        armSweep()
    }

    private func drop(_ key: Int) {
        table.remove(key)
        if subscriptions.remove(key) != nil { host.desktopView.unsubscribe(key) }
        clients.removeValue(forKey: key)?.close()
    }

    static func fileLimit() -> Int {
        var lim = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &lim) == 0 else { return 1024 }
        return Int(min(lim.rlim_cur, 1 << 20))  // RLIM_INFINITY is the largest value
    }

    /// Reads i3bar click events from stdin and routes them to the widgets. Only a pipe or socket
    /// is read (what i3bar and swaybar give their status command); stdin on /dev/null (systemd's
    /// `StandardInput=null`), a file, a terminal or closed just means no clicks.
    func readClicks() {
        if let why = UVPipe.unusableReason(fd: 0) {
            logger.info("stdin is \(why): i3bar click events are not read"); return
        }
        guard let pipe = UVPipe.open(loop: loop, fd: 0) else {
            logger.warning("stdin cannot be read as a pipe: i3bar click events are not read"); return
        }
        stdinPipe = pipe
        pipe.onData = { [weak self] chunk in
            guard let self else { return }
            for click in self.clickParser.feed(chunk) { self.route(click) }
        }
        pipe.onEnd = { [weak self] in self?.stdinPipe?.close(); self?.stdinPipe = nil }
        pipe.startReading()
    }

    private func route(_ click: I3BarClick) {
        guard let id = click.name else { logger.warning("i3bar click without a block name ignored"); return }
        logger.info("i3bar click on \(id) (button \(click.button ?? 1))")
        host.click(id: id, button: click.button, target: nil) { [weak self] r in
            if !r.ok { self?.logger.warning("click on \(id): \(r.error ?? "failed")") }
            else { self?.logger.info("click on \(id): \(r.message ?? "done")") }
        }
    }

    /// Runs `defaults.opener` with `url`.
    private func open(_ url: String) {
        let argv = host.config.defaults.opener
        logger.info("opening \(url) with \(argv.joined(separator: " "))")
        do {
            let p = try UVProcess(loop: loop, executable: argv[0], arguments: Array(argv.dropFirst()) + [url],
                                  environment: ProcessEnvironment.current()) { [weak self] status, signal in
                if status != 0 || signal != 0 { self?.logger.warning("opener \(argv[0]) exited with status \(status) signal \(signal)") }
            }
            p.stdinPipe.close()
            for pipe in [p.stdoutPipe, p.stderrPipe] {
                pipe.onEnd = { [weak pipe] in pipe?.close() }
                pipe.startReading()
            }
        } catch {
            logger.error("cannot open \(url): \(error)")
        }
    }

    /// Stops listening (the socket file is removed) and closes every connection.
    func close() {
        server?.closeAndRemove(); server = nil
        for c in clients.values { c.close() }
        clients = [:]
        subscriptions = []
        sweepTimer?.close(); sweepTimer = nil
        stdinPipe?.close(); stdinPipe = nil
    }
}
