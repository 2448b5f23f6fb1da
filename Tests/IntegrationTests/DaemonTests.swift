import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost run` as a user runs it: the real binary, real plugin files, real signals.
@Suite(.serialized) struct DaemonTests {
    let id = "probe-systemSmall"

    @Test func droppedPluginFillsOutputsAndEntriesSwapAtTheirDates() throws {
        let d = try RunningDaemon()
        let so = try buildProbe(in: d.dir.path, name: "probe")
        d.install(so, as: "probe.so")
        #expect(eventually { d.text(id)?.hasPrefix("v1 none #") == true }, "stderr:\n\(d.stderr)")
        #expect(eventually { d.text(id) == "v1 none #2" }, "the third entry shows 2 s later, with no reload")
        let out = try #require(d.output(id))
        #expect(out["kind"] == .string("probe"))
        #expect(out["family"] == .string("systemSmall"))
        #expect(out["stale"] == .bool(false))
        #expect(out["date"]?.stringValue != nil)
        #expect(FileManagerFree.read(d.dir.path + "/out/\(id).txt") == "v1 none #2\n")
        #expect(d.text("probe-accessoryInline") != nil)
        // Only one timeline request per instance: the swaps needed no plugin call.
        #expect(d.stderr.components(separatedBy: "reload probe-systemSmall").count == 2)
        // stdout jsonl: one object per update, each with its id.
        let lines = d.stdout.split(separator: "\n").filter { $0.contains("\"id\":\"\(id)\"") }
        #expect(lines.count >= 2)
    }

    @Test func containerWriteChangesTheOutput() throws {
        let d = try RunningDaemon()
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        #expect(FileManagerFree.exists(d.dir.path + "/containers/group.probe"))
        var st = stat()
        stat(d.dir.path + "/containers/group.probe", &st)
        #expect(st.st_mode & 0o777 == 0o700)
        let start = monotonicNow()
        d.writeContainer("group.probe", "value.txt", "hello")
        #expect(eventually { d.text(id) == "v1 hello #0" }, "stderr:\n\(d.stderr)")
        print("container write → output: \(Int((monotonicNow() - start) * 1000)) ms (polled every 20 ms)")
        // A new subdirectory is watched too. Wait for the reload its creation causes (the watcher
        // adds the new directory's watch on that event), then write into it until a reload
        // follows: no sleep that assumes how fast the watch is added.
        func changes() -> Int { d.stderr.components(separatedBy: "container group.probe changed").count }
        let beforeMkdir = changes()
        mkdir(d.dir.path + "/containers/group.probe/sub", 0o700)
        #expect(eventually { changes() > beforeMkdir }, "stderr:\n\(d.stderr)")
        let before = changes()
        var writes = 0
        #expect(eventually {
            writes += 1
            FileManagerFree.write(d.dir.path + "/containers/group.probe/sub/x", "\(writes)")
            return changes() > before
        }, "stderr:\n\(d.stderr)")
    }

    @Test func replacementServesTheNewVersionAndABrokenOneKeepsTheOld() throws {
        let d = try RunningDaemon()
        d.install(try buildProbe(in: d.dir.path, name: "v1", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        d.install(try buildProbe(in: d.dir.path, name: "v2", defines: ["PROBE_VERSION=2", "PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v2 none #0" }, "stderr:\n\(d.stderr)")
        #expect(d.stderr.contains("plugin replaced: probe.so"))
        FileManagerFree.write(d.dir.path + "/broken.so", "not a shared object at all")
        d.install(d.dir.path + "/broken.so", as: "probe.so")
        #expect(eventually { d.stderr.contains("plugin replacement rejected, previous version keeps serving: probe.so") }, "stderr:\n\(d.stderr)")
        #expect(d.stderr.contains("not an ELF file"))
        d.writeContainer("group.probe", "value.txt", "still")
        #expect(eventually { d.text(id) == "v2 still #0" }, "the old version keeps serving")
    }

    /// Workers start from the `widgethost-worker` the daemon found at start, held open: one
    /// replaced under a running daemon (an upgrade renames a new file over it) cannot start with
    /// another version's protocol; the daemon's own version keeps starting.
    @Test func workersStartFromTheWorkerExecutableFoundAtStart() throws {
        let bin = TempDir(); defer { bin.remove() }
        try #require(run("/bin/cp", [TestPaths.widgethost, TestPaths.worker, bin.path + "/"]).status == 0)
        let d = try RunningDaemon(executable: bin.path + "/widgethost")
        d.install(try buildProbe(in: d.dir.path, name: "v1", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        // Started from a held descriptor, it still shows as itself in `ps` and `top`.
        let worker = try #require(processesMentioning(d.dir.path + "/state/bundles").first)
        #expect(FileManagerFree.read("/proc/\(worker)/comm") == "widgethost-work\n")
        #expect(FileManagerFree.read("/proc/\(worker)/cmdline")?.hasPrefix(bin.path + "/widgethost-worker\0worker\0--plugin\0") == true)
        // The "upgrade": a worker that cannot serve, renamed over the one the daemon started with.
        FileManagerFree.write(bin.path + "/new-worker", "#!/bin/sh\necho 'widgethost worker: another version' >&2\nexit 3\n")
        chmod(bin.path + "/new-worker", 0o755)
        try #require(rename(bin.path + "/new-worker", bin.path + "/widgethost-worker") == 0)
        // A new version of the bundle needs a new worker.
        d.install(try buildProbe(in: d.dir.path, name: "v2", defines: ["PROBE_VERSION=2", "PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v2 none #0" }, "stderr:\n\(d.stderr)")
        #expect(!d.stderr.contains("another version"))
    }

    @Test func removedPluginMarksItsOutputsRemoved() throws {
        let d = try RunningDaemon()
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        unlink(d.dir.path + "/Plugins/probe.so")
        #expect(eventually { d.output(id)?["removed"] == .bool(true) }, "stderr:\n\(d.stderr)")
        #expect(d.output(id)?["class"] == .array([.string("removed")]))
        #expect(d.stderr.contains("plugin removed: probe.so"))
    }

    @Test func sighupAppliesAGoodConfigAndRejectsABadOne() throws {
        let d = try RunningDaemon()
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        // Bad: an unknown key. Written elsewhere and renamed in, then SIGHUP.
        let paths = #""paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}"#
        FileManagerFree.write(d.dir.path + "/next.json", "{\(paths), \"widgets\": [{\"kind\": \"probe\", \"colour\": \"red\"}]}")
        rename(d.dir.path + "/next.json", d.dir.path + "/config.json")
        d.signal(SIGHUP)
        #expect(eventually { d.stderr.contains("widgets[0].colour: unknown key") }, "stderr:\n\(d.stderr)")
        #expect(d.stderr.contains("the previous one stays in force"))
        d.writeContainer("group.probe", "value.txt", "old-config")
        #expect(eventually { d.text(id) == "v1 old-config #0" }, "the old config still runs every family")
        // Good: one explicit widget.
        FileManagerFree.write(d.dir.path + "/next.json", "{\(paths), \"widgets\": [{\"id\": \"only\", \"kind\": \"probe\", \"family\": \"accessoryInline\"}]}")
        rename(d.dir.path + "/next.json", d.dir.path + "/config.json")
        d.signal(SIGHUP)
        #expect(eventually { d.text("only") == "v1 old-config #0" }, "stderr:\n\(d.stderr)")
        #expect(eventually { d.output(id)?["removed"] == .bool(true) }, "instances the config dropped are marked removed")
    }

    /// `run` is parsed by hand when its arguments are valid (start-up cost, issue 6); anything
    /// else still gets swift-argument-parser's usage error.
    @Test func badRunArgumentsAreAUsageErrorNamingTheOption() {
        for (args, complaint) in [(["--stdout", "xml"], "'xml' is invalid for '--stdout"),
                                  (["--log-level=loud"], "unknown log level \"loud\""),
                                  (["--no-budget=yes"], "--no-budget"),
                                  (["--colour"], "Unknown option '--colour'")] {
            let r = run(TestPaths.widgethost, ["run"] + args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(complaint), "\(args): \(r.stderr)")
        }
    }

    @Test func sigtermStopsWorkersAndExitsZero() throws {
        let d = try RunningDaemon()
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        let children = run("/usr/bin/pgrep", ["-P", "\(d.pid)"]).stdout.split(separator: "\n").compactMap { Int32($0) }
        #expect(!children.isEmpty, "a worker is running")
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0, "stderr:\n\(d.stderr)")
        for c in children { #expect(kill(c, 0) != 0, "worker \(c) is gone") }
        #expect(d.output(id)?["text"] == .string("v1 none #0"), "output files are complete")
        #expect(!d.stderr.contains("handles still active"))
    }
}

/// Misbehaving plugins and the `defaults` command against a running host.
@Suite(.serialized) struct DaemonResilienceTests {
    let id = "probe-systemSmall"
    let paths = #""paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}"#

    @Test func aCrashingOrHangingPluginLeavesTheHostServingTheLastEntry() throws {
        // Retries keep failing while the plugin crashes or hangs; on a loaded machine they can pass
        // the quarantine threshold before the test writes "back". Quarantine has its own test
        // (HostileTests.segfaultIsReportedAndQuarantined); this one is about recovery.
        let d = try RunningDaemon(config: "{\(paths), \"defaults\": {\"requestTimeoutSeconds\": 1, \"retryMaxSeconds\": 2, "
                                  + "\"limits\": {\"quarantineAfterFailures\": 1000}}}")
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        d.writeContainer("group.probe", "value.txt", "fine")
        #expect(eventually { d.text(id) == "v1 fine #0" }, "stderr:\n\(d.stderr)")
        d.writeContainer("group.probe", "value.txt", "crash")
        #expect(eventually { d.output(id)?["stale"] == .bool(true) }, "stderr:\n\(d.stderr)")
        #expect(d.text(id) == "v1 fine #0", "the last good entry stays on screen")
        #expect(d.output(id)?["error"]?.stringValue?.contains("signal") == true, "got \(String(describing: d.output(id)))")
        d.writeContainer("group.probe", "value.txt", "hang")
        #expect(eventually { d.stderr.contains("missed its deadline") }, "stderr:\n\(d.stderr)")
        d.writeContainer("group.probe", "value.txt", "back")
        #expect(eventually { d.text(id) == "v1 back #0" && d.output(id)?["stale"] == .bool(false) },
                "a new worker serves again; stderr:\n\(d.stderr.suffix(3000))")
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0)
    }

    @Test func defaultsWriteReloadsTheWidgetsOfThatGroup() throws {
        let d = try RunningDaemon()
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        let r = run(TestPaths.widgethost, ["defaults", "write", "--config", d.dir.path + "/config.json", "group.probe", "completedCount", "6"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(eventually { d.stderr.contains("reload probe-systemSmall (probe.so probe systemSmall): container group.probe changed") })
        let read = run(TestPaths.widgethost, ["defaults", "read", "--config", d.dir.path + "/config.json", "group.probe", "completedCount"])
        #expect(read.stdout == "6\n")
    }

    @Test func concurrentDefaultsWritersLoseNoKey() throws {
        let dir = TempDir(); defer { dir.remove() }
        // Two writers at once, each setting 15 keys of its own. (Two processes waited for with
        // waitpid: a shell's `wait` hangs under a test runner that blocks SIGCHLD.)
        let writers = ["a", "b"].map { prefix in
            spawnBackground("/bin/sh", ["-c", "for i in $(seq 1 15); do '\(TestPaths.widgethost)' defaults write --containers '\(dir.path)' group.x \(prefix)$i $i || exit 1; done"])
        }
        for pid in writers {
            var st: Int32 = 0
            while waitpid(pid, &st, 0) < 0 && errno == EINTR {}
            #expect(st == 0)
        }
        let all = run(TestPaths.widgethost, ["defaults", "read", "--containers", dir.path, "group.x"])
        let dict = try WireCodec.decode([String: JSONValue].self, from: Data(all.stdout.utf8))
        #expect(dict.count == 30, "got \(dict.keys.sorted())")
    }

    /// Issue 16: each widget's `outputs` choose its files. A stdout-only widget writes no file
    /// (but its jsonl lines), a `txt` widget only `out/<id>.txt`, a `json` one only the JSON.
    @Test func aWidgetGetsOnlyTheOutputsItLists() throws {
        let config = #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}, "widgets": ["# +
            #"{"id": "s", "kind": "probe", "family": "systemSmall", "outputs": ["stdout"]},"# +
            #"{"id": "t", "kind": "probe", "family": "systemSmall", "outputs": ["txt"]},"# +
            #"{"id": "j", "kind": "probe", "family": "accessoryInline", "outputs": ["json"]}]}"#
        let d = try RunningDaemon(config: config)
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { FileManagerFree.read(d.dir.path + "/out/t.txt") == "v1 none #0\n" }, "stderr:\n\(d.stderr)")
        #expect(eventually { d.text("j") == "v1 none #0" }, "stderr:\n\(d.stderr)")
        #expect(eventually { d.stdout.contains(#""id":"s""#) }, "stdout:\n\(d.stdout)")
        let files = listDirectory(d.dir.path + "/out").filter { !$0.hasPrefix(".") }.sorted()
        #expect(files == ["j.json", "t.txt"])
        #expect(!d.stdout.contains(#""id":"t""#) && !d.stdout.contains(#""id":"j""#))
    }
}
