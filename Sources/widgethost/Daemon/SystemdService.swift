import FoundationEssentials
import Logging
import WidgetHostCore
import WidgetHostUV

/// The daemon's side of a `Type=notify` systemd service (dist/systemd/widgethost.service):
/// `READY=1` once the first outputs are written (`WidgetHost.hasSettled`, or at the latest after
/// `startupGraceSeconds`), `WATCHDOG=1` from the loop at half of `$WATCHDOG_USEC` (a stuck loop
/// stops the pings and systemd restarts the service), `RELOADING=1`/`READY=1` around a SIGHUP,
/// `STOPPING=1` on SIGTERM/SIGINT. Does nothing outside systemd.
///
/// Threading: loop thread only.
final class SystemdService {
    private let notifier: SystemdNotifier
    private let host: WidgetHost
    private let logger: Logger
    private var readiness: UVTimer?
    private var watchdog: UVTimer?
    private var ready = false
    private let loop: UVLoop
    private let started: UInt64

    init(loop: UVLoop, host: WidgetHost, notifier: SystemdNotifier, logger: Logger) {
        self.notifier = notifier
        self.host = host
        self.logger = logger
        self.loop = loop
        started = loop.nowMilliseconds
        guard notifier.isActive else { return }
        readiness = UVTimer(loop: loop) { [weak self] in self?.checkReady() }
        if let usec = notifier.watchdogMicroseconds {
            let interval = max(1, usec / 2000)  // half the timeout, in ms
            watchdog = UVTimer(loop: loop) { [weak self] in
                self?.notifier.send(["WATCHDOG=1"])
                self?.watchdog?.start(milliseconds: interval)
            }
            watchdog?.start(milliseconds: interval)
            logger.debug("systemd watchdog: a ping every \(interval) ms")
        }
    }

    /// Longest wait for the first outputs before `READY=1` anyway: a plugin that takes long
    /// cannot hold the service in "activating" (its own deadline kills it well before).
    var startupGraceSeconds: Double { 2 * host.config.defaults.requestTimeoutSeconds + 1 }

    /// Starts watching for readiness; call after `WidgetHost.start()`.
    func start() {
        guard notifier.isActive else { return }
        checkReady()
    }

    private func checkReady() {
        guard !ready else { return }
        let waited = Double(loop.nowMilliseconds - started) / 1000
        guard host.hasSettled || waited >= startupGraceSeconds else {
            readiness?.start(milliseconds: 20)
            return
        }
        ready = true
        readiness?.close(); readiness = nil
        notifier.send(["READY=1", "STATUS=\(summary())"])
        logger.info("ready: \(summary()) (\(Int((waited * 1000).rounded())) ms)")
    }

    private func summary() -> String {
        let n = host.scheduler.instances.count, b = host.registry.bundles.count
        return "\(n) widget\(n == 1 ? "" : "s") from \(b) bundle\(b == 1 ? "" : "s")"
    }

    /// SIGHUP received: the configuration is being read again.
    func reloading() {
        notifier.send(["RELOADING=1", "MONOTONIC_USEC=\(SystemdNotifier.monotonicMicroseconds())"])
    }

    /// The SIGHUP reload is applied (or rejected: the old configuration stays in force).
    func reloaded() {
        notifier.send(["READY=1", "STATUS=\(summary())"])
    }

    /// Shutting down: stop pinging the watchdog.
    func stopping() {
        notifier.send(["STOPPING=1"])
        readiness?.close(); readiness = nil
        watchdog?.close(); watchdog = nil
    }
}
