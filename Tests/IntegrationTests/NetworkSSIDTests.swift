import FoundationEssentials
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The Network widget's Wi-Fi name through the real host and its sandboxed worker: a fake
/// NetworkManager (`Fixtures/fake_networkmanager.py`) on the test's own `dbus-daemon`, given to
/// the host as its system bus (`DBUS_SYSTEM_BUS_ADDRESS`; session configuration, as a real
/// system bus needs root). The bundle reaches it by its `systemBusNames` declaration through
/// the worker's proxy, and the manager's `PropertiesChanged` (`bus: "system"`) reloads it.
@Suite(.serialized) struct NetworkSSIDTests {
    static let script = TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/fake_networkmanager.py"

    /// `lo` (every machine has it) on the Wi-Fi network `ssid`, as the fake's state.
    static func wifi(_ ssid: String, strength: Int) -> String {
        #"[{"interface": "lo", "type": "802-11-wireless", "id": "profile", "ssid": ["#
            + ssid.utf8.map { String($0) }.joined(separator: ", ") + #"], "strength": \#(strength)}]"#
    }

    static let config = #"""
        {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}, "widgets": [
          {"id": "net", "kind": "network", "family": "accessoryRectangular", "parameters": {"interface": "lo"}}]}
        """#

    /// Runs `body` with a private bus (its address) in `dir`, ended after it.
    func withBus(_ dir: TempDir, _ body: (String) throws -> Void) throws {
        let address = "unix:path=" + dir.path + "/system-bus"
        let daemon = spawnBackground("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=" + address])
        defer { kill(daemon, SIGKILL); var st: Int32 = 0; waitpid(daemon, &st, 0) }
        try #require(eventually { access(dir.path + "/system-bus", F_OK) == 0 }, "dbus-daemon did not listen")
        try body(address)
    }

    /// The host, the bundle installed before it starts, with `address` as its system bus.
    func host(systemBus address: String) throws -> RunningDaemon {
        try RunningDaemon(config: Self.config, environment: ["DBUS_SYSTEM_BUS_ADDRESS": address]) { dir in
            _ = run("/bin/cp", [TestPaths.plugin("NetworkDiskWidgets"), dir + "/Plugins/netdisk.so"])
        }
    }

    @Test(.enabled(if: BusProxyTests.enabled, "no Landlock, dbus-daemon or xdg-dbus-proxy"))
    func theWidgetShowsTheNetworkAndFollowsASwitch() throws {
        let dir = TempDir()
        defer { dir.remove() }
        try withBus(dir) { address in
            let fake = spawnBackground("/usr/bin/python3", [Self.script, address, Self.wifi("Test Network", strength: 80), dir.path + "/ready"])
            defer { kill(fake, SIGKILL); var st: Int32 = 0; waitpid(fake, &st, 0) }
            try #require(eventually { access(dir.path + "/ready", F_OK) == 0 }, "the fake NetworkManager did not start (python3-gi?)")

            let d = try host(systemBus: address)
            #expect(eventually { d.text("net")?.contains("Test Network") == true }, "\(d.text("net") ?? "") \(d.stderr.suffix(2000))")
            let status = run(TestPaths.widgethost, ["status", "--config", d.dir.path + "/config.json"]).stdout
            #expect(status.contains("system bus org.freedesktop.NetworkManager"), "\(status)")

            // Another network: the manager says so, and the widget reloads on that signal.
            _ = run("/usr/bin/python3", [Self.script, "--switch", address, Self.wifi("Café ☕", strength: 20)])
            #expect(eventually { d.text("net")?.contains("Café ☕") == true }, "\(d.text("net") ?? "") \(d.stderr.suffix(2000))")
            #expect(eventually { d.stderr.contains("(netdisk.so network accessoryRectangular): bus signal org.freedesktop.DBus.Properties.PropertiesChanged") },
                    "\(d.stderr.suffix(2000))")

            // Wired now: no network name, the interface's kind and name.
            _ = run("/usr/bin/python3", [Self.script, "--switch", address, "[]"])
            #expect(eventually { d.text("net")?.hasPrefix("↻ lo ↓ ") == true }, "\(d.text("net") ?? "")")
        }
    }

    /// NetworkManager gone (its bus without it): the widget renders as before, the interface's
    /// kind and name.
    @Test(.enabled(if: BusProxyTests.enabled, "no Landlock, dbus-daemon or xdg-dbus-proxy"))
    func withoutNetworkManagerTheInterfaceIsShownAsBefore() throws {
        let dir = TempDir()
        defer { dir.remove() }
        try withBus(dir) { address in
            let d = try host(systemBus: address)
            #expect(eventually { d.text("net")?.hasPrefix("↻ lo ↓ ") == true }, "\(d.text("net") ?? "") \(d.stderr.suffix(2000))")
        }
    }
}
