import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A blocking client of the control socket (DESIGN §9): one request line out, one response line
/// back, for the CLI's `reload`/`click`/`status` and for `widgethost-desktop`'s clicks. Any
/// thread; blocks for at most `timeout` seconds waiting for the answer.
public enum ControlSocketClient {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        /// Nothing listens on the socket (no file, or nobody accepting): no host runs there.
        public let noHost: Bool
        public init(description: String, noHost: Bool = false) { self.description = description; self.noHost = noHost }
    }

    /// The longest answer read: `status` grows with the widgets (about 0.5 KB each, more with
    /// long texts and many controls); 1 MiB, the requests' bound, failed it at 10 000 widgets
    /// with `Overflow` (issue 23). The host runs at most `HostConfig.widgetLimit` widgets.
    public static let maxResponseBytes = 256 << 20

    public static func send(_ request: ControlRequest, to path: String, timeout: Int = 30) throws(Failure) -> ControlResponse {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { throw Failure(description: "socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in bytes.enumerated() { buf[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard rc == 0 else {
            let absent = errno == ENOENT || errno == ECONNREFUSED
            throw Failure(description: "cannot connect to \(path): \(String(cString: strerror(errno))) (is `widgethost run` running?)", noHost: absent)
        }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        guard FileIO.writeAll(fd, Data(ControlCodec.encode(request))) else {
            throw Failure(description: "write: \(String(cString: strerror(errno)))")
        }
        var splitter = LineSplitter(maxLine: maxResponseBytes)
        var buf = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw Failure(description: "no answer from \(path): \(String(cString: strerror(errno)))") }
            if n == 0 { throw Failure(description: "\(path) closed the connection without an answer") }
            do {
                if let first = try splitter.feed(buf[0..<n]).first {
                    return try ControlCodec.decode(ControlResponse.self, line: first)
                }
            } catch {
                throw Failure(description: "malformed answer from \(path): \(error)")
            }
        }
    }
}
