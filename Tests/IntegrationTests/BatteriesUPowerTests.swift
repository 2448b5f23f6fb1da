import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// A fake UPower (`Fixtures/fake_upower.py`, python3 and gi's Gio) on a private "system" bus:
/// the test's own `dbus-daemon`, run with the *session* configuration (a real system bus needs
/// root and its policy files), whose address the test passes as `DBUS_SYSTEM_BUS_ADDRESS`.
/// `update` rewrites its devices and has it announce the change as UPower does
/// (`PropertiesChanged`, `DeviceAdded`, `DeviceRemoved`).
final class FakeUPower {
    let address: String
    let bus: TestSessionBus
    private let state: String
    private var pid: pid_t = 0

    static var available: Bool {
        TestSessionBus.available && run("/usr/bin/python3", ["-c", "import gi; gi.require_version('Gio', '2.0')"]).status == 0
    }

    /// A laptop battery at 82 % draining with 1:45 left (UPower's `battery_BAT0`) and a
    /// Bluetooth headset at 55 % (BlueZ's, which the kernel's folders do not show).
    static let laptopAndHeadset = """
        {"battery_BAT0": {"NativePath": "BAT0", "Type": 2, "PowerSupply": true, "State": 2, "Percentage": 82.0, "TimeToEmpty": 6300},
         "headset_dev_00_1B_66": {"NativePath": "/org/bluez/hci0/dev_00_1B_66", "Type": 17, "State": 2, "Percentage": 55.0,
                                  "Model": "WH-1000XM4"},
         "line_power_AC": {"NativePath": "AC", "Type": 1}}
        """

    init(dir: String, devices: String) throws {
        bus = try TestSessionBus(dir: dir, names: [])
        address = bus.address
        state = dir + "/upower.json"
        FileManagerFree.write(state, devices)
        pid = spawnBackground("/usr/bin/python3", [TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/fake_upower.py", address, state])
        guard eventually(timeout: 20, { FileManagerFree.exists(state + ".ready") }) else { throw TestSessionBus.Failure("the fake UPower did not start") }
    }

    /// Its devices from now on, announced on the bus.
    func update(_ devices: String) {
        FileManagerFree.write(state, devices)
        kill(pid, SIGUSR1)
    }

    /// UPower leaves the bus (the bus stays).
    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var st: Int32 = 0
        waitpid(pid, &st, 0)
        pid = 0
    }

    deinit { stop(); bus.stop() }
}

/// The Batteries bundle on UPower: what it declares, the devices UPower gives (a laptop battery
/// and a Bluetooth headset) with their levels, the fallback to the kernel's folders when UPower
/// is gone, and — with the real host — a reload on UPower's signals with no entry due.
@Suite(.serialized) struct BatteriesUPowerTests {
    static let enabled = FakeUPower.available || getenv("CI").map { String(cString: $0) == "true" } == true

    func texts(_ e: WireEntry?) -> [String] { var t: [String] = []; e?.view.walk { if let s = $0.text { t.append(s) } }; return t }

    @Test(.enabled(if: BatteriesUPowerTests.enabled, "no dbus-daemon or python3-gi"))
    func upowerDevicesAppearWithTheirLevelsAndTheKernelsFoldersAreTheFallback() throws {
        let dir = TempDir(); defer { dir.remove() }
        let upower = try FakeUPower(dir: dir.path, devices: FakeUPower.laptopAndHeadset)
        // The kernel's view of the same machine: the laptop only, and a different level, so the
        // output tells which was read.
        let supply = FakePowerSupply(in: dir.path)
        supply.add("BAT0", ["type": "Battery", "present": "1", "status": "Discharging", "capacity": "50"])
        let so = TestPaths.plugin("BatteriesWidget")
        let w = try BlockingWorkerClient(pluginPath: so, executable: TestPaths.worker,
                                         environment: try shiftedClockEnvironment(at: fixedTestInstant)
                                            .merging(["WIDGETHOST_BATTERIES_POWER_SUPPLY": supply.root, "DBUS_SYSTEM_BUS_ADDRESS": upower.address]) { $1 })
        let manifest = try #require(try w.request(WireRequest(op: .describe)).manifest)
        #expect(manifest.systemBusNames == ["org.freedesktop.UPower"])
        #expect(manifest.busNames == nil)
        #expect(manifest.busSignals?.map(\.member) == ["DeviceAdded", "DeviceRemoved", "PropertiesChanged"])
        #expect(manifest.busSignals?.allSatisfy { $0.bus == "system" && $0.sender == "org.freedesktop.UPower" } == true)

        func timeline(_ family: WidgetFamily) throws -> WireResponse {
            try w.request(WireRequest(op: .timeline, kind: "batteries", family: family, configuration: [:]))
        }
        let large = try timeline(.systemLarge)
        let t = texts(large.entries?.first)
        #expect(t == ["Laptop", "82%", "1:45 left", "WH-1000XM4", "55%", "From UPower"], "\(t)")
        var symbols: [String] = []
        large.entries?.first?.view.walk { if let s = $0.symbol { symbols.append(s) } }
        #expect(symbols == ["laptopcomputer", "headphones"], "\(symbols)")
        // The laptop moves: entries every five minutes, a read again in half an hour.
        #expect(large.entries?.count == 6)
        #expect(large.policy?.type == "after")

        // Nothing moves: one entry, and no reload asked for (UPower's signals reload it).
        upower.update("""
            {"battery_BAT0": {"NativePath": "BAT0", "Type": 2, "PowerSupply": true, "State": 4, "Percentage": 100.0}}
            """)
        #expect(eventually { texts(try? timeline(.systemLarge).entries?.first).contains("100%") })
        let full = try timeline(.accessoryInline)
        #expect(full.entries?.count == 1)
        #expect(full.policy?.type == "never", "\(String(describing: full.policy))")

        // UPower gone: the kernel's folders, said at the foot of the large family.
        upower.stop()
        let fallback = texts(try timeline(.systemLarge).entries?.first)
        #expect(fallback == ["Laptop", "50%", "From the kernel"], "\(fallback)")
        #expect(try timeline(.accessoryInline).policy?.type == "after")
    }

    /// The real host and its sandboxed worker, the fake UPower on the host's
    /// `DBUS_SYSTEM_BUS_ADDRESS`: the laptop's level; UPower's `PropertiesChanged` changes the
    /// output with no entry due (nothing moves: one entry, no reload asked for); UPower leaving
    /// reloads it onto the kernel's folders (this machine's own: a folder elsewhere is outside
    /// the sandbox).
    @Test(.enabled(if: BatteriesUPowerTests.enabled && sandboxTestsRun, "no dbus-daemon, python3-gi or Landlock"))
    func theHostReloadsOnUPowersSignals() throws {
        let dir = TempDir(); defer { dir.remove() }
        // Draining with no time known: nothing to project, so no entry is ever due.
        func laptop(_ percent: Int) -> String {
            #"{"battery_BAT0": {"NativePath": "BAT0", "Type": 2, "PowerSupply": true, "State": 2, "Percentage": \#(percent).0}}"#
        }
        let upower = try FakeUPower(dir: dir.path, devices: laptop(82))
        let config = #"""
            {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"},
             "widgets": [{"kind": "batteries", "family": "accessoryInline", "parameters": {"showsTimeLeft": false}}]}
            """#
        let d = try RunningDaemon(config: config, environment: ["TZ": "UTC", "DBUS_SYSTEM_BUS_ADDRESS": upower.address])
        d.install(TestPaths.plugin("BatteriesWidget"), as: "libBatteriesWidget.so")
        let id = "batteries-accessoryInline"
        #expect(eventually(timeout: 30) { d.text(id)?.hasSuffix("82%") == true }, "\(d.text(id) ?? "nothing"): \(d.stderr.suffix(3000))")
        let status = run(TestPaths.widgethost, ["status", "--config", d.dir.path + "/config.json"]).stdout
        #expect(status.contains("reads: system bus org.freedesktop.UPower"), "\(status)")

        upower.update(laptop(64))
        #expect(eventually(timeout: 30) { d.text(id)?.hasSuffix("64%") == true }, "\(d.text(id) ?? "nothing"): \(d.stderr.suffix(3000))")
        #expect(d.stderr.contains("bus signal org.freedesktop.DBus.Properties.PropertiesChanged"), "\(d.stderr.suffix(3000))")

        upower.stop()
        let expected = BatteriesWidgetTests.thisMachinesMainBattery()
        #expect(eventually(timeout: 30) { d.text(id)?.hasSuffix(expected) == true },
                "expected \(expected), got \(d.text(id) ?? "nothing"): \(d.stderr.suffix(3000))")
    }

    /// Installed but not placed (the default install puts it beside every other bundle), the
    /// bundle costs the host no system-bus connection: described once, its worker retired, no
    /// client on the bus but UPower (W1).
    @Test(.enabled(if: BatteriesUPowerTests.enabled && sandboxTestsRun, "no dbus-daemon, python3-gi or Landlock"))
    func anUnplacedBundleCostsNoSystemBusConnection() throws {
        let dir = TempDir(); defer { dir.remove() }
        let upower = try FakeUPower(dir: dir.path, devices: FakeUPower.laptopAndHeadset)
        let alone = upower.bus.clients()
        #expect(alone.count == 1, "only UPower: \(alone)")
        let config = #"""
            {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"},
             "widgets": [{"kind": "clock", "family": "accessoryInline"}]}
            """#
        let d = try RunningDaemon(config: config, environment: ["TZ": "UTC", "DBUS_SYSTEM_BUS_ADDRESS": upower.address])
        d.install(TestPaths.plugin("BatteriesWidget"), as: "libBatteriesWidget.so")
        #expect(eventually(timeout: 30) {
            run(TestPaths.widgethost, ["status", "--config", d.dir.path + "/config.json"]).stdout.contains("reads: system bus org.freedesktop.UPower")
        }, "\(d.stderr.suffix(3000))")
        #expect(eventually { processesMentioning(d.dir.path + "/state/bundles").isEmpty }, "its worker was not retired")
        #expect(upower.bus.clients() == alone, "\(d.stderr.suffix(3000))")
    }
}
