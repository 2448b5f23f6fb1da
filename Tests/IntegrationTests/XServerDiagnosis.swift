import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What a failure message says when a client could not use a test's X display (a flake once:
/// "cannot open a display" on the test's own Xvfb): whether that Xvfb still runs or how it
/// ended, what it wrote, and who listens on the display's sockets now (another server on the
/// same number, none, or the socket file gone). Read from /proc, as it is at the failure; any
/// thread; nothing is changed (the Xvfb is not reaped).
enum XDisplayDiagnosis {
    /// `display` (":N") served by `server` (started by the test): one paragraph.
    static func describe(display: String, server: BarProcess) -> String {
        let number = display.dropFirst().prefix { $0.isNumber }
        let path = "/tmp/.X11-unix/X\(number)"
        var lines = ["X display \(display): Xvfb pid \(server.pid) \(server.fate)",
                     "  Xvfb stdout \(server.stdout.debugDescription), stderr: \(server.stderr.suffix(2000).debugDescription)"]
        let listening = unixListeners()
        for name in ["@" + path, path] {
            let inodes = listening.filter { $0.path == name }.map(\.inode)
            let holders = inodes.flatMap { owners(ofSocket: $0) }
            lines.append("  \(name): " + (inodes.isEmpty ? "nobody listens" : "listened on by " + (holders.isEmpty ? "an unknown process" : holders.joined(separator: ", "))))
        }
        var st = stat()
        lines.append("  socket file \(path): " + (lstat(path, &st) == 0 ? "present (uid \(st.st_uid))" : "absent (\(String(cString: strerror(errno))))"))
        lines.append("  a connection now: " + connectAbstract(path))
        return lines.joined(separator: "\n")
    }

    /// The listening Unix sockets of this network namespace (/proc/net/unix: flags 00010000 is
    /// `__SO_ACCEPTCON`), with their inode and bound name (abstract ones start with "@").
    static func unixListeners() -> [(inode: String, path: String)] {
        (FileManagerFree.read("/proc/net/unix") ?? "").split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count >= 8, f[3] == "00010000" else { return nil }
            return (String(f[6]), String(f[7]))
        }
    }

    /// "pid (comm, uid U)" of each process holding socket `inode` open.
    static func owners(ofSocket inode: String) -> [String] {
        let target = "socket:[\(inode)]"
        return FileManagerFree.names(in: "/proc").compactMap { pid_t($0) }.compactMap { pid in
            let fds = FileManagerFree.names(in: "/proc/\(pid)/fd")
            guard fds.contains(where: { link("/proc/\(pid)/fd/\($0)") == target }) else { return nil }
            let comm = (FileManagerFree.read("/proc/\(pid)/comm") ?? "?").filter { $0 != "\n" }
            let uid = (FileManagerFree.read("/proc/\(pid)/status") ?? "").split(separator: "\n")
                .first { $0.hasPrefix("Uid:") }?.split(separator: "\t").dropFirst().first ?? "?"
            return "\(pid) (\(comm), uid \(uid))"
        }
    }

    static func link(_ path: String) -> String? {
        var buf = [CChar](repeating: 0, count: 256)
        let n = readlink(path, &buf, buf.count - 1)
        return n > 0 ? String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// Connects to the abstract socket `@path`, as libxcb does first: "accepted" or the error.
    static func connectAbstract(_ path: String) -> String {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return "no socket: \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let name = [UInt8(0)] + Array(path.utf8)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in name.enumerated() where i < raw.count { raw[i] = b } }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count)
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) } }
        return rc == 0 ? "accepted" : "refused: \(String(cString: strerror(errno)))"
    }
}
