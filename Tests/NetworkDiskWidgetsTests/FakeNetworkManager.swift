import Foundation
import SessionBus
#if canImport(Glibc)
import Glibc
#endif

/// One active connection of the fake NetworkManager's state (its JSON, see
/// Tests/IntegrationTests/Fixtures/fake_networkmanager.py).
struct FakeConnection: Encodable {
    var interface: String
    var type: String
    var id: String
    var state: Int? = nil
    var ssid: [UInt8]? = nil
    var strength: Int? = nil

    static func wifi(_ interface: String, ssid: String, strength: Int, id: String? = nil) -> FakeConnection {
        FakeConnection(interface: interface, type: "802-11-wireless", id: id ?? ssid, ssid: Array(ssid.utf8), strength: strength)
    }

    static func wired(_ interface: String) -> FakeConnection {
        FakeConnection(interface: interface, type: "802-3-ethernet", id: "Wired connection 1")
    }

    static func json(_ state: [FakeConnection]) -> String {
        String(decoding: try! JSONEncoder().encode(state), as: UTF8.self)
    }
}

/// A private bus for one test — a real `dbus-daemon` on a socket in a folder of its own — and,
/// when `state` is given, the fake NetworkManager (python3-gi's Gio) owning
/// `org.freedesktop.NetworkManager` on it. Ready when `init` returns (the name is owned);
/// `stop()` (and deinit) ends both.
final class FakeNetworkManagerBus {
    static let script = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Tests/IntegrationTests/Fixtures/fake_networkmanager.py"
    }()

    let dir: String
    let address: String
    private var processes: [Process] = []

    struct Failure: Error, CustomStringConvertible { let description: String }

    init(state: [FakeConnection]?) throws {
        var template = Array("/tmp/netdisk-nm-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp failed") }
        dir = String(cString: made)
        address = "unix:path=\(dir)/bus"
        try start("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=" + address])
        guard Self.within(10, { access(dir + "/bus", F_OK) == 0 }) else { throw Failure(description: "dbus-daemon did not listen") }
        guard let state else { return }
        try start("/usr/bin/python3", [Self.script, address, FakeConnection.json(state)])
        let bus = try SessionBus(address: address)
        guard Self.within(20, { ((try? bus.listNames()) ?? []).contains("org.freedesktop.NetworkManager") }) else {
            throw Failure(description: "the fake NetworkManager did not own its name")
        }
    }

    /// Switches the fake to `state` (new active connections; it emits PropertiesChanged).
    func switchTo(_ state: [FakeConnection]) throws {
        _ = try SessionBus(address: address).call(destination: "org.freedesktop.NetworkManager", path: "/org/freedesktop/NetworkManager",
                                                  interface: "org.widgethost.test.FakeNetworkManager", member: "SetState",
                                                  arguments: [.string(FakeConnection.json(state))])
    }

    private func start(_ program: String, _ arguments: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: program)
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        processes.append(p)
    }

    /// Polls `condition` every 20 ms for up to `seconds`.
    static func within(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    func stop() {
        for p in processes.reversed() where p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
        processes = []
        try? FileManager.default.removeItem(atPath: dir)
    }

    deinit { stop() }
}
