import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Running WidgetHost as a long-lived service: one daemon per configuration (issue 14).
@Suite(.serialized) struct ServiceTests {
    let id = "probe-systemSmall"

    @Test func aSecondRunOnTheSameConfigIsRefusedAndTheFirstKeepsServing() throws {
        let d = try RunningDaemon()
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        // `timeout` only guards the test against a second daemon that would run forever.
        let second = run("/usr/bin/timeout", ["30", TestPaths.widgethost, "run", "--config", d.dir.path + "/config.json"])
        #expect(second.status == 3, "stderr:\n\(second.stderr)")
        #expect(second.stderr.contains("already running"))
        #expect(second.stderr.contains("pid \(d.pid)"), "names the running daemon: \(second.stderr)")
        #expect(FileManagerFree.read(d.dir.path + "/state/daemon.lock") == "\(d.pid)\n")
        // The first one still serves: a container write still reaches its output.
        d.writeContainer("group.probe", "value.txt", "still here")
        #expect(eventually { d.text(id) == "v1 still here #0" }, "stderr:\n\(d.stderr)")
        #expect(kill(d.pid, 0) == 0)
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0)
        // Once it has stopped, the configuration is free again.
        let again = try RunningDaemon(config: RunningDaemon.defaultConfig)
        #expect(eventually { FileManagerFree.read(again.dir.path + "/state/daemon.lock") == "\(again.pid)\n" })
    }

    @Test func statusReportsAnEmptyPluginFolder() throws {
        let d = try RunningDaemon()
        let config = ["--config", d.dir.path + "/config.json"]
        var r = ProcessResult(status: -1, stdout: "", stderr: "")
        #expect(eventually { r = run(TestPaths.widgethost, ["status"] + config); return r.status == 0 }, "\(r.stderr)")
        #expect(r.stdout.contains("no plugins in \(d.dir.path)/Plugins: drop bundles (.so files) there"), "\(r.stdout)")
    }

    @Test func differentConfigsRunSideBySide() throws {
        // One runtime directory for both, as in a login session: the sockets must still differ.
        let runtime = TempDir()
        defer { runtime.remove() }
        let env = ["XDG_RUNTIME_DIR": runtime.path]
        let a = try RunningDaemon(environment: env), b = try RunningDaemon(environment: env)
        let so = try buildProbe(in: a.dir.path, name: "probe", defines: ["PROBE_STEP=600"])
        a.install(so, as: "probe.so")
        b.install(so, as: "probe.so")
        #expect(eventually { a.text(id) == "v1 none #0" }, "stderr:\n\(a.stderr)")
        #expect(eventually { b.text(id) == "v1 none #0" }, "stderr:\n\(b.stderr)")
        #expect(kill(a.pid, 0) == 0 && kill(b.pid, 0) == 0)
        // Each CLI finds its own daemon: the control sockets differ.
        for d in [a, b] {
            let r = run(TestPaths.widgethost, ["status", "--config", d.dir.path + "/config.json"], environment: env)
            #expect(r.stdout.hasPrefix("widgethost pid \(d.pid)\n"), "\(r.stdout)\(r.stderr)")
        }
    }
}

/// A fake systemd: a datagram socket the daemon is told about in `$NOTIFY_SOCKET`, at a path
/// or at an abstract address (`@name`). Records every message with its arrival time.
final class FakeNotifySocket {
    let address: String
    private let fd: Int32
    private let dir = TempDir()
    private(set) var messages: [(time: Double, text: String)] = []

    init(abstract: Bool = false) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var bytes: [UInt8]
        if abstract {
            let name = "widgethost-test-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            address = "@" + name
            bytes = [0] + Array(name.utf8)
        } else {
            address = dir.path + "/notify.sock"
            bytes = Array(address.utf8) + [0]
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in bytes.enumerated() { buf[i] = b } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        try #require(rc == 0, "bind: \(String(cString: strerror(errno)))")
    }

    deinit { close(fd); dir.remove() }

    /// Reads what has arrived, waiting up to `timeout` seconds for `condition` to hold.
    @discardableResult
    func receive(timeout: Double = 20, until condition: ([String]) -> Bool) -> Bool {
        let deadline = monotonicNow() + timeout
        while !condition(messages.map(\.text)) {
            let left = deadline - monotonicNow()
            if left <= 0 { return false }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000) + 1) > 0 else { continue }
            var buf = [UInt8](repeating: 0, count: 4096)
            let n = recv(fd, &buf, buf.count, 0)
            if n > 0 { messages.append((monotonicNow(), String(decoding: buf[0..<n], as: UTF8.self))) }
        }
        return true
    }

    func times(of text: String) -> [Double] { messages.filter { $0.text == text }.map(\.time) }
}

/// The systemd protocol against a fake notify socket, and the unit files against systemd itself.
@Suite(.serialized) struct SystemdTests {
    @Test func readyAfterTheFirstOutputsThenWatchdogPingsThenStopping() throws {
        let notify = try FakeNotifySocket()
        let d = try RunningDaemon(environment: ["NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "400000"]) { dir in
            _ = try buildProbe(in: dir + "/Plugins", name: "probe")
        }
        #expect(notify.receive { $0.contains { $0.hasPrefix("READY=1\n") } }, "stderr:\n\(d.stderr)")
        // READY came once the first outputs were on disk: they are there when it arrives.
        #expect(d.text("probe-systemSmall")?.hasPrefix("v1 none #") == true, "stderr:\n\(d.stderr)")
        let ready = try #require(notify.messages.first { $0.text.hasPrefix("READY=1") })
        #expect(ready.text.contains("STATUS=") && ready.text.contains("from 1 bundle"), "\(ready.text)")
        // WATCHDOG=1 every 200 ms (half of WATCHDOG_USEC).
        #expect(notify.receive { $0.filter { $0 == "WATCHDOG=1" }.count >= 8 })
        let pings = notify.times(of: "WATCHDOG=1")
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }.sorted()
        let median = gaps[gaps.count / 2]
        #expect(median > 0.15 && median < 0.6, "median gap \(median) s for an interval of 0.2 s: \(gaps)")
        d.signal(SIGTERM)
        #expect(notify.receive { $0.contains("STOPPING=1") })
        #expect(d.waitForExit() == 0)
    }

    @Test func abstractAddressesAndReloadsAndAWatchdogForAnotherPid() throws {
        let notify = try FakeNotifySocket(abstract: true)
        // WATCHDOG_PID names another process: the watchdog is not ours, no pings.
        let d = try RunningDaemon(environment: ["NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"])
        #expect(notify.receive { $0.contains { $0.hasPrefix("READY=1") } }, "stderr:\n\(d.stderr)")
        d.signal(SIGHUP)
        #expect(notify.receive { $0.contains { $0.hasPrefix("RELOADING=1\nMONOTONIC_USEC=") } })
        #expect(notify.receive { $0.filter { $0.hasPrefix("READY=1") }.count == 2 })
        usleep(500_000)
        notify.receive(timeout: 0.1) { _ in false }
        #expect(notify.times(of: "WATCHDOG=1").isEmpty)
        d.signal(SIGTERM)
        #expect(notify.receive { $0.contains("STOPPING=1") })
    }

    @Test func theUnitFilesVerify() throws {
        guard let analyze = systemdAnalyze() else { return }
        let home = TempDir()
        defer { home.remove() }
        mkdir(home.path + "/.local", 0o755); mkdir(home.path + "/.local/bin", 0o755)
        mkdir(home.path + "/run", 0o700)
        symlink(TestPaths.widgethost, home.path + "/.local/bin/widgethost")
        let env = ["HOME": home.path, "XDG_RUNTIME_DIR": home.path + "/run", "XDG_CONFIG_HOME": home.path + "/.config"]
        let unit = run(analyze, ["verify", "--user", TestPaths.repoRoot + "/dist/systemd/widgethost.service"], environment: env)
        #expect(unit.status == 0, "\(unit.stdout)\(unit.stderr)")
        // The template, as an instance.
        let instance = home.path + "/widgethost@laptop.service"
        FileManagerFree.write(instance, FileManagerFree.read(TestPaths.repoRoot + "/dist/systemd/widgethost@.service") ?? "")
        let templ = run(analyze, ["verify", "--user", instance], environment: env)
        #expect(templ.status == 0, "\(templ.stdout)\(templ.stderr)")
        // The check is real: without the binary the unit does not verify.
        unlink(home.path + "/.local/bin/widgethost")
        #expect(run(analyze, ["verify", "--user", TestPaths.repoRoot + "/dist/systemd/widgethost.service"], environment: env).status != 0)
    }
}

/// `systemd-analyze`, or nil (and a failure under `CI=true`: scripts/install-deps.sh installs it,
/// and CI must not pass without the check).
func systemdAnalyze() -> String? {
    let candidates: [String] = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"]
    guard let path = candidates.first(where: { access($0, X_OK) == 0 }) else {
        #expect(getenv("CI").map { String(cString: $0) } != "true", "systemd-analyze is missing (apt-get install systemd)")
        return nil
    }
    return path
}
