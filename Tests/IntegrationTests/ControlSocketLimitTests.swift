import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
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
        // Descriptors of other tests in this process, not close-on-exec, as in a full run:
        // the daemon must not inherit them (`RunningDaemon` starts it with 0, 1 and 2 only).
        let others = (0..<50).map { _ in socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0) }
        defer { others.forEach { close($0) } }
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

/// Who can reach a daemon's control socket (issue 22): the CI run's test daemons took `reload`
/// and `click` requests that no test sent, from another widgethost user on the machine. A
/// default socket is named by its state folder (two configs never share one), every daemon and
/// client the tests start has a runtime folder of the test process's own, and a path that is
/// not a socket, or too long to be one, is refused without touching anything (issue 23).
@Suite(.serialized) struct ControlSocketPrivacyTests {
    /// Two users, one runtime folder (as root's sessions share `/run/user/0`), each with the
    /// default config in their own HOME: each one's `status` reaches their own daemon. The
    /// default state used to get the shared name `control.sock`, so the second daemon had no
    /// socket and its user's commands went to the first.
    @Test func twoUsersSharingARuntimeFolderEachReachTheirOwnDaemon() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let runtime = dir.path + "/run"
        mkdir(runtime, 0o700)
        func session(_ name: String) -> [String] {
            let home = dir.path + "/" + name
            for d in [home, home + "/.config", home + "/.config/widgethost"] { mkdir(d, 0o700) }
            FileManagerFree.write(home + "/.config/widgethost/config.json", #"{"widgets": []}"#)
            return currentEnvironment().filter { !$0.hasPrefix("HOME=") && !$0.hasPrefix("XDG_") && !$0.hasPrefix("WIDGETHOST_") }
                + ["HOME=\(home)", "XDG_RUNTIME_DIR=\(runtime)"]
        }
        let sessions = [session("a"), session("b")]
        var hosts: [BarProcess] = []
        for (i, env) in sessions.enumerated() {
            let h = try BarProcess(TestPaths.widgethost, ["run", "--log-level", "debug"], dir: dir.path, name: "host\(i)", environment: env)
            #expect(eventually { h.stderr.contains("widgethost running") }, "host \(i):\n\(h.stderr)")
            hosts.append(h)
        }
        for (i, env) in sessions.enumerated() {
            let s = try BarProcess(TestPaths.widgethost, ["status", "--json"], dir: dir.path, name: "status\(i)", environment: env)
            #expect(s.waitForExit(timeout: 30) == 0, "\(s.stderr)")
            let status = try? WireCodec.decode([String: JSONValue].self, from: Data(s.stdout.utf8))
            #expect(status?["pid"]?.intValue == Int(hosts[i].pid), "user \(i)'s status answered by pid \(status?["pid"]?.intValue ?? -1), theirs is \(hosts[i].pid)")
            #expect(!hosts[i].stderr.contains("no control socket"), "\(hosts[i].stderr)")
        }
        for h in hosts { h.signal(SIGTERM); #expect(h.waitForExit(timeout: 10) == 0) }
        #expect((FileIO.list(runtime + "/widgethost") ?? []).isEmpty, "both sockets are removed at the stop")
    }

    /// Every daemon the tests start listens in the test process's own runtime folder (0700),
    /// never in the user's `$XDG_RUNTIME_DIR` or a path another program would compute.
    @Test func aTestDaemonsSocketIsInTheTestProcesssOwnRuntimeFolder() throws {
        let d = try RunningDaemon()
        #expect(eventually { d.stderr.contains("control socket: ") }, "\(d.stderr)")
        let marker = "control socket: "
        let socket = d.stderr.split(separator: "\n").compactMap { l in l.range(of: marker).map { String(l[$0.upperBound...]) } }.first ?? ""
        #expect(socket.hasPrefix(PrivateRuntime.directory + "/widgethost/control-"), "\(socket)")
        if let user = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }) { #expect(!socket.hasPrefix(user + "/")) }
        var st = stat()
        #expect(stat(PrivateRuntime.directory, &st) == 0 && st.st_mode & 0o777 == 0o700 && st.st_uid == getuid())
        #expect(PrivateRuntime.directory.hasPrefix("/tmp/\(PrivateRuntime.namePrefix)\(getpid())-"))
    }

    /// Issue 23: `paths.socket` naming a regular file deleted it (a leftover socket is replaced,
    /// and the file was taken for one). Now it is left as it is, the host runs without a socket
    /// and says why; a path too long for a socket is refused instead of cut short.
    @Test func aFileAtTheSocketPathIsLeftAloneAndATooLongPathIsRefused() throws {
        let paths = #""plugins": "Plugins", "out": "out", "containers": "containers", "state": "state""#
        let d = try RunningDaemon(config: #"{"paths": {\#(paths), "socket": "notes.txt"}}"#) { dir in
            FileManagerFree.write(dir + "/notes.txt", "precious")
        }
        #expect(eventually { d.stderr.contains("no control socket: ") }, "\(d.stderr)")
        #expect(d.stderr.contains("\(d.dir.path)/notes.txt is a regular file, not a socket: left alone"), "\(d.stderr)")
        d.install(try buildProbe(in: d.dir.path, name: "probe"), as: "probe.so")
        #expect(eventually { d.text("probe-systemSmall") != nil }, "the host serves on without a socket:\n\(d.stderr)")
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0)
        #expect(FileManagerFree.read(d.dir.path + "/notes.txt") == "precious")

        let long = "s/" + String(repeating: "x", count: 120) + ".sock"
        let e = try RunningDaemon(config: #"{"paths": {\#(paths), "socket": "\#(long)"}}"#)
        #expect(eventually { e.stderr.contains("no control socket: ") }, "\(e.stderr)")
        #expect(e.stderr.contains("is too long for a socket"), "\(e.stderr)")
        #expect((FileIO.list(e.dir.path + "/s") ?? []).isEmpty, "no socket under a name cut short")
        e.signal(SIGTERM)
        #expect(e.waitForExit() == 0)
    }
}
