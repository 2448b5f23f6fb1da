import Foundation
import SessionBus
import Testing
@testable import NetworkDisk
#if canImport(Glibc)
import Glibc
#endif

/// `NetworkManagerReader` against a fake NetworkManager on a private `dbus-daemon`
/// (FakeNetworkManagerBus), read through the SDK's `SessionBus` as the widget reads it; and the
/// SSID's bytes as text.
@Suite(.serialized) struct NetworkManagerReaderTests {
    /// Never skipped in CI: scripts/install-deps.sh installs dbus-daemon and python3-gi.
    static let enabled = ProcessInfo.processInfo.environment["CI"] == "true"
        || (access("/usr/bin/dbus-daemon", X_OK) == 0 && access("/usr/bin/python3", X_OK) == 0)

    func reader(_ bus: FakeNetworkManagerBus) -> NetworkManagerReader {
        let address = bus.address
        return NetworkManagerReader { () throws(BusError) in try SessionBus(address: address) }
    }

    @Test(.enabled(if: enabled, "no dbus-daemon or python3 (scripts/install-deps.sh)"))
    func aWifiConnectionGivesItsInterfaceTheSSIDAndStrengthAndWiredNothing() throws {
        let bus = try FakeNetworkManagerBus(state: [.wired("enp3s0"), .wifi("wlp2s0", ssid: "Café ☕", strength: 72, id: "Home profile")])
        defer { bus.stop() }
        // The access point's SSID, not the profile's name.
        #expect(try reader(bus).read() == ["wlp2s0": WirelessLink(ssid: "Café ☕", strength: 72)])
    }

    @Test(.enabled(if: enabled, "no dbus-daemon or python3 (scripts/install-deps.sh)"))
    func withoutAnAccessPointTheConnectionsIdNamesItAndActivatingIsNotConnected() throws {
        var noAccessPoint = FakeConnection.wifi("wlan0", ssid: "x", strength: 0, id: "Office")
        noAccessPoint.ssid = nil
        var activating = FakeConnection.wifi("wlan1", ssid: "Next door", strength: 40)
        activating.state = 1
        var latin1 = FakeConnection.wifi("wlan2", ssid: "", strength: 101)
        latin1.ssid = [0x43, 0x61, 0x66, 0xE9]
        let bus = try FakeNetworkManagerBus(state: [noAccessPoint, activating, latin1])
        defer { bus.stop() }
        #expect(try reader(bus).read() == ["wlan0": WirelessLink(ssid: "Office", strength: nil),
                                           "wlan2": WirelessLink(ssid: "Café", strength: 100)])
    }

    @Test(.enabled(if: enabled, "no dbus-daemon or python3 (scripts/install-deps.sh)"))
    func aSwitchOfNetworkIsReadAtTheNextRead() throws {
        let bus = try FakeNetworkManagerBus(state: [.wifi("wlp2s0", ssid: "Home", strength: 80)])
        defer { bus.stop() }
        let r = reader(bus)
        #expect(r.wirelessLinks() == ["wlp2s0": WirelessLink(ssid: "Home", strength: 80)])
        try bus.switchTo([.wifi("wlp2s0", ssid: "Airport Free WiFi", strength: 31)])
        #expect(r.wirelessLinks() == ["wlp2s0": WirelessLink(ssid: "Airport Free WiFi", strength: 31)])
        try bus.switchTo([.wired("enp3s0")])
        #expect(r.wirelessLinks() == [:])
    }

    @Test(.enabled(if: enabled, "no dbus-daemon or python3 (scripts/install-deps.sh)"))
    func noNetworkManagerOrNoBusIsNoSSIDAndAClearError() throws {
        let bus = try FakeNetworkManagerBus(state: nil)
        defer { bus.stop() }
        #expect(reader(bus).wirelessLinks() == [:])
        #expect(throws: BusError.self) { try reader(bus).read() }
        do {
            _ = try reader(bus).read()
        } catch {
            #expect(error.name == "org.freedesktop.DBus.Error.ServiceUnknown", "\(error)")
        }
        let none = NetworkManagerReader { () throws(BusError) in try SessionBus(address: nil) }
        #expect(none.wirelessLinks() == [:])
    }

    @Test func anSSIDIsUTF8OrElseEachByteKeptAndControlsEscaped() {
        #expect(NetworkManagerReader.text(ssid: Array("Café ☕".utf8)) == "Café ☕")
        // Not UTF-8 (ISO-8859-1 "Café"): each byte its Latin-1 character.
        #expect(NetworkManagerReader.text(ssid: [0x43, 0x61, 0x66, 0xE9]) == "Café")
        // Two different invalid names stay different.
        #expect(NetworkManagerReader.text(ssid: [0xFF, 0xFE]) == "ÿþ")
        #expect(NetworkManagerReader.text(ssid: [0xFE, 0xFF]) == "þÿ")
        #expect(NetworkManagerReader.text(ssid: [0x41, 0x00, 0x0A, 0x7F, 0x42]) == "A\\x00\\x0A\\x7FB")
        #expect(NetworkManagerReader.text(ssid: [0x41, 0x85, 0xE9]) == "A\\x85é")
    }
}

/// The Network widget's entry with what NetworkManager says (a stub source): the interface it
/// names is Wi-Fi with its network; without it, the kernel's kind and no name.
@Suite struct NetworkEntryLinkTests {
    struct Links: WirelessLinkSource {
        let links: [String: WirelessLink]
        func wirelessLinks() -> [String: WirelessLink] { links }
    }

    func entry(_ links: [String: WirelessLink]) -> InterfaceRate? {
        let configuration = NetworkConfigIntent()
        configuration.interface = InterfaceEntity(id: "lo")
        return NetworkProvider(links: Links(links: links)).entry(for: configuration).interfaces.first
    }

    @Test func theInterfaceNetworkManagerNamesIsWiFiWithItsNetwork() {
        let link = WirelessLink(ssid: "Test Network", strength: 64)
        let shown = entry(["lo": link])
        #expect(shown?.name == "lo")
        #expect(shown?.kind == .wifi)
        #expect(shown?.link == link)
    }

    @Test func withoutNetworkManagerTheKindIsTheKernelsAndNoName() {
        let shown = entry([:])
        #expect(shown?.kind == .loopback)
        #expect(shown?.link == nil)
    }

    @Test func theFanLightsOneArcMorePerBar() {
        #expect([0, 5, 6, 30, 31, 55, 56, 100].map(InterfaceGlyph.bars) == [0, 0, 1, 1, 2, 2, 3, 3])
    }
}
