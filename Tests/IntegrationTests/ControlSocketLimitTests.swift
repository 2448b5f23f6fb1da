import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking connection to the Unix socket at `path` (-1 when refused).
func connectUnix(_ path: String) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return -1 }
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in path.utf8.enumerated() { buf[i] = b } }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    let rc = withUnsafePointer(to: &addr) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    if rc != 0 && errno != EINPROGRESS && errno != EAGAIN { close(fd); return -1 }
    return fd
}

/// 20 000 idle connections to the control socket exhausted the host's descriptors, after which a
/// rescan took the plugin folder for empty and marked a present plugin removed (issue 15).
@Suite(.serialized) struct ControlSocketLimitTests {
    static let config = #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"}}"#
    let id = "fault-systemSmall"

    @Test func aConnectionFloodNeitherExhaustsDescriptorsNorRemovesAPlugin() throws {
        // 64 descriptors: the host's cap is 16 connections.
        let d = try RunningDaemon(config: Self.config, wrapper: ["/usr/bin/prlimit", "--nofile=64", "--"])
        d.install(try buildFault(in: d.dir.path, 0), as: "fault.so")
        #expect(eventually { d.text(id)?.hasPrefix("fine ") == true }, "\(d.stderr.suffix(2000))")
        let socketPath = d.dir.path + "/control.sock"
        var flood: [Int32] = []
        defer { flood.forEach { close($0) } }
        for _ in 0..<300 {
            let fd = connectUnix(socketPath)
            if fd >= 0 { flood.append(fd) }
            if flood.count % 20 == 0 { usleep(20_000) }  // let the host accept
        }
        #expect(eventually { d.stderr.contains("control socket: 16 connections open") }, "\(d.stderr.suffix(2000))")
        // A rescan during the flood (SIGHUP) keeps the plugin; status still gets through.
        d.signal(SIGHUP)
        #expect(eventually { d.stderr.contains("SIGHUP") })
        let status = run(TestPaths.widgethost, ["status", "--config", d.dir.path + "/config.json"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains(id), "\(status.stdout)")
        usleep(300_000)
        #expect(!d.stderr.contains("Too many open files"), "\(d.stderr.suffix(2000))")
        #expect(!d.stderr.contains("plugin removed"), "\(d.stderr.suffix(2000))")
        #expect(d.output(id)?["removed"] == nil)
        #expect(kill(d.pid, 0) == 0 && d.waitForExit(timeout: 0) == nil)
    }

    @Test func aHalfSentLineIsClosedAfterTheIdleTimeout() throws {
        let d = try RunningDaemon(config: Self.config)
        let socketPath = d.dir.path + "/control.sock"
        #expect(eventually { FileManagerFree.exists(socketPath) })
        let fd = connectUnix(socketPath)
        try #require(fd >= 0)
        defer { close(fd) }
        _ = #"{"op":"sta"#.withCString { write(fd, $0, 10) }
        let start = monotonicNow()
        var buf = [UInt8](repeating: 0, count: 64)
        // The host closes it (read returns 0) after its 10 s idle timeout, not before 9 s.
        let closed = eventually(timeout: 20) { read(fd, &buf, buf.count) == 0 }
        #expect(closed)
        #expect(monotonicNow() - start > 9)
    }
}
