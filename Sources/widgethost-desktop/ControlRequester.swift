import FoundationEssentials
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Sends one request on the host's control socket and reads its answer (one JSON line each
/// way), with a 2 s limit so a stuck host cannot freeze the desktop. Main thread; blocking.
enum ControlRequester {
    static func send(_ request: ControlRequest, to path: String) -> Result<ControlResponse, ControlFailure> {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(ControlFailure("socket: \(String(cString: strerror(errno)))")) }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return .failure(ControlFailure("socket path too long: \(path)")) }
        withUnsafeMutableBytes(of: &addr.sun_path) { dst in dst.copyBytes(from: bytes) }
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return .failure(ControlFailure("cannot connect to \(path): \(String(cString: strerror(errno))) (is widgethost running?)")) }
        let line = ControlCodec.encode(request)
        guard FileIO.writeAll(fd, Data(line)) else { return .failure(ControlFailure("write: \(String(cString: strerror(errno)))")) }
        var reply: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while !reply.contains(0x0a) {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return .failure(ControlFailure("no answer from the host")) }
            reply += buf[0..<n]
        }
        let first = reply.prefix { $0 != 0x0a }
        guard let r = try? ControlCodec.decode(ControlResponse.self, line: first) else { return .failure(ControlFailure("malformed answer")) }
        return .success(r)
    }
}

struct ControlFailure: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
