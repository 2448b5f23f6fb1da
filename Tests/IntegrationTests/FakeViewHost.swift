import FoundationEssentials
import OpenWidgetKit
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// A control socket standing in for the host's, for the lean desktop surface: a `watch` request
/// gets the current snapshot (`DesktopViewMessage` lines, `WireCodec`) and then every message
/// `send` is given; any other request (`click`) is recorded and answered `done`. `goAway()`
/// closes every connection and the socket, as a host that stops; `comeBack()` listens again at
/// the same path. Deterministic: the trees are the test's own.
///
/// Threading: `send`, `goAway`, `comeBack` and the accessors from any thread (a mutex); one
/// serving queue item per listening period.
final class FakeViewHost: @unchecked Sendable {
    let path: String
    private let lock = TestMutex()
    private var listener: Int32 = -1
    private var watchers: [Int32] = []
    private var received: [String] = []
    private var snapshot: DesktopViewMessage
    private var watchCount = 0

    /// The requests other than `watch`, in order.
    var requests: [String] { lock.locked { received } }
    /// How many `watch` requests came (a reconnecting surface sends one each time).
    var watches: Int { lock.locked { watchCount } }

    init(path: String, snapshot: DesktopViewMessage) throws {
        self.path = path
        self.snapshot = snapshot
        try comeBack()
    }

    /// Listens (again) at `path`.
    func comeBack() throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in path.utf8.enumerated() { buf[i] = b } }
        unlink(path)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, rc == 0, listen(fd, 8) == 0 else { throw FakeControlSocket.ListenFailure(path: path) }
        lock.locked { listener = fd }
        DispatchQueue.global().async { self.serve(fd) }
    }

    private func serve(_ fd: Int32) {
        while true {
            let c = accept(fd, nil, nil)
            if c < 0 { if lock.locked({ listener != fd }) { return }; continue }
            var line: [UInt8] = [], byte: UInt8 = 0
            while read(c, &byte, 1) == 1, byte != 0x0A { line.append(byte) }
            let request = String(decoding: line, as: UTF8.self)
            if request.contains(#""op":"watch""#) {
                lock.locked {
                    watchCount += 1
                    _ = FileIO.writeAll(c, Data(Self.line(snapshot)))
                    watchers.append(c)
                }
            } else {
                lock.locked { received.append(request) }
                _ = FileIO.writeAll(c, Data(#"{"ok":true,"message":"done"}"#.utf8 + [0x0A]))
                close(c)
            }
        }
    }

    static func line(_ m: DesktopViewMessage) -> [UInt8] { Array((try? WireCodec.encode(m)) ?? Data()) + [0x0A] }

    /// Sends `message` to every watcher; a snapshot also becomes what a new watcher gets.
    /// A change is folded into the next snapshot too.
    func send(_ message: DesktopViewMessage) { sendRaw(Self.line(message), folding: message) }

    /// Writes `bytes` as they are to every watcher (hostile input), then folds `message`, if any.
    func sendRaw(_ bytes: [UInt8], folding message: DesktopViewMessage? = nil) {
        lock.locked {
            for c in watchers { _ = FileIO.writeAll(c, Data(bytes)) }
            guard let m = message else { return }
            if m.snapshot { snapshot = m; return }
            for w in m.widgets {
                if let i = snapshot.widgets.firstIndex(where: { $0.id == w.id }) { snapshot.widgets[i] = w } else { snapshot.widgets.append(w) }
            }
            snapshot.widgets.removeAll { m.removed.contains($0.id) }
        }
    }

    /// The host stops: every connection and the socket closed, the path removed.
    func goAway() {
        lock.locked {
            for c in watchers { shutdown(c, Int32(SHUT_RDWR)); close(c) }
            watchers = []
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
            listener = -1
        }
        unlink(path)
    }

    func stop() { goAway() }
}
