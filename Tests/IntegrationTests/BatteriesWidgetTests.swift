import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// A fake `/sys/class/power_supply` made by the test: one folder per supply, one file per
/// attribute, as the kernel lays them out. The Batteries bundle reads it through
/// `WIDGETHOST_BATTERIES_POWER_SUPPLY`.
struct FakePowerSupply {
    let root: String

    init(in dir: String) {
        root = dir + "/power_supply"
        mkdir(root, 0o755)
    }

    func add(_ name: String, _ attributes: [String: String]) {
        mkdir(root + "/" + name, 0o755)
        for (file, value) in attributes { FileManagerFree.write(root + "/" + name + "/" + file, value + "\n") }
    }

    /// A laptop at 82 % draining 35 Wh at 20 W (1 h 45 min left), its charger unplugged, a mouse
    /// at 40 % and a headset at 15 % (HID batteries, `scope` Device).
    static func laptopMouseHeadset(in dir: String) -> FakePowerSupply {
        let p = FakePowerSupply(in: dir)
        p.add("AC", ["type": "Mains", "online": "0"])
        p.add("BAT0", ["type": "Battery", "present": "1", "status": "Discharging", "capacity": "82",
                       "energy_now": "35000000", "energy_full": "42700000", "power_now": "20000000", "model_name": "5B10W13930"])
        p.add("hid-dc:2c:26:aa:bb:cc-battery", ["type": "Battery", "scope": "Device", "status": "Discharging", "capacity": "40",
                                                "model_name": "MX Master 3 Mouse", "manufacturer": "Logitech"])
        p.add("hid-00:1b:66:11:22:33-battery", ["type": "Battery", "scope": "Device", "status": "Discharging", "capacity": "15",
                                                "model_name": "Headset"])
        return p
    }
}

/// The Batteries bundle (Examples/BatteriesWidget) in a real worker process on fixture trees:
/// the sysfs reading (time left from energy or charge, charging, full, peripherals, garbage),
/// the timeline's projected entries and reload, and the parameters.
@Suite struct BatteriesWidgetTests {
    func worker(_ supply: FakePowerSupply) throws -> BlockingWorkerClient {
        let so = TestPaths.plugin("BatteriesWidget")
        try #require(FileManagerFree.exists(so), "\(so) is missing: run `swift build` first")
        return try BlockingWorkerClient(pluginPath: so, executable: TestPaths.worker,
                                        environment: try shiftedClockEnvironment(at: fixedTestInstant)
                                            // No system bus: UPower is not asked (BatteriesUPowerTests asks a fake one).
                                            .merging(["WIDGETHOST_BATTERIES_POWER_SUPPLY": supply.root, "DBUS_SYSTEM_BUS_ADDRESS": ""]) { $1 })
    }

    func timeline(_ w: BlockingWorkerClient, _ family: WidgetFamily, _ configuration: [String: JSONValue] = [:]) throws -> WireResponse {
        try w.request(WireRequest(op: .timeline, kind: "batteries", family: family, configuration: configuration))
    }

    func texts(_ e: WireEntry?) -> [String] { var t: [String] = []; e?.view.walk { if let s = $0.text { t.append(s) } }; return t }

    @Test func aDrainingLaptopAndTwoPeripherals() throws {
        let dir = TempDir(); defer { dir.remove() }
        let w = try worker(.laptopMouseHeadset(in: dir.path))
        let manifest = try #require(try w.request(WireRequest(op: .describe)).manifest)
        #expect((manifest.permissions ?? []).isEmpty)
        #expect(manifest.appGroups == [])
        let widget = try #require(manifest.widgets.first)
        #expect(widget.kind == "batteries")
        #expect(widget.configuration == "AppIntentConfiguration")
        #expect(widget.parameters.map(\.name) == ["devices", "showsTimeLeft"])

        let inline = try timeline(w, .accessoryInline)
        let entries = try #require(inline.entries)
        // Every five minutes for the half hour until the next read, along the present draw.
        let t0 = fixedTestInstant.timeIntervalSince1970
        #expect(entries.count == 6)
        #expect(abs(entries[0].date.timeIntervalSince1970 - t0) < 5)
        #expect(zip(entries, entries.dropFirst()).allSatisfy { abs($1.date.timeIntervalSince($0.date) - 300) < 0.01 })
        #expect(inline.policy?.type == "after")
        #expect(abs((inline.policy?.date?.timeIntervalSince1970 ?? 0) - (t0 + 1800)) < 5)
        #expect(texts(entries[0]).last == "82% · 1:45 left", "\(texts(entries[0]))")
        // 5 minutes on: 82 % of 105 minutes' charge with 100 minutes left is 78 %.
        #expect(texts(entries[1]).last == "78% · 1:40 left", "\(texts(entries[1]))")
        #expect(texts(entries[5]).last == "62% · 1:20 left", "\(texts(entries[5]))")

        // The laptop first, then the peripherals by folder name; the mains adapter is no battery.
        let medium = try #require(try timeline(w, .systemMedium).entries?.first)
        #expect(texts(medium).filter { $0.hasSuffix("%") } == ["82%", "15%", "40%"], "\(texts(medium))")
        let large = try #require(try timeline(w, .systemLarge).entries?.first)
        #expect(texts(large).contains("MX Master 3 Mouse") && texts(large).contains("Headset") && texts(large).contains("Laptop"), "\(texts(large))")
        var symbols: [String] = []
        large.view.walk { if let s = $0.symbol { symbols.append(s) } }
        #expect(symbols == ["laptopcomputer", "headphones", "computermouse"], "\(symbols)")

        // The parameters: the laptop only; no time left.
        let laptop = try #require(try timeline(w, .systemMedium, ["devices": .string("laptop")]).entries?.first)
        #expect(texts(laptop).filter { $0.hasSuffix("%") } == ["82%"], "\(texts(laptop))")
        let noTime = try #require(try timeline(w, .accessoryInline, ["showsTimeLeft": .bool(false)]).entries?.first)
        #expect(texts(noTime).last == "82%", "\(texts(noTime))")
    }

    @Test func chargingFromChargeAndCurrentAndFullWithNothingToProject() throws {
        let dir = TempDir(); defer { dir.remove() }
        let charging = FakePowerSupply(in: dir.path)
        // 3000 of 4000 mAh at 2 A: half an hour to full.
        charging.add("BAT1", ["type": "Battery", "status": "Charging", "charge_now": "3000000", "charge_full": "4000000",
                              "current_now": "2000000"])
        let w = try worker(charging)
        let r = try timeline(w, .accessoryInline)
        #expect(texts(r.entries?.first).last == "75% · 0:30 until full", "\(texts(r.entries?.first))")
        #expect(texts(r.entries?.last).last == "96% · 0:05 until full", "\(texts(r.entries?.last))")
        let circular = try #require(r.entries?.first)
        var symbols: [String] = []
        circular.view.walk { if let s = $0.symbol { symbols.append(s) } }
        #expect(symbols == ["bolt.fill"], "\(symbols)")

        let fullDir = TempDir(); defer { fullDir.remove() }
        let full = FakePowerSupply(in: fullDir.path)
        full.add("BAT0", ["type": "Battery", "status": "Full", "capacity": "100", "energy_now": "42000000", "power_now": "0"])
        let f = try timeline(try worker(full), .accessoryInline)
        // Nothing moves: one entry, the next read in half an hour.
        #expect(f.entries?.count == 1)
        #expect(texts(f.entries?.first).last == "100%", "\(texts(f.entries?.first))")
        #expect(abs((f.policy?.date?.timeIntervalSince1970 ?? 0) - (fixedTestInstant.timeIntervalSince1970 + 1800)) < 5)
    }

    @Test func aBatteryWithGarbageFilesIsLeftOutWithOneLogLine() throws {
        let dir = TempDir(); defer { dir.remove() }
        let p = FakePowerSupply.laptopMouseHeadset(in: dir.path)
        p.add("BAT1", ["type": "Battery", "status": "Discharging", "capacity": "banana"])
        p.add("BAT2", ["type": "Battery", "status": "Discharging", "capacity": "250"])
        let w = try worker(p)
        let medium = try #require(try timeline(w, .systemMedium).entries?.first)
        #expect(texts(medium).filter { $0.hasSuffix("%") } == ["82%", "15%", "40%"], "\(texts(medium))")
        #expect(w.lastStderrLine()?.hasSuffix("/BAT2 skipped: capacity \"250\" is not a percentage") == true, "\(w.lastStderrLine() ?? "no line")")

        let only = TempDir(); defer { only.remove() }
        let bad = FakePowerSupply(in: only.path)
        bad.add("BAT1", ["type": "Battery", "status": "Discharging", "capacity": "banana"])
        let b = try worker(bad)
        let r = try #require(try timeline(b, .accessoryInline).entries?.first)
        #expect(texts(r).last == "No Batteries", "\(texts(r))")
        #expect(b.lastStderrLine()?.hasSuffix("/BAT1 skipped: capacity \"banana\" is not a percentage") == true, "\(b.lastStderrLine() ?? "no line")")
    }

    /// The real host and its sandboxed worker, on this machine's own /sys (a fixture folder
    /// elsewhere is outside the worker's sandbox): the main battery's charge, or "No Batteries"
    /// where the machine has none (as in CI's containers).
    @Test func theSandboxedWorkerReadsThisMachinesBatteries() throws {
        let so = TestPaths.plugin("BatteriesWidget")
        try #require(FileManagerFree.exists(so), "\(so) is missing: run `swift build` first")
        let config = #"""
            {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"},
             "widgets": [{"kind": "batteries", "family": "accessoryInline", "parameters": {"showsTimeLeft": false}}]}
            """#
        // No system bus (its socket is not there): the kernel's folders, whatever this machine runs.
        let d = try RunningDaemon(config: config, environment: ["TZ": "UTC", "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/system_bus_socket"])
        d.install(so, as: "libBatteriesWidget.so")
        let expected = Self.thisMachinesMainBattery()
        #expect(eventually(timeout: 30) { d.text("batteries-accessoryInline")?.hasSuffix(expected) == true },
                "expected \(expected), got \(d.text("batteries-accessoryInline") ?? "nothing"); stderr:\n\(d.stderr.suffix(3000))")
    }
}

extension BatteriesWidgetTests {
    /// What the inline family shows without the time left when it reads this machine's own
    /// `/sys/class/power_supply`: its first battery's charge, or "No Batteries" (CI's containers).
    static func thisMachinesMainBattery() -> String {
        let sys = "/sys/class/power_supply"
        let batteries = listDirectory(sys).sorted().filter {
            FileManagerFree.read(sys + "/" + $0 + "/type")?.hasPrefix("Battery") == true
                && FileManagerFree.read(sys + "/" + $0 + "/scope")?.hasPrefix("Device") != true
        }
        return batteries.first.flatMap { FileManagerFree.read(sys + "/" + $0 + "/capacity") }
            .map { $0.filter(\.isNumber) + "%" } ?? "No Batteries"
    }
}

/// Picture goldens of every family of the Batteries bundle: `widgethost preview --png` on the
/// fixture laptop (82 %, draining, 1:45 left), mouse (40 %) and headset (15 %, low: red), and
/// the laptop alone (the `devices` parameter); clock frozen, with the pinned fonts and tolerance
/// of PictureGoldenTests. Each golden was looked at before it was committed
/// (`WIDGETHOST_UPDATE_GOLDENS=1` re-records).
@Suite struct BatteriesPictureTests {
    static let goldens = PictureGoldenTests.goldenDir + "/BatteriesWidget"

    @Test func everyFamilyMatchesItsGolden() throws {
        let dir = TempDir(); defer { dir.remove() }
        let supply = FakePowerSupply.laptopMouseHeadset(in: dir.path)
        try PictureGoldenTests.previewPNGs("BatteriesWidget", into: dir.path + "/png", in: dir,
                                           environment: ["WIDGETHOST_BATTERIES_POWER_SUPPLY": supply.root])
        let produced = listDirectory(dir.path + "/png").filter { $0.hasSuffix("-timeline-00.png") }.sorted()
        #expect(produced.count == 6, "\(produced)")
        try PictureGoldenTests.compare(produced, in: dir.path + "/png", with: Self.goldens + "/all")

        // One device: Apple's small layout for it, the ring big, the charge and the time left under it.
        try PictureGoldenTests.previewPNGs("BatteriesWidget", into: dir.path + "/laptop", in: dir,
                                           extra: ["--family", "systemSmall", "--param", "devices=laptop"],
                                           environment: ["WIDGETHOST_BATTERIES_POWER_SUPPLY": supply.root])
        let laptop = listDirectory(dir.path + "/laptop").filter { $0.hasSuffix("-timeline-00.png") }.sorted()
        try PictureGoldenTests.compare(laptop, in: dir.path + "/laptop", with: Self.goldens + "/laptop")
    }
}
