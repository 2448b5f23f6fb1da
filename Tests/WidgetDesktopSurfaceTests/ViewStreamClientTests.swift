import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
@testable import WidgetDesktopSurface
#if canImport(Glibc)
import Glibc
#endif

/// `ViewStreamClient` against a fake host: a listening Unix socket in a private directory that
/// accepts the surface, checks its watch request and writes `DesktopViewMessage` lines of fixed
/// trees, split anywhere, as the host's stream may arrive.
@Suite struct ViewStreamClientTests {
    static let clock = DesktopViewMessage.Widget(
        id: "clock-systemSmall", kind: "clock", family: .systemSmall,
        view: text("12:00"), entryDate: Date(timeIntervalSince1970: 1_800_000_000), stale: false, running: true)
    static let snapshot = DesktopViewMessage(
        snapshot: true,
        layout: .init(widgets: ["clock-systemSmall"], anchor: "top-right", margin: 32, gap: 22, columns: 2, scale: 2, dark: nil),
        widgets: [clock], removed: [])

    static func line(_ m: DesktopViewMessage) throws -> [UInt8] { Array(try WireCodec.encode(m)) + [0x0A] }

    /// Reads until `count` events came (the fake host's bytes are in the socket already or
    /// arrive within the wait); waits for the socket, never for a fixed time.
    static func events(_ client: ViewStreamClient, count: Int) -> [ViewStreamClient.Event] {
        var events: [ViewStreamClient.Event] = []
        while events.count < count && client.isConnected {
            var p = pollfd(fd: client.descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 10_000) == 1 else { break }
            events += client.readAvailable()
        }
        return events
    }

    /// The desktop's scheme goes with the watch, each time it connects.
    @Test func theWatchSaysTheDesktopsColorScheme() throws {
        let host = try FakeViewHost()
        defer { host.stop() }
        let client = ViewStreamClient(socketPath: host.path)
        client.colorScheme = .dark
        #expect(client.connect() == nil)
        #expect(host.readLine(try #require(host.accept())) == #"{"colorScheme":"dark","op":"watch"}"#)
        client.close()
        client.colorScheme = .light
        #expect(client.connect() == nil)
        #expect(host.readLine(try #require(host.accept())) == #"{"colorScheme":"light","op":"watch"}"#)
    }

    @Test func decodesTheSnapshotAndChangesSplitAnywhere() throws {
        let host = try FakeViewHost()
        defer { host.stop() }
        let client = ViewStreamClient(socketPath: host.path)
        #expect(client.connect() == nil)
        let peer = try #require(host.accept())
        #expect(host.readLine(peer) == #"{"op":"watch"}"#)
        var change = Self.clock
        change.view = text("12:01")
        let changeMessage = DesktopViewMessage(snapshot: false, layout: nil, widgets: [change], removed: [])
        let removal = DesktopViewMessage(snapshot: false, layout: nil, widgets: [], removed: ["clock-systemSmall"])
        let bytes = try Self.line(Self.snapshot) + Self.line(changeMessage) + Self.line(removal)
        // In three pieces cut inside lines: the client joins them.
        host.write(peer, Array(bytes[0..<7]))
        host.write(peer, Array(bytes[7..<(bytes.count - 5)]))
        host.write(peer, Array(bytes[(bytes.count - 5)...]))
        let events = Self.events(client, count: 3)
        #expect(events == [.message(Self.snapshot), .message(changeMessage), .message(removal)])
        close(peer)
    }

    @Test func aMalformedLineIsReportedAndTheStreamGoesOn() throws {
        let host = try FakeViewHost()
        defer { host.stop() }
        let client = ViewStreamClient(socketPath: host.path)
        #expect(client.connect() == nil)
        let peer = try #require(host.accept())
        host.write(peer, Array(#"{"snapshot": "yes"}"#.utf8) + [0x0A] + (try Self.line(Self.snapshot)))
        let events = Self.events(client, count: 2)
        try #require(events.count == 2, "\(events)")
        guard case .malformed(let why) = events[0] else { Issue.record("not reported: \(events[0])"); return }
        #expect(why.contains("not a view stream message") && why.contains(#"{"snapshot": "yes"}"#), "\(why)")
        #expect(events[1] == .message(Self.snapshot))
        #expect(client.isConnected)
        close(peer)
    }

    @Test func theHostGoingAwayDisconnectsAndAReconnectGetsANewSnapshot() throws {
        let host = try FakeViewHost()
        defer { host.stop() }
        let client = ViewStreamClient(socketPath: host.path)
        #expect(client.connect() == nil)
        var peer = try #require(host.accept())
        #expect(host.readLine(peer) == #"{"op":"watch"}"#)
        host.write(peer, try Self.line(Self.snapshot))
        #expect(Self.events(client, count: 1) == [.message(Self.snapshot)])
        close(peer)
        #expect(Self.events(client, count: 1) == [.disconnected("the host closed the view stream")])
        #expect(!client.isConnected && client.descriptor == -1)
        // A restarted host: the same path, a new connection, a new watch request.
        #expect(client.connect() == nil)
        peer = try #require(host.accept())
        #expect(host.readLine(peer) == #"{"op":"watch"}"#)
        host.write(peer, try Self.line(Self.snapshot))
        #expect(Self.events(client, count: 1) == [.message(Self.snapshot)])
        close(peer)
    }

    @Test func noHostIsAReasonNotACrash() throws {
        let dir = "/tmp/vsc-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(dir, 0o700)
        defer { rmdir(dir) }
        let client = ViewStreamClient(socketPath: dir + "/ctl.sock")
        let why = try #require(client.connect())
        #expect(why.contains("no host listens at \(dir)/ctl.sock"), "\(why)")
        #expect(!client.isConnected)
        let long = ViewStreamClient(socketPath: "/tmp/" + String(repeating: "x", count: 200))
        #expect(long.connect()?.contains("socket path too long") == true)
    }

    @Test func aHostWithoutTheViewStreamIsNamed() throws {
        let host = try FakeViewHost()
        defer { host.stop() }
        let client = ViewStreamClient(socketPath: host.path)
        #expect(client.connect() == nil)
        let peer = try #require(host.accept())
        host.write(peer, Array(#"{"error":"unknown op \"watch\"","ok":false}"#.utf8) + [0x0A])
        #expect(Self.events(client, count: 1) == [.disconnected(#"the host refused the view stream: unknown op "watch""#)])
        close(peer)
    }

    @Test func anEndlessLineIsRefusedNotBuffered() throws {
        let host = try FakeViewHost()
        defer { host.stop() }
        let client = ViewStreamClient(socketPath: host.path, maxLineBytes: 1000)
        #expect(client.connect() == nil)
        let peer = try #require(host.accept())
        host.write(peer, [UInt8](repeating: 0x20, count: 4000))
        #expect(Self.events(client, count: 1) == [.disconnected("a line of the view stream is longer than 1000 bytes")])
        close(peer)
    }
}

/// A text node reading `s`.
func text(_ s: String) -> ViewNode {
    var n = ViewNode(kind: .text)
    n.text = s
    return n
}

/// A listening Unix socket standing in for the host's control socket, in a private directory.
final class FakeViewHost {
    let directory: String
    let path: String
    private let fd: Int32

    init() throws {
        directory = "/tmp/vsh-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(directory, 0o700)
        path = directory + "/ctl.sock"
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in path.utf8.enumerated() { buf[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, rc == 0, listen(fd, 4) == 0 else { throw CannotListen() }
    }

    struct CannotListen: Error {}

    /// The next connection (waits at most 10 s for it).
    func accept() -> Int32? {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 10_000) == 1 else { return nil }
        let c = Glibc.accept(fd, nil, nil)
        return c >= 0 ? c : nil
    }

    func readLine(_ c: Int32) -> String {
        var line: [UInt8] = [], byte: UInt8 = 0
        while read(c, &byte, 1) == 1, byte != 0x0A { line.append(byte) }
        return String(decoding: line, as: UTF8.self)
    }

    func write(_ c: Int32, _ bytes: [UInt8]) { _ = FileIO.writeAll(c, Data(bytes)) }

    func stop() {
        close(fd)
        unlink(path)
        rmdir(directory)
    }
}
