import FoundationEssentials
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// D-Bus for sandboxed workers (issue 29, docs/limits.md "D-Bus"): a real `dbus-daemon` of the
/// test's own, a service on it owning `org.example.A` and `org.example.B`, the real host and the
/// `BusProbeWidget` fixture, which talks through the SDK's `SessionBus`. A bundle that declares
/// `org.example.A` reads A's property through its `xdg-dbus-proxy`, cannot call B nor reach
/// the bus behind the proxy; one that declares nothing has no bus address and no Unix socket;
/// the proxy ends with its worker (crash, host stop, host killed).
///
/// Each test runs twice: on the session bus (`busNames`), and on the system bus
/// (`systemBusNames`, `bus: "system"` signals, `SessionBus.system()`: the probe with
/// `WIDGETHOST_TEST_SYSTEM_BUS`). There the test's `dbus-daemon` — run with the *session*
/// configuration, as a real system bus needs root — is the host's `DBUS_SYSTEM_BUS_ADDRESS`, and
/// its session bus too, which the probe, declaring no session name, must still not get (`S:none`).
@Suite(.serialized) struct BusProxyTests {
    let id = "busprobe-systemSmall"
    static let enabled = sandboxTestsRun && (TestSessionBus.available || getenv("CI").map { String(cString: $0) == "true" } == true)

    enum Bus: String, CaseIterable, CustomTestStringConvertible {
        case session, system
        var testDescription: String { rawValue + " bus" }
        /// What the system-bus probe adds to its text: it has no session bus.
        var suffix: String { self == .system ? " S:none" : "" }
        /// How `status` names a name of this bus.
        var reads: String { self == .system ? "system bus " : "bus " }
    }

    /// The host with the probe installed, its `bus` the test's; `more` runs while it does.
    func probe(_ on: Bus = .session, undeclared: Bool = false, noBus: Bool = false, rest: Bool = false,
               _ more: (RunningDaemon, TestSessionBus) throws -> Void = { _, _ in }) throws -> String {
        let dir = TempDir()
        defer { dir.remove() }
        let bus = try TestSessionBus(dir: dir.path, names: ["org.example.A", "org.example.B"])
        defer { bus.stop() }
        var env: [String: String?] = ["DBUS_SESSION_BUS_ADDRESS": noBus ? nil : bus.address, "WIDGETHOST_TEST_REAL_BUS": bus.address]
        if on == .system {
            env["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            env["DBUS_SYSTEM_BUS_ADDRESS"] = noBus ? "unix:path=" + dir.path + "/no-such-bus" : bus.address
            env["WIDGETHOST_TEST_SYSTEM_BUS"] = "1"
        }
        if undeclared { env["WIDGETHOST_TEST_BUS_UNDECLARED"] = "1" }
        if rest { env["WIDGETHOST_TEST_BUS_REST"] = "1" }
        // In place before the host starts: its first scan finds it.
        let d = try RunningDaemon(environment: env) { dir in
            _ = run("/bin/cp", [TestPaths.plugin("BusProbeWidget"), dir + "/Plugins/busprobe.so"])
        }
        #expect(eventually { d.text(id)?.hasPrefix("A:") == true }, "\(d.stderr.suffix(2000))")
        try more(d, bus)
        return d.text(id) ?? ""
    }

    /// The bus proxies a host in `dir` runs (their command line names its `state/bus` folder; a
    /// worker started with its sandbox on its command line names it too).
    func proxies(_ d: RunningDaemon) -> [pid_t] {
        processesMentioning(d.dir.path + "/state/bus/").filter { FileManagerFree.read("/proc/\($0)/cmdline")?.hasPrefix("xdg-dbus-proxy") == true }
    }

    /// The proxy's answer to a call to a name the bundle did not declare: xdg-dbus-proxy hides
    /// the name (`--filter` without `--see`), so the bus seems not to have it.
    let denied = "ServiceUnknown"

    @Test(.enabled(if: BusProxyTests.enabled, "no Landlock, dbus-daemon or xdg-dbus-proxy"), arguments: Bus.allCases)
    func aDeclaredNameIsReachedThroughTheProxyAndNothingElse(_ on: Bus) throws {
        var proxyCount = 0, status = ""
        let text = try probe(on) { d, _ in
            proxyCount = proxies(d).count
            status = run(TestPaths.widgethost, ["status", "--config", d.dir.path + "/config.json"]).stdout
        }
        #expect(status.contains("\n  reads: \(on.reads)org.example.A\n"), "\(status)")
        // Behind the proxy the bus is out of reach: its socket is not in the worker's filesystem.
        if WorkerSandbox.isolationAvailable {
            #expect(text == "A:hi-A B:\(denied) N:A R:NoBus P:fixed U:ok" + on.suffix, "\(text)")
        } else {
            #expect(text.hasPrefix("A:hi-A B:\(denied) N:A R:"), "\(text)")
            #expect(text.hasSuffix(" P:other U:ok" + on.suffix), "\(text)")
        }
        #expect(proxyCount == 1)
    }

    @Test(.enabled(if: BusProxyTests.enabled, "no Landlock, dbus-daemon or xdg-dbus-proxy"), arguments: Bus.allCases)
    func aBundleWithoutTheDeclarationHasNoBusNoAddressAndNoUnixSocket(_ on: Bus) throws {
        var proxyCount = -1
        let text = try probe(on, undeclared: true) { d, _ in proxyCount = proxies(d).count }
        if WorkerSandbox.isolationAvailable {
            #expect(text == "A:NoBus B:NoBus N:NoBus R:NoBus P:none U:EACCES" + on.suffix, "\(text)")
        } else {
            #expect(text.hasPrefix("A:NoBus B:NoBus N:NoBus R:"), "\(text)")
            #expect(text.contains(" P:none "), "\(text)")
        }
        #expect(proxyCount == 0)
    }

    /// A signal the bundle declared (`busSignals`: `org.example.Probe.Changed` from
    /// `org.example.A`) reloads the widget, with no timeline entry or reload due: its next
    /// reload is a minute away. The same signal from `org.example.B`, which the bundle did not
    /// declare, does not. (On the system bus the signal is declared with `bus: "system"`.)
    @Test(.enabled(if: BusProxyTests.enabled, "no Landlock, dbus-daemon or xdg-dbus-proxy"), arguments: Bus.allCases)
    func aDeclaredSignalReloadsTheWidget(_ on: Bus) throws {
        var log = ""
        let text = try probe(on) { d, bus in
            bus.change("org.example.B", greeting: "hi-B2")
            bus.change("org.example.A", greeting: "hi-A2")
            #expect(eventually { d.text(id)?.hasPrefix("A:hi-A2 ") == true }, "\(d.stderr.suffix(2000))")
            log = d.stderr
        }
        #expect(text.hasPrefix("A:hi-A2 B:\(denied) "), "\(text)")
        #expect(log.contains("reload busprobe-systemSmall (busprobe.so busprobe systemSmall): bus signal org.example.Probe.Changed"), "\(log.suffix(2000))")
        #expect(log.components(separatedBy: ": bus signal ").count - 1 == 1, "\(log.suffix(2000))")
    }

    /// Without the bus (no session bus address; a system bus address whose socket is not there)
    /// the host says so once and the widget still renders, in its own "no bus" state.
    @Test(.enabled(if: BusProxyTests.enabled, "no Landlock, dbus-daemon or xdg-dbus-proxy"), arguments: Bus.allCases)
    func withoutTheBusOneLogLineAndTheWidgetStillRenders(_ on: Bus) throws {
        var log = "", proxyCount = -1
        let text = try probe(on, noBus: true) { d, _ in log = d.stderr; proxyCount = proxies(d).count }
        #expect(text.hasPrefix("A:NoBus B:NoBus N:NoBus "), "\(text)")
        #expect(text.contains(" P:none "), "\(text)")
        #expect(log.components(separatedBy: "no \(on.rawValue) bus").count - 1 == 1, "\(log.suffix(2000))")
        #expect(proxyCount == 0)
    }

    /// The proxy ends with its worker: when the worker rests (nothing due: no proxy left, nor
    /// its folder), when it crashes (a new worker gets a new proxy, and reads A again), when the
    /// host stops, and when the host is killed with SIGKILL.
    @Test(.enabled(if: BusProxyTests.enabled, "no Landlock, dbus-daemon or xdg-dbus-proxy"), arguments: Bus.allCases)
    func theProxyEndsWithItsWorkerAndItsHost(_ on: Bus) throws {
        let rested = try probe(on, rest: true) { d, _ in
            #expect(eventually { proxies(d).isEmpty && processesMentioning(d.dir.path + "/state/bundles").isEmpty },
                    "the proxy outlived its resting worker: \(d.stderr.suffix(2000))")
            #expect(eventually { FileManagerFree.names(in: d.dir.path + "/state/bus").isEmpty }, "the worker's bus folder was left behind")
        }
        #expect(rested.hasPrefix("A:hi-A "), "\(rested)")
        _ = try probe(on) { d, _ in
            let first = proxies(d)
            try #require(first.count == 1)
            for w in processesMentioning(d.dir.path + "/state/bundles") { kill(w, SIGKILL) }
            #expect(eventually { !isAlive(first[0]) }, "the proxy outlived its crashed worker")
            _ = run(TestPaths.widgethost, ["reload", "--config", d.dir.path + "/config.json"])
            #expect(eventually { proxies(d).count == 1 && d.text(id)?.hasPrefix("A:hi-A ") == true },
                    "\(d.stderr.suffix(2000))")
            let second = proxies(d)
            d.signal(SIGTERM)
            #expect(d.waitForExit() != nil)
            #expect(eventually { second.allSatisfy { !isAlive($0) } }, "the proxy outlived its host")
        }
        _ = try probe(on) { d, _ in
            let first = proxies(d)
            try #require(first.count == 1)
            d.signal(SIGKILL)
            _ = d.waitForExit()
            #expect(eventually { first.allSatisfy { !isAlive($0) } }, "the proxy outlived its host killed with SIGKILL")
        }
    }
}
