import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on 127.0.0.1 (an ephemeral port), closed with `close(fd)`.
func tcpListener() -> (fd: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var a = sockaddr_in()
    a.sin_family = sa_family_t(AF_INET)
    a.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    listen(fd, 16)
    var len = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
    return (fd, Int(UInt16(bigEndian: a.sin_port)))
}

/// Whether to run the sandbox tests: this kernel offers Landlock (the host's own probe, a
/// ruleset-version query), or CI, where a kernel without it must fail them, not skip them.
let sandboxTestsRun: Bool = {
    WorkerSandbox.landlockABI != nil || getenv("CI").map { String(cString: $0) == "true" } == true
}()

/// A worker reads and writes only what its manifest declares (issue 15): a file in the user's
/// folders outside its containers, a write outside them, a TCP connection to 127.0.0.1 — each
/// refused; with the app group and the "network" permission declared, the container and the
/// connection work (the rest stays refused).
@Suite(.serialized) struct SandboxTests {
    let id = "fault-systemSmall"

    func probe(declared: Bool, environment: [String: String] = [:], _ more: (RunningDaemon) -> Void = { _ in }) throws
        -> (text: String, planted: Bool, worker: String) {
        let listener = tcpListener()
        defer { close(listener.fd) }
        let d = try RunningDaemon(config: #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"}}"#,
                                  environment: environment) { dir in
            mkdir(dir + "/home", 0o700)
            FileManagerFree.write(dir + "/home/secret.txt", "secret")
            mkdir(dir + "/containers", 0o700); mkdir(dir + "/containers/group.fault", 0o700)
            FileManagerFree.write(dir + "/containers/group.fault/inside.txt", "inside")
        }
        var defines = ["SECRET=\"\(d.dir.path)/home/secret.txt\"", "PLANT=\"\(d.dir.path)/home/planted.txt\"", "PORT=\(listener.port)"]
        if declared { defines += ["APP_GROUP=\"group.fault\"", "NETWORK"] }
        d.install(try buildFault(in: d.dir.path, 30, defines: defines), as: "fault.so")
        #expect(eventually { d.text(id)?.hasPrefix("rh=") == true }, "\(d.stderr.suffix(2000))")
        let text = d.text(id) ?? ""
        // The worker's processes (the one that answered is among them): no_new_privs set.
        let worker = processesMentioning(d.dir.path + "/state/bundles").compactMap { FileManagerFree.read("/proc/\($0)/status") }.joined()
        more(d)
        return (text, FileManagerFree.exists(d.dir.path + "/home/planted.txt"), worker)
    }

    /// What a path outside the sandbox gives: in the worker's own filesystem (namespaces) it
    /// is not there; with Landlock alone, it is refused.
    let outside = WorkerSandbox.isolationAvailable ? "ENOENT" : "no"

    @Test(.enabled(if: sandboxTestsRun, "this kernel has no Landlock"))
    func anUndeclaredPluginIsRefusedEverythingOutsideItsSandbox() throws {
        let r = try probe(declared: false)
        #expect(r.text == "rh=\(outside) wh=\(outside) rg=\(outside) wg=\(outside) cn=no", "\(r.text)")
        #expect(!r.planted)
        #expect(r.worker.contains("NoNewPrivs:\t1"), "\(r.worker)")
        if WorkerSandbox.isolationAvailable { #expect(r.worker.contains("Seccomp:\t2"), "\(r.worker)") }
    }

    @Test(.enabled(if: sandboxTestsRun, "this kernel has no Landlock"))
    func declaredContainersAndNetworkAreAllowedAndNothingMore() throws {
        let r = try probe(declared: true)
        #expect(r.text == "rh=\(outside) wh=\(outside) rg=ok wg=ok cn=ok", "\(r.text)")
        #expect(!r.planted)
    }

    /// `describe` runs under the base sandbox even for a bundle that declares an app group, and
    /// the worker that described it then serves with the group's container (`WorkerSettings`):
    /// one worker start, not two.
    @Test(.enabled(if: sandboxTestsRun, "this kernel has no Landlock"))
    func describeRunsUnderTheBaseSandboxInTheWorkerThatThenServes() throws {
        var described = true, starts = -1, log = ""
        let r = try probe(declared: true) { d in
            described = FileManagerFree.exists(d.dir.path + "/containers/group.fault/described.txt")
            log = d.stderr
            starts = log.components(separatedBy: "worker started: pid").count - 1
        }
        #expect(r.text == "rh=\(outside) wh=\(outside) rg=ok wg=ok cn=ok", "\(r.text)")
        #expect(!described, "describe wrote into the container")
        #expect(starts == 1, "\(log.suffix(2000))")
    }

    /// Where there is no sandbox (a kernel without Landlock, or `WIDGETHOST_SANDBOX=off`) the
    /// workers run unsandboxed, and the log and `status` say so.
    @Test func withoutTheSandboxTheLogAndStatusSaySo() throws {
        let r = try probe(declared: false, environment: ["WIDGETHOST_SANDBOX": "off"]) { d in
            #expect(d.stderr.contains("workers run unsandboxed: WIDGETHOST_SANDBOX=off"), "\(d.stderr.suffix(1500))")
            let status = run(TestPaths.widgethost, ["status", "--config", d.dir.path + "/config.json"])
            #expect(status.stdout.contains("warning: workers run unsandboxed: WIDGETHOST_SANDBOX=off"), "\(status.stdout)")
        }
        #expect(r.text == "rh=ok wh=ok rg=ok wg=ok cn=ok", "\(r.text)")
        #expect(r.planted)
    }

    /// Where the kernel offers Landlock but not the rest (user namespaces, seccomp) — or with
    /// `WIDGETHOST_SANDBOX=landlock` — workers run under Landlock alone, and the log and
    /// `status` say which protection is missing (issue 23).
    @Test(.enabled(if: sandboxTestsRun, "this kernel has no Landlock"))
    func withLandlockAloneTheLogAndStatusSayWhatIsMissing() throws {
        let missing = "workers run without namespaces (a host /proc, $HOME, the network and the control socket are reachable) and seccomp"
        let r = try probe(declared: false, environment: ["WIDGETHOST_SANDBOX": "landlock"]) { d in
            #expect(d.stderr.contains(missing + ": WIDGETHOST_SANDBOX=landlock"), "\(d.stderr.suffix(1500))")
            let status = run(TestPaths.widgethost, ["status", "--config", d.dir.path + "/config.json"])
            #expect(status.stdout.contains("warning: " + missing), "\(status.stdout)")
        }
        #expect(r.text == "rh=no wh=no rg=no wg=no cn=no", "\(r.text)")
        #expect(!r.worker.contains("Seccomp:\t2"), "\(r.worker)")
    }
}

