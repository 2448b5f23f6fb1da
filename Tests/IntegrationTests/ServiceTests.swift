import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Running WidgetHost as a long-lived service: one daemon per configuration (issue 14).
@Suite(.serialized) struct ServiceTests {
    let id = "probe-systemSmall"

    @Test func aSecondRunOnTheSameConfigIsRefusedAndTheFirstKeepsServing() throws {
        let d = try RunningDaemon()
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        // `timeout` only guards the test against a second daemon that would run forever.
        let second = run("/usr/bin/timeout", ["30", TestPaths.widgethost, "run", "--config", d.dir.path + "/config.json"])
        #expect(second.status == 3, "stderr:\n\(second.stderr)")
        #expect(second.stderr.contains("already running"))
        #expect(second.stderr.contains("pid \(d.pid)"), "names the running daemon: \(second.stderr)")
        #expect(FileManagerFree.read(d.dir.path + "/state/daemon.lock") == "\(d.pid)\n")
        // The first one still serves: a container write still reaches its output.
        d.writeContainer("group.probe", "value.txt", "still here")
        #expect(eventually { d.text(id) == "v1 still here #0" }, "stderr:\n\(d.stderr)")
        #expect(kill(d.pid, 0) == 0)
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0)
        // Once it has stopped, the configuration is free again.
        let again = try RunningDaemon(config: RunningDaemon.defaultConfig)
        #expect(eventually { FileManagerFree.read(again.dir.path + "/state/daemon.lock") == "\(again.pid)\n" })
    }

    @Test func differentConfigsRunSideBySide() throws {
        let a = try RunningDaemon(), b = try RunningDaemon()
        let so = try buildProbe(in: a.dir.path, name: "probe", defines: ["PROBE_STEP=600"])
        a.install(so, as: "probe.so")
        b.install(so, as: "probe.so")
        #expect(eventually { a.text(id) == "v1 none #0" }, "stderr:\n\(a.stderr)")
        #expect(eventually { b.text(id) == "v1 none #0" }, "stderr:\n\(b.stderr)")
        #expect(kill(a.pid, 0) == 0 && kill(b.pid, 0) == 0)
    }
}
