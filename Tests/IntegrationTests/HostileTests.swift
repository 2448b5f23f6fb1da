import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Compiles Fixtures/hostile_widget.c with `defines` into `dir`; returns the `.so` path.
func buildHostile(in dir: String, name: String, defines: [String]) throws -> String {
    try compileCPlugin("Tests/IntegrationTests/Fixtures/hostile_widget.c", in: dir, name: name, defines: defines)
}

/// One bad plugin never hurts the others (DESIGN §6, issue 4): for each hostile fixture, the
/// host keeps running, a well-behaved ticker beside it swaps its entries on time, and the failure
/// shows in the outputs and the logs.
@Suite(.serialized) struct HostileTests {
    static let config = #"""
    {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"},
     "defaults": {"requestTimeoutSeconds": 2,
                  "limits": {"workerMemoryMB": 256, "quarantineAfterFailures": 2}}}
    """#
    let ticker = "ticker-systemSmall"
    let hostile = "hostile-systemSmall"

    /// Watches the ticker for `seconds`: every entry it shows is dated by its text
    /// ("t1 <epoch>"); returns the worst lateness (s) and the number of swaps seen.
    func watchTicker(_ d: RunningDaemon, seconds: Double) -> (worst: Double, swaps: Int) {
        var last = "", worst = 0.0, swaps = 0
        var first = true
        let end = monotonicNow() + seconds
        while monotonicNow() < end {
            if let t = d.text(ticker), t != last {
                last = t
                // The entry on screen when watching starts may be up to a second old: skip it.
                if first { first = false; continue }
                if let epoch = Double(t.split(separator: " ").last ?? "") {
                    var ts = timespec(); clock_gettime(CLOCK_REALTIME, &ts)
                    let now = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
                    worst = max(worst, now - epoch); swaps += 1
                }
            }
            usleep(10_000)
        }
        return (worst, swaps)
    }

    /// Starts a host with the ticker and `hostileSo` (as hostile.so), waits for the ticker, runs
    /// `during` then checks the ticker kept time for `seconds` and the host is still alive.
    func withHostile(_ hostileSo: (String) throws -> String, seconds: Double = 6,
                     _ check: (RunningDaemon) throws -> Void) throws {
        let d = try RunningDaemon(config: Self.config)
        d.install(try buildHostile(in: d.dir.path, name: "ticker", defines: ["TICKER"]), as: "ticker.so")
        #expect(eventually { d.text(ticker)?.hasPrefix("t1 ") == true }, "stderr:\n\(d.stderr)")
        d.install(try hostileSo(d.dir.path), as: "hostile.so")
        let (worst, swaps) = watchTicker(d, seconds: seconds)
        print("ticker beside hostile: \(swaps) swaps, worst lateness \(Int(worst * 1000)) ms")
        #expect(swaps >= Int(seconds) - 2, "the ticker kept swapping")
        #expect(worst < 1.0, "the ticker's entries were late by \(worst) s")
        #expect(kill(d.pid, 0) == 0 && d.waitForExit(timeout: 0) == nil, "the host is still running")
        try check(d)
    }

    func mode(_ m: Int) -> (String) throws -> String {
        { dir in try buildHostile(in: dir, name: "hostile\(m)", defines: ["MODE=\(m)"]) }
    }

    func error(_ d: RunningDaemon) -> String { d.output(hostile)?["error"]?.stringValue ?? "" }

    @Test func hangInTimelineIsKilledAtTheDeadline() throws {
        try withHostile(mode(1)) { d in
            #expect(eventually { error(d).contains("deadline") || error(d).contains("timed out") || error(d).contains("killed") },
                    "error: \(error(d))\n\(d.stderr.suffix(2000))")
            #expect(d.stderr.contains("missed its deadline"))
        }
    }

    @Test func segfaultIsReportedAndQuarantined() throws {
        try withHostile(mode(2), seconds: 8) { d in
            #expect(eventually { !error(d).isEmpty }, "\(d.stderr.suffix(2000))")
            #expect(d.output(hostile)?["stale"] == .bool(true))
            // quarantineAfterFailures 2: the second crash (retry after 5 s) quarantines the bundle.
            #expect(eventually(timeout: 20) { error(d).contains("quarantined") }, "error: \(error(d))")
            #expect(d.stderr.contains("hostile.so quarantined after 2 failures in a row"))
        }
    }

    @Test func abortIsReported() throws {
        try withHostile(mode(3)) { d in
            #expect(eventually { !error(d).isEmpty }, "\(d.stderr.suffix(2000))")
            #expect(d.stderr.contains("reload failed: \(hostile)"))
        }
    }

    @Test func allocatingUntilKilledHitsTheMemoryCap() throws {
        try withHostile(mode(4)) { d in
            #expect(eventually { !error(d).isEmpty }, "\(d.stderr.suffix(2000))")
            #expect(d.stderr.contains("reload failed: \(hostile)"))
        }
    }

    @Test func aMillionEntriesAreRejected() throws {
        try withHostile(mode(5)) { d in
            #expect(eventually { error(d).contains("exceeds the limit") || error(d).contains("maxEntries") }, "error: \(error(d))")
        }
    }

    @Test func aHundredMegabyteTreeIsRejected() throws {
        try withHostile(mode(6)) { d in
            #expect(eventually { error(d).contains("maxResponseBytes") }, "error: \(error(d))")
        }
    }

    @Test func stdoutSpamCannotCorruptTheProtocol() throws {
        try withHostile(mode(7)) { d in
            #expect(eventually { d.text(hostile) == "spammed" }, "\(d.stderr.suffix(2000))")
        }
    }

    @Test func malformedBytesAreReported() throws {
        try withHostile(mode(8)) { d in
            #expect(eventually { error(d).contains("malformed") }, "error: \(error(d))")
        }
    }

    @Test func aWrongABIVersionIsRefused() throws {
        try withHostile(mode(9)) { d in
            #expect(eventually { d.stderr.contains("plugin rejected: hostile.so") }, "\(d.stderr.suffix(2000))")
            #expect(eventually { d.output("plugin-hostile")?["error"]?.stringValue?.hasPrefix("plugin rejected: hostile.so") == true },
                    "the refusal shows in out/plugin-hostile.json")
        }
    }

    /// The describe runs in a child of the worker (`WorkerSettings`): its crash still rejects
    /// the plugin at once, naming the signal, as a worker's own crash does.
    @Test func aCrashInDescribeIsRefusedWithTheSignal() throws {
        try withHostile(mode(10)) { d in
            #expect(eventually { d.stderr.contains("plugin rejected: hostile.so") }, "\(d.stderr.suffix(2000))")
            #expect(d.stderr.contains("worker was killed by signal \(SIGSEGV)"), "\(d.stderr.suffix(2000))")
        }
    }

    @Test func aTruncatedSharedObjectIsRefused() throws {
        try withHostile({ dir in
            let so = try buildHostile(in: dir, name: "full", defines: ["MODE=0"])
            truncate(so, 3000)
            return so
        }) { d in
            #expect(eventually { d.stderr.contains("plugin rejected: hostile.so") }, "\(d.stderr.suffix(2000))")
            #expect(eventually { d.output("plugin-hostile")?["error"]?.stringValue?.hasPrefix("plugin rejected: hostile.so") == true },
                    "the refusal shows in out/plugin-hostile.json")
        }
    }

    @Test func aSharedObjectOverwrittenInPlaceWhileLoaded() throws {
        try withHostile(mode(0)) { d in
            #expect(eventually { d.text(hostile) == "fine" }, "\(d.stderr.suffix(2000))")
            // cp over the live file (no rename): the worker runs a private copy, so it cannot crash.
            let v2 = try? buildHostile(in: d.dir.path, name: "ticker2", defines: ["TICKER", "VERSION=2"])
            let r = run("/bin/cp", [v2 ?? "", d.dir.path + "/Plugins/ticker.so"])
            #expect(r.status == 0)
            #expect(eventually { d.text(ticker)?.hasPrefix("t2 ") == true }, "\(d.stderr.suffix(2000))")
            #expect(kill(d.pid, 0) == 0)
        }
    }

    /// The Swift fixture (product HostileSwiftWidget), with its container value `mode` set first.
    func swiftFixture(mode: String) -> (String) throws -> String {
        { dir in
            let r = run(TestPaths.widgethost, ["defaults", "write", "--config", dir + "/config.json", "group.hostileswift", "mode", mode])
            #expect(r.status == 0, "defaults write: \(r.stderr)")
            return TestPaths.plugin("HostileSwiftWidget")
        }
    }

    func swiftError(_ d: RunningDaemon) -> String { d.output("hostileswift-systemSmall")?["error"]?.stringValue ?? "" }

    @Test func fatalErrorInAViewBodyIsReported() throws {
        try withHostile(swiftFixture(mode: "fatal")) { d in
            #expect(eventually { !swiftError(d).isEmpty }, "\(d.stderr.suffix(2000))")
            #expect(d.stderr.contains("reload failed: hostileswift-systemSmall"))
        }
    }

    /// `preview` used to die of SIGPIPE (exit 141, no output) when the view body crashed the
    /// worker: now it names the widget, the call and the signal, and goes on.
    @Test func previewNamesTheWidgetWhoseViewCrashedItsWorker() throws {
        let dir = TempDir(); defer { dir.remove() }
        FileManagerFree.write(dir.path + "/config.json", #"{"paths": {"containers": "containers"}}"#)
        let w = run(TestPaths.widgethost, ["defaults", "write", "--config", dir.path + "/config.json", "group.hostileswift", "mode", "fatal"])
        #expect(w.status == 0, "\(w.stderr)")
        let r = run(TestPaths.widgethost, ["preview", TestPaths.plugin("HostileSwiftWidget")],
                    environment: ["WIDGETHOST_CONTAINERS": dir.path + "/containers"])
        #expect(r.status == 1, "exit \(r.status)\nstdout:\n\(r.stdout)\nstderr:\n\(r.stderr)")
        #expect(r.stdout.contains("placeholder:") && r.stdout.contains("calm"), "what rendered before the crash is shown")
        #expect(r.stdout.contains("timeline: ERROR"), "\(r.stdout)")
        #expect(r.stderr.contains("hostileswift (systemSmall) timeline crashed its worker"), "\(r.stderr)")
        #expect(r.stderr.contains("signal") && r.stderr.contains("Fatal error: hostile view body"), "\(r.stderr)")
    }

    @Test func anInfiniteLoopInAViewBodyIsKilledAtTheRenderTimeLimit() throws {
        try withHostile(swiftFixture(mode: "loop")) { d in
            #expect(eventually { !swiftError(d).isEmpty }, "\(d.stderr.suffix(2000))")
            // The per-view limit (1 s by default) fires before the per-call deadline.
            #expect(swiftError(d).contains("render-time limit of 1000 ms"), "\(swiftError(d))")
        }
    }
}
