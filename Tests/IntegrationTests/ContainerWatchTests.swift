import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A container folder removed, moved away or replaced by a file lost its watch for good: later
/// writes never reached the widget, with no log line and `stale: false` (issue 15).
@Suite(.serialized) struct ContainerWatchTests {
    let id = "probe-systemSmall"

    @Test func aLostContainerMarksItsWidgetsStaleAndIsWatchedAgainWhenBack() throws {
        let d = try RunningDaemon()
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        let group = d.dir.path + "/containers/group.probe"
        func expectLost(_ how: String) {
            #expect(eventually { d.output(id)?["stale"] == .bool(true) }, "\(how): \(d.stderr.suffix(1500))")
            #expect(d.output(id)?["error"]?.stringValue?.hasPrefix("container group.probe is missing") == true, "\(how)")
            #expect(d.stderr.contains("container group.probe at \(group) is gone or not a folder"), "\(how)")
        }
        func expectBack(_ value: String, _ how: String) {
            d.writeContainer("group.probe", "value.txt", value)
            #expect(eventually { d.text(id) == "v1 \(value) #0" && d.output(id)?["stale"] == .bool(false) },
                    "\(how): \(String(describing: d.output(id)))\n\(d.stderr.suffix(1500))")
        }

        #expect(run("/bin/rm", ["-rf", group]).status == 0)
        expectLost("removed")
        mkdir(group, 0o700)
        expectBack("recreated", "recreated")

        #expect(rename(group, d.dir.path + "/containers/moved") == 0)
        expectLost("moved away")
        #expect(rename(d.dir.path + "/containers/moved", group) == 0)
        expectBack("moved-back", "moved back")

        #expect(run("/bin/rm", ["-rf", group]).status == 0)
        FileManagerFree.write(group, "not a folder")
        expectLost("replaced by a file")
        // `defaults write` into it says so and fails, instead of exiting 0 having written nothing.
        let w = run(TestPaths.widgethost, ["defaults", "write", "--config", d.dir.path + "/config.json", "group.probe", "k", "v"])
        #expect(w.status != 0)
        #expect(w.stderr.contains("cannot write the lock file in the container") && w.stderr.contains("Not a directory"), "\(w.stderr)")
        unlink(group)
        mkdir(group, 0o700)
        expectBack("a-folder-again", "a folder again")
        #expect(kill(d.pid, 0) == 0)
    }
}
