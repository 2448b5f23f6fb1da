import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// A Unix socket listening at `path` (an ssh-agent stand-in), closed with `close(fd)`.
func unixListener(_ path: String) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var addr = sockaddr_un()
    addr.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in path.utf8.enumerated() { buf[i] = b } }
    _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
    listen(fd, 16)
    return fd
}

/// A non-blocking UDP socket on 127.0.0.1 (an ephemeral port), closed with `close(fd)`.
func udpReceiver() -> (fd: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return (fd, Int(UInt16(bigEndian: a.sin_port)))
}

/// The ways out of the sandbox a plugin was seen to take (issue 23), each tried by a probe
/// plugin (`Fixtures/escape_widget.c`) on this kernel and each refused: the host's control
/// socket, its `/proc`, the ssh-agent, `$HOME` and `XDG_RUNTIME_DIR`, chmod and utimes, UDP,
/// raw and packet sockets, the keyring; TCP only with the `network` permission.
@Suite(.serialized) struct SandboxEscapeTests {
    let id = "escape-systemSmall"

    struct Outcome {
        /// What got through, as the probe names it (empty: nothing).
        var escaped: [String]
        var victimMode: mode_t
        var datagrams: Int
        var stderr: String
    }

    func probe(network: Bool, environment: [String: String?] = [:]) throws -> Outcome {
        let tcp = tcpListener(), udp = udpReceiver()
        defer { close(tcp.fd); close(udp.fd) }
        var agent: Int32 = -1
        defer { if agent >= 0 { close(agent) } }
        // The agent's and the session's variables, as a desktop session sets them (the socket
        // the probe connects to is the one the test listens on, named at compile time).
        let session: [String: String?] = ["SSH_AUTH_SOCK": "/run/user/0/agent.sock", "XDG_RUNTIME_DIR": "/run/user/0"]
        let d = try RunningDaemon(config: #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"}}"#,
                                  environment: session.merging(environment) { _, b in b }) { dir in
            mkdir(dir + "/home", 0o700); mkdir(dir + "/run", 0o700)
            FileManagerFree.write(dir + "/home/secret.txt", "secret")
            FileManagerFree.write(dir + "/home/id_rsa", "key")
            chmod(dir + "/home/id_rsa", 0o600)
        }
        agent = unixListener(d.dir.path + "/agent.sock")
        var defines = ["SOCKET=\"\(d.dir.path)/control.sock\"", "HOSTPID=\(d.pid)", "AGENT=\"\(d.dir.path)/agent.sock\"",
                       "RUNTIME=\"\(d.dir.path)/run\"", "SECRET=\"\(d.dir.path)/home/secret.txt\"", "VICTIM=\"\(d.dir.path)/home/id_rsa\"",
                       "UDPPORT=\(udp.port)", "TCPPORT=\(tcp.port)"]
        if network { defines.append("NETWORK") }
        d.install(try compileCPlugin("Tests/IntegrationTests/Fixtures/escape_widget.c", in: d.dir.path, name: "escape", defines: defines), as: "escape.so")
        #expect(eventually { d.text(id)?.hasPrefix("escaped:") == true }, "\(d.stderr.suffix(2000))")
        let words = (d.text(id) ?? "").split(separator: " ").dropFirst().map(String.init)
        var st = stat()
        _ = stat(d.dir.path + "/home/id_rsa", &st)
        var datagrams = 0
        var buffer = [UInt8](repeating: 0, count: 64)
        while recv(udp.fd, &buffer, buffer.count, 0) > 0 { datagrams += 1 }
        return Outcome(escaped: words == ["none"] ? [] : words, victimMode: st.st_mode & 0o777, datagrams: datagrams, stderr: d.stderr)
    }

    @Test(.enabled(if: sandboxTestsRun, "this kernel has no Landlock"))
    func everyEscapeIsRefused() throws {
        let o = try probe(network: false)
        #expect(o.escaped == [], "\(o.stderr.suffix(1500))")
        #expect(o.victimMode == 0o600)
        #expect(o.datagrams == 0)
    }

    /// With the `network` permission: TCP and UDP out, and nothing more. The worker shares the
    /// host's network namespace then, so `/proc/net/unix` names the control socket — which it
    /// still cannot reach (`ctl`: no such path in its filesystem, no Unix socket).
    @Test(.enabled(if: sandboxTestsRun, "this kernel has no Landlock"))
    func withTheNetworkPermissionOnlyTCPAndUDPGetOut() throws {
        let o = try probe(network: true)
        #expect(o.escaped == ["netunix", "udp", "tcp"], "\(o.stderr.suffix(1500))")
        #expect(o.victimMode == 0o600)
        #expect(o.datagrams == 1)
    }

    /// A worker is started without the session's sockets in its environment: a plugin reads its
    /// own `/proc/self/environ`, which shows what the process was started with, whatever the
    /// worker `unsetenv`s afterwards; so does anyone who may read the worker's `/proc` entry.
    @Test func workersStartWithoutTheSessionsSocketsInTheirEnvironment() throws {
        let session = ["SSH_AUTH_SOCK": "/run/user/0/agent.sock", "XDG_RUNTIME_DIR": "/run/user/0",
                       "DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/0/bus", "DISPLAY": ":0"]
        let d = try RunningDaemon(config: #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"}}"#,
                                  environment: session)
        d.install(try buildProbe(in: d.dir.path, name: "probe"), as: "probe.so")
        #expect(eventually { d.text("probe-systemSmall") != nil }, "\(d.stderr.suffix(1500))")
        let workers = processesMentioning(d.dir.path + "/state/bundles")
        #expect(!workers.isEmpty, "a worker runs")
        for pid in workers {
            let names = (FileManagerFree.read("/proc/\(pid)/environ") ?? "").split(separator: "\0").map { String($0.prefix { $0 != "=" }) }
            #expect(names.contains("WIDGETHOST_CONTAINERS"), "pid \(pid): \(names)")
            for name in session.keys { #expect(!names.contains(name), "pid \(pid) was started with \(name): \(names)") }
        }
    }

    /// The control socket refuses a worker even when nothing else stands in its way (the
    /// sandbox off): the peer check alone (`ControlPeerPolicy`), and the log says so.
    @Test func theControlSocketRefusesAWorkerWithoutTheSandbox() throws {
        let o = try probe(network: false, environment: ["WIDGETHOST_SANDBOX": "off"])
        #expect(!o.escaped.contains("ctl"), "\(o.escaped)")
        #expect(o.escaped.contains("netunix"), "the socket was there to find: \(o.escaped)")
        #expect(o.stderr.contains("control socket: refused pid"), "\(o.stderr.suffix(1500))")
    }
}
