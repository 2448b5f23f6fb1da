import CCairo
import Dispatch
import FoundationEssentials
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// A valid PNG of `width` × `height` black pixels at one bit per pixel: a few hundred KB on
/// disk for 30 000 × 30 000 (112 MB of zero scanlines deflated), gigabytes once decoded.
func hugeBlankPNG(width: Int, height: Int) -> [UInt8] {
    func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let crc = body.withUnsafeBufferPointer { Int(crc32(0, $0.baseAddress, uInt($0.count))) }
        return be32(data.count) + body + be32(crc)
    }
    let raw = [UInt8](repeating: 0, count: (1 + (width + 7) / 8) * height)  // filter byte 0, then the bits
    var size = compressBound(uLong(raw.count))
    var deflated = [UInt8](repeating: 0, count: Int(size))
    let rc = compress2(&deflated, &size, raw, uLong(raw.count), 9)
    precondition(rc == Z_OK)
    return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be32(width) + be32(height) + [1, 0, 0, 0, 0])
        + chunk("IDAT", Array(deflated.prefix(Int(size)))) + chunk("IEND", [])
}

/// A stand-in for the host's control socket: answers every request line with `{"ok":true,
/// "message":"done"}` and keeps the requests, on a thread of its own.
final class FakeControlSocket: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private let lock = TestMutex()
    private var received: [String] = []
    private var stopped = false

    var requests: [String] { lock.locked { received } }

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in path.utf8.enumerated() { buf[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, rc == 0, listen(fd, 8) == 0 else { throw ListenFailure(path: path) }
        DispatchQueue.global().async { self.serve() }
    }

    private func serve() {
        while true {
            let c = accept(fd, nil, nil)
            if c < 0 { if lock.locked({ stopped }) { return }; continue }
            var line: [UInt8] = [], byte: UInt8 = 0
            while read(c, &byte, 1) == 1, byte != 0x0A { line.append(byte) }
            lock.locked { received.append(String(decoding: line, as: UTF8.self)) }
            _ = FileIO.writeAll(c, Data(#"{"ok":true,"message":"done"}"#.utf8 + [0x0A]))
            close(c)
        }
    }

    struct ListenFailure: Error { let path: String }

    func stop() {
        lock.locked { stopped = true }
        shutdown(fd, Int32(SHUT_RDWR))
        close(fd)
        unlink(path)
    }
}

/// A pthread mutex (no Foundation `NSLock` here).
final class TestMutex: @unchecked Sendable {
    private var m = pthread_mutex_t()
    init() { pthread_mutex_init(&m, nil) }
    deinit { pthread_mutex_destroy(&m) }
    func locked<T>(_ body: () -> T) -> T { pthread_mutex_lock(&m); defer { pthread_mutex_unlock(&m) }; return body() }
}
