import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// The bus names a bundle may declare, and how its worker's sandbox spec carries them.
struct BusProxyRuleTests {
    @Test func wellKnownNamesAndTheProxysWildcardAreValidNothingElse() {
        for ok in ["org.example.A", "org.mpris.MediaPlayer2.*", "org.freedesktop.UPower", "a_b.c-d", "org.freedesktop.DBus.Properties"] {
            #expect(BusProxyRule.isValid(ok), "\(ok)")
        }
        for bad in ["", "org", ":1.42", "org..example", "org.1example", "org.example.", ".org.example", "org.*", "*", "org.exa mple",
                    "org.example.*.x", "org.freedesktop.DBus", "org.ex\u{e9}mple.A", String(repeating: "a.", count: 128) + "b"] {
            #expect(!BusProxyRule.isValid(bad), "\(bad)")
        }
    }

    @Test func atMostSixteenValidNamesEachOnceAreHonouredAndTheRestIsSaid() {
        let many = (0..<20).map { "org.example.N\($0)" }
        #expect(BusProxyRule.accepted(many + ["org.example.N0", "bad"]) == Array(many.prefix(16)))
        #expect(BusProxyRule.problem(["org.example.A", "bad name"]) == "ignoring invalid bus names \"bad name\"")
        #expect(BusProxyRule.problem(many)?.contains("first 16") == true)
        #expect(BusProxyRule.problem(["org.example.A"]) == nil)
    }

    @Test func theSpecCarriesTheProxysFolderAndNamesOnlyWhenBothAreThere() throws {
        let manifest = BundleManifest(bundleId: "b", sdkVersion: "0", abiVersion: 1, widgets: [], appGroups: ["group.x"],
                                      busNames: ["org.example.A", "not valid", "org.mpris.MediaPlayer2.*"])
        let spec = WorkerSandbox.Spec(manifest: manifest, containersRoot: "/c", isolate: true, busDirectory: "/s/bus/1-1")
        #expect(spec.busNames == ["org.example.A", "org.mpris.MediaPlayer2.*"])
        #expect(spec.argument == "no-network isolate\n/c/group.x\nbus /s/bus/1-1\ntalk org.example.A\ntalk org.mpris.MediaPlayer2.*")
        #expect(WorkerSandbox.Spec.parse(spec.argument) == spec)
        #expect(spec.busAddress == "unix:path=/run/widgethost-bus/bus")
        var landlockOnly = spec
        landlockOnly.isolate = false
        #expect(landlockOnly.busAddress == "unix:path=/s/bus/1-1/bus")
        // No session bus (no folder): no names, no address.
        let noBus = WorkerSandbox.Spec(manifest: manifest, containersRoot: "/c", isolate: true)
        #expect(noBus.busNames.isEmpty && noBus.busAddress == nil && !noBus.argument.contains("talk"))
        #expect(WorkerSandbox.Spec.parse("no-network\ntalk not valid") == nil)
        #expect(BusProxyRule.proxyArguments(busAddress: "unix:path=/b", socket: "/s/bus", names: spec.busNames, syncFD: 3)
                == ["--fd=3", "unix:path=/b", "/s/bus", "--filter", "--talk=org.example.A", "--talk=org.mpris.MediaPlayer2.*"])
    }

    @Test func declaredSignalsOfDeclaredNamesAndTheirOwnersAreWatched() {
        let m = BundleManifest(bundleId: "b", sdkVersion: "0", abiVersion: 1, widgets: [], appGroups: [],
                               busNames: ["org.mpris.MediaPlayer2.*", "org.example.A"],
                               busSignals: [BusSignal(sender: "org.mpris.MediaPlayer2.*", interface: "org.freedesktop.DBus.Properties",
                                                      member: "PropertiesChanged", path: "/org/mpris/MediaPlayer2"),
                                            BusSignal(sender: "org.example.A", interface: "org.example.Probe", member: "Changed"),
                                            BusSignal(sender: "org.example.B", interface: "org.example.Probe", member: "Changed"),
                                            BusSignal(sender: "org.example.A", interface: "org.example.Probe", member: "Changed',x='y")])
        let w = BusWatch.watches(for: m)
        #expect(w.map(\.rule) == [
            "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='/org/mpris/MediaPlayer2'",
            "type='signal',sender='org.example.A',interface='org.example.Probe',member='Changed'",
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',path='/org/freedesktop/DBus',arg0namespace='org.mpris.MediaPlayer2'",
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',path='/org/freedesktop/DBus',arg0='org.example.A'",
        ])
        #expect(w[0].matches(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: "/org/mpris/MediaPlayer2", arg0: nil))
        #expect(!w[0].matches(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: "/other", arg0: nil))
        #expect(w[1].matches(interface: "org.example.Probe", member: "Changed", path: "/any", arg0: nil))
        let owner = "/org/freedesktop/DBus"
        #expect(w[2].matches(interface: "org.freedesktop.DBus", member: "NameOwnerChanged", path: owner, arg0: "org.mpris.MediaPlayer2.vlc"))
        #expect(!w[2].matches(interface: "org.freedesktop.DBus", member: "NameOwnerChanged", path: owner, arg0: "org.mpris.MediaPlayer2x"))
        #expect(w[3].matches(interface: "org.freedesktop.DBus", member: "NameOwnerChanged", path: owner, arg0: "org.example.A"))
        #expect(!w[3].matches(interface: "org.freedesktop.DBus", member: "NameOwnerChanged", path: owner, arg0: "org.example.AB"))
        #expect(BusWatch.watches(for: BundleManifest(bundleId: "b", sdkVersion: "0", abiVersion: 1, widgets: [], appGroups: [],
                                                     busSignals: m.busSignals)).isEmpty, "no names, no watches")
    }

    @Test func statusSaysWhatABundleReads() {
        let m = BundleManifest(bundleId: "b", sdkVersion: "0", abiVersion: 1, widgets: [], appGroups: ["group.x"],
                               permissions: ["network"], busNames: ["org.example.A"])
        #expect(HostStatus.Bundle.reads(m) == ["container group.x", "network", "bus org.example.A"])
        var b = HostStatus.Bundle(name: "x.so", bundleId: "b", worker: "idle", kinds: ["k"], appGroups: ["group.x"], reads: HostStatus.Bundle.reads(m))
        let lines = StatusText.lines(HostStatus(pid: 1, bundles: [b], rejected: [], widgets: []), now: Date(timeIntervalSince1970: 0))
        #expect(lines.contains("  reads: container group.x, network, bus org.example.A"), "\(lines)")
        // The other declarations: the calendar's folders, the network and disk bundle's permissions.
        let other = BundleManifest(bundleId: "c", sdkVersion: "0", abiVersion: 1, widgets: [], appGroups: [],
                                   permissions: ["mount-sizes", "network-counters"], filesystems: ["xdg-data/calendars:ro"])
        #expect(HostStatus.Bundle.reads(other) == ["network-counters", "mount-sizes", "files xdg-data/calendars:ro"])
        b.reads = nil
        let bare = StatusText.lines(HostStatus(pid: 1, bundles: [b], rejected: [], widgets: []), now: Date(timeIntervalSince1970: 0))
        #expect(bare.contains("  reads: nothing beyond its own .so and the system's files"), "\(bare)")
    }

    /// `systemBusNames`: a second proxy's socket (`system`) in the same folder, its own address,
    /// only for the bus the host has; `bus: "system"` signals of system names are watched on
    /// the system bus, the session-bus ones on the session bus, each only for its own names.
    @Test func systemBusNamesGetTheirOwnSocketAddressAndWatches() throws {
        let manifest = BundleManifest(bundleId: "b", sdkVersion: "0", abiVersion: 1, widgets: [], appGroups: [],
                                      busSignals: [BusSignal(sender: "org.freedesktop.UPower", interface: "org.freedesktop.UPower",
                                                             member: "DeviceAdded", bus: "system"),
                                                   BusSignal(sender: "org.freedesktop.UPower", interface: "org.freedesktop.UPower",
                                                             member: "DeviceRemoved"),
                                                   BusSignal(sender: "org.freedesktop.UPower", interface: "org.freedesktop.UPower",
                                                             member: "Changed", bus: "other")],
                                      systemBusNames: ["org.freedesktop.UPower", "not valid"])
        let spec = WorkerSandbox.Spec(manifest: manifest, containersRoot: "/c", isolate: true, busDirectory: "/s/bus/1-2")
        #expect(spec.busNames.isEmpty && spec.systemBusNames == ["org.freedesktop.UPower"])
        #expect(spec.argument == "no-network isolate\nbus /s/bus/1-2\nsystem-talk org.freedesktop.UPower")
        #expect(WorkerSandbox.Spec.parse(spec.argument) == spec)
        #expect(spec.busAddress == nil, "no session-bus name: no DBUS_SESSION_BUS_ADDRESS")
        #expect(spec.systemBusAddress == "unix:path=/run/widgethost-bus/system")
        // The host without a system bus: no names, no folder, no address.
        let none = WorkerSandbox.Spec(manifest: manifest, containersRoot: "/c", isolate: true, busDirectory: "/s/bus/1-3", systemBus: false)
        #expect(none.systemBusNames.isEmpty && none.busDirectory == nil && none.systemBusAddress == nil)
        #expect(WorkerSandbox.Spec.parse("no-network\nsystem-talk not valid") == nil)

        let w = BusWatch.watches(for: manifest)
        #expect(w.map(\.rule) == [
            "type='signal',sender='org.freedesktop.UPower',interface='org.freedesktop.UPower',member='DeviceAdded'",
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',path='/org/freedesktop/DBus',arg0='org.freedesktop.UPower'",
        ], "the session-bus signal of a system name and the unknown bus are ignored")
        #expect(w.allSatisfy { $0.system })
        #expect(HostStatus.Bundle.reads(manifest) == ["system bus org.freedesktop.UPower"])
        #expect(BusProxyRule.systemBusAddress([:]) == "unix:path=/run/dbus/system_bus_socket")
        #expect(BusProxyRule.systemBusAddress(["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/t/b"]) == "unix:path=/t/b")
        #expect(BusProxyRule.systemBusMissing("unix:path=/nonexistent/bus,guid=1") == "no system bus (/nonexistent/bus does not exist)")
        #expect(BusProxyRule.systemBusMissing("unix:path=/") == nil)
    }
}
