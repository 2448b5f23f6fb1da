import CLibUV
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// A Unix-domain socket server on a libuv pipe (the control socket, DESIGN §9). The socket is
/// created with mode 0600 (umask 077 around `bind`, then `chmod`) in a directory created 0700.
/// A leftover socket file nobody answers on is replaced; one a live host answers on is not, nor
/// anything at `path` that is not a socket (a regular file at that name is left as it is, and
/// refused with an error naming what is there), nor a path too long for `sun_path`.
/// `onConnection` gets each accepted client as a `UVPipe` (not yet reading). `close()` also
/// removes the socket file. Loop thread only.
public final class UVPipeServer: UVHandle {
    public let path: String
    private var onConnection: (UVPipe) -> Void
    private let loop: UVLoop

    public struct BindError: Error, CustomStringConvertible { public let description: String }

    public init(loop: UVLoop, path: String, onConnection: @escaping (UVPipe) -> Void) throws {
        self.path = path
        self.loop = loop
        self.onConnection = onConnection
        super.init(size: MemoryLayout<uv_pipe_t>.size)
        let p = memory.assumingMemoryBound(to: uv_pipe_t.self)
        guard uv_pipe_init(loop.raw, p, 0) == 0 else { discardUnattached(); throw BindError(description: "uv_pipe_init failed") }
        attach()
        // libuv 1.44 cuts a longer name to fit `sun_path` and binds that: two long paths alike
        // in their first 107 bytes would share one socket.
        let limit = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        guard path.utf8.count < limit else {
            close()
            throw BindError(description: "\(path) is too long for a socket (\(path.utf8.count) bytes, at most \(limit - 1)): set paths.socket to a shorter path")
        }
        let dir = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !dir.isEmpty { Self.makeDirectory(dir) }
        var st = stat()
        if lstat(path, &st) == 0 {
            // Only a socket is ever replaced: a file of the user's at that name is never deleted.
            if let what = Self.notASocket(path) { close(); throw BindError(description: "\(path) is \(what), not a socket: left alone (point paths.socket elsewhere)") }
            if Self.isLive(path) { close(); throw BindError(description: "\(path) is in use by another widgethost") }
            unlink(path)
        }
        let old = umask(0o077)
        let rc = uv_pipe_bind(p, path)
        umask(old)
        guard rc == 0 else { close(); throw BindError(description: "cannot bind \(path): \(UVError.describe(rc))") }
        chmod(path, 0o600)
        let lrc = uv_listen(memory.assumingMemoryBound(to: uv_stream_t.self), 16) { server, status in
            guard status >= 0, let server, let me = UVHandle.object(server, as: UVPipeServer.self) else { return }
            let client = UVPipe(loop: me.loop)
            if uv_accept(server, client.stream) == 0 { me.onConnection(client) } else { client.close() }
        }
        guard lrc == 0 else { close(); unlink(path); throw BindError(description: "cannot listen on \(path): \(UVError.describe(lrc))") }
    }

    /// What is at `path` when it is not a socket (a regular file, a folder…), nil for a socket.
    /// Only a leftover socket is ever removed: `paths.socket` naming the user's file must not
    /// delete it (issue 23).
    static func notASocket(_ path: String) -> String? {
        var st = stat()
        guard lstat(path, &st) == 0, st.st_mode & S_IFMT != S_IFSOCK else { return nil }
        return FileIO.kindName(st.st_mode & S_IFMT)
    }

    /// Whether a process accepts connections on the socket at `path`.
    static func isLive(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: addr.sun_path) else { return false }
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in bytes.enumerated() { buf[i] = b } }
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        return rc == 0
    }

    static func makeDirectory(_ dir: String) {
        var partial = ""
        for comp in dir.split(separator: "/") {
            partial += "/" + comp
            mkdir(partial, 0o700)
        }
    }

    /// Stops listening and removes the socket file.
    public func closeAndRemove() {
        if !isClosing, Self.notASocket(path) == nil { unlink(path) }
        close()
    }

    public override func didClose() { onConnection = { _ in } }
}
