import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Compiles Fixtures/fault_widget.c with `-DFAULT=<fault>` (and `defines`) into `dir`.
/// For the forking faults: the bundle declares an app group, so its worker never rests
/// (`WorkerRest`) and the worker and the child it forked are there to be looked at.
let keepsItsWorker = ["APP_GROUP=\"group.fault\""]

func buildFault(in dir: String, _ fault: Int, name: String? = nil, defines: [String] = []) throws -> String {
    try compileCPlugin("Tests/IntegrationTests/Fixtures/fault_widget.c", in: dir, name: name ?? "fault\(fault)",
                       defines: ["FAULT=\(fault)"] + defines)
}

/// What no plugin may do to the host (issue 15), each with the fault-injection fixture installed
/// beside a healthy ticker (`HostileTests.withHostile`): the host stays up, the ticker keeps
/// time, the user sees a clear error, and a restart comes up clean.
@Suite(.serialized) struct FaultInjectionTests {
    static let fault = "fault-systemSmall"
    func error(_ d: RunningDaemon) -> String { d.output(Self.fault)?["error"]?.stringValue ?? "" }

    @Test(arguments: [(1, "entry 0: date is nan"), (2, "entry 0: date is -inf"), (3, "entry 0: date 1e+300 is out of range"),
                      (4, "policy date is -inf"), (5, "entry 0: view gauge: value is nan"), (6, "entry 0: view text: frame.width is inf"),
                      (8, "entry 0: view lazyVGrid: gridItems[0].minimum is nan")])
    func aNonFiniteNumberIsRefusedAndTheHostStaysUp(_ mode: Int, _ expected: String) throws {
        try HostileTests().withHostile({ dir in try buildFault(in: dir, mode) }, seconds: 3) { d in
            #expect(eventually { error(d).contains("timeline rejected: invalid number in the answer: \(expected)") },
                    "error: \(error(d))\n\(d.stderr.suffix(2000))")
            #expect(d.output(Self.fault)?["stale"] == .bool(true))
            #expect(!FileManagerFree.exists(d.dir.path + "/state/timelines/\(Self.fault).json"), "nothing invalid was saved")
        }
    }

    /// An older host saved a timeline dated "nan": every restart died before any worker started.
    @Test func aPoisonedSavedTimelineIsSetAsideAtStart() throws {
        let poisoned = #"{"bundle":"fault.so","entries":[{"date":"nan","view":{"kind":"text","text":"poison"}}],"#
            + #""family":"systemSmall","kind":"fault","parameters":{}}"#
        let d = try RunningDaemon { dir in
            let so = try buildFault(in: dir, 0)
            #expect(rename(so, dir + "/Plugins/fault.so") == 0)
            mkdir(dir + "/state", 0o700); mkdir(dir + "/state/timelines", 0o700)
            FileManagerFree.write(dir + "/state/timelines/\(Self.fault).json", poisoned)
        }
        #expect(eventually { d.text(Self.fault)?.hasPrefix("fine ") == true }, "\(d.stderr.suffix(3000))")
        #expect(d.stderr.contains("set aside as"), "\(d.stderr.suffix(3000))")
        #expect(FileManagerFree.exists(d.dir.path + "/state/timelines/\(Self.fault).json.rejected"))
        #expect(kill(d.pid, 0) == 0 && d.waitForExit(timeout: 0) == nil, "the host is still running")
    }
}

extension FaultInjectionTests {
    /// A host on a copy of `d`'s plugins, containers and state (what a restart after `d` finds).
    func restart(_ d: RunningDaemon, prepare: @escaping (String) -> Void = { _ in }) throws -> RunningDaemon {
        try RunningDaemon(config: HostileTests.config) { dir in
            for sub in ["Plugins", "containers", "state"] where FileManagerFree.exists(d.dir.path + "/" + sub) {
                #expect(run("/bin/cp", ["-a", d.dir.path + "/" + sub + "/.", dir + "/" + sub]).status == 0 || sub == "Plugins")
            }
            prepare(dir)
        }
    }

    /// The host is up, and the ticker beside the fault swaps entries for 3 s.
    func expectRunning(_ d: RunningDaemon) {
        let (_, swaps) = HostileTests().watchTicker(d, seconds: 3)
        #expect(swaps >= 1, "the ticker kept swapping\n\(d.stderr.suffix(2000))")
        #expect(kill(d.pid, 0) == 0 && d.waitForExit(timeout: 0) == nil, "the host is still running\n\(d.stderr.suffix(2000))")
    }

    /// Issue 23: a `LazyVGrid` whose adaptive item's minimum + spacing is 0 (1 and −1, numbers
    /// in range) trapped the text renderer (`Int(329 / 0)`, SIGILL) after the timeline was
    /// saved, so every restart drew it again and died. Now it is drawn, and a restart on the
    /// same state comes up and stays up.
    @Test func aGridWhoseItemsAddToNothingIsDrawnAndARestartComesUp() throws {
        var saved: RunningDaemon?
        try HostileTests().withHostile({ dir in try buildFault(in: dir, 7) }, seconds: 3) { d in
            #expect(eventually { d.text(Self.fault)?.contains("g1") == true }, "\(d.output(Self.fault) ?? [:])\n\(d.stderr.suffix(2000))")
            #expect(FileManagerFree.exists(d.dir.path + "/state/timelines/\(Self.fault).json"), "the grid was saved")
            d.signal(SIGKILL)
            #expect(d.waitForExit() != nil)
            saved = d
        }
        let d = try #require(saved)
        let again = try restart(d)
        #expect(eventually { again.text(Self.fault)?.contains("g1") == true }, "\(again.stderr.suffix(2000))")
        expectRunning(again)
    }

    /// A host that died while drawing a widget (`state/drawing` names it) leaves that widget's
    /// saved timeline set aside at the next start; when it died so at two starts in a row, the
    /// widget is not drawn at all in this run and says why, and the others go on.
    @Test func aWidgetWhoseDrawingStoppedTheHostIsNotDrawnAgainFromItsSavedTimeline() throws {
        let saved = #"{"bundle":"fault.so","entries":[{"date":1800000000,"view":{"kind":"text","text":"saved"}}],"#
            + #""family":"systemSmall","kind":"fault","parameters":{}}"#
        func prepare(crashes: String?) -> (String) throws -> Void {
            { dir in
                if !FileManagerFree.exists(dir + "/Plugins/fault.so") {
                    let fault = try buildFault(in: dir, 0), ticker = try buildHostile(in: dir, name: "ticker", defines: ["TICKER"])
                    #expect(rename(fault, dir + "/Plugins/fault.so") == 0 && rename(ticker, dir + "/Plugins/ticker.so") == 0)
                }
                mkdir(dir + "/state", 0o700); mkdir(dir + "/state/timelines", 0o700)
                FileManagerFree.write(dir + "/state/timelines/\(Self.fault).json", saved)
                FileManagerFree.write(dir + "/state/drawing", "\(Self.fault)\n")
                if let crashes { FileManagerFree.write(dir + "/state/drawing-crashes", crashes) }
            }
        }
        // Once: the saved timeline is set aside; the plugin's answer is drawn.
        let once = try RunningDaemon(config: HostileTests.config, prepare: prepare(crashes: nil))
        #expect(eventually { once.text(Self.fault)?.hasPrefix("fine ") == true }, "\(once.stderr.suffix(3000))")
        #expect(once.stderr.contains("the last host stopped while drawing \(Self.fault) (once)"), "\(once.stderr.suffix(3000))")
        #expect(FileManagerFree.exists(once.dir.path + "/state/timelines/\(Self.fault).json.rejected"))
        expectRunning(once)
        // Twice in a row: not drawn in this run, and its json says why.
        let twice = try RunningDaemon(config: HostileTests.config, prepare: prepare(crashes: "\(Self.fault) 1\n"))
        #expect(eventually { error(twice).hasPrefix("not drawn: the host stopped while drawing this widget at the last 2 starts") },
                "\(twice.output(Self.fault) ?? [:])\n\(twice.stderr.suffix(3000))")
        #expect(twice.text(Self.fault) == "")
        expectRunning(twice)
        #expect(error(twice).hasPrefix("not drawn"), "still not drawn after its plugin answered: \(error(twice))")
    }
}

/// Live (not zombie) processes whose command line mentions `text` (a test's temp directory:
/// every worker runs `widgethost worker --plugin <dir>/state/bundles/…`, and so does a child a
/// plugin forks).
func processesMentioning(_ text: String) -> [pid_t] {
    FileManagerFree.names(in: "/proc").compactMap { name -> pid_t? in
        guard let pid = pid_t(name), pid != getpid(), isAlive(pid),
              let cmd = FileManagerFree.read("/proc/\(name)/cmdline"), cmd.contains(text) else { return nil }
        return pid
    }
}

/// Whether `pid` runs (exists and is not a zombie waiting for a parent that never reaps it).
/// The pid, in the test's PID namespace, of the process a plugin named `pid` from inside its
/// worker's own PID namespace (an isolated worker, issue 23): among the processes whose command
/// line mentions `text` (one bundle's copy, so no other worker's namespace is searched), the one
/// whose innermost pid (`NSpid`) is `pid`. `pid` itself when the worker has no namespace.
func hostPID(_ pid: pid_t, mentioning text: String) -> pid_t {
    for p in processesMentioning(text) {
        guard let status = FileManagerFree.read("/proc/\(p)/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("NSpid:") }) else { continue }
        let ids = line.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().compactMap { pid_t($0) }
        if ids.count > 1 && ids.last == pid { return p }
    }
    return pid
}

func isAlive(_ pid: pid_t) -> Bool {
    guard let stat = FileManagerFree.read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
    let state = stat[stat.index(close, offsetBy: 2)...].prefix(1)
    return state != "Z" && state != "X"
}

/// A plugin that forks (issue 15): the child held the worker's pipes, so the host never saw the
/// worker end and SIGTERM hung on them; a child of a worker that answered survived it.
@Suite(.serialized) struct ForkingPluginTests {
    func error(_ d: RunningDaemon) -> String { d.output(FaultInjectionTests.fault)?["error"]?.stringValue ?? "" }

    @Test func aChildForkedBeforeAHangDiesWithItsWorkerAndShutdownEnds() throws {
        try HostileTests().withHostile({ dir in try buildFault(in: dir, 10) }, seconds: 3) { d in
            #expect(eventually { error(d).contains("missed its deadline") }, "error: \(error(d))\n\(d.stderr.suffix(2000))")
            #expect(d.output(FaultInjectionTests.fault)?["stale"] == .bool(true))
            d.signal(SIGTERM)
            #expect(d.waitForExit(timeout: 8) == 0, "SIGTERM ends the host within its bound\n\(d.stderr.suffix(2000))")
            #expect(eventually(timeout: 5) { processesMentioning(d.dir.path).isEmpty },
                    "left running: \(processesMentioning(d.dir.path))")
        }
    }

    @Test func aChildOfAWorkerThatAnsweredEndsWithTheWorker() throws {
        try HostileTests().withHostile({ dir in try buildFault(in: dir, 11, defines: keepsItsWorker) }, seconds: 2) { d in
            #expect(eventually { d.text(FaultInjectionTests.fault)?.hasPrefix("forked ") == true }, "\(d.stderr.suffix(2000))")
            let named = try #require(pid_t(d.text(FaultInjectionTests.fault)?.split(separator: " ").last ?? ""))
            let child = hostPID(named, mentioning: "/state/bundles/hostile-")
            #expect(isAlive(child), "the child runs beside its worker")
            // A new build replaces the worker: the old one stops, and its child with it.
            d.install(try buildFault(in: d.dir.path, 0), as: "hostile.so")
            #expect(eventually { d.text(FaultInjectionTests.fault)?.hasPrefix("fine ") == true }, "\(d.stderr.suffix(2000))")
            #expect(eventually(timeout: 5) { !isAlive(child) }, "the forked child \(child) outlived its worker")
            d.signal(SIGTERM)
            #expect(d.waitForExit(timeout: 8) == 0)
            #expect(eventually(timeout: 5) { processesMentioning(d.dir.path).isEmpty },
                    "left running: \(processesMentioning(d.dir.path))")
        }
    }
}

/// A config an editor or a typo breaks (issue 15): a `paths.plugins` that does not exist, the
/// file replaced by a folder, an empty file for a moment: each is rejected like any invalid
/// config, the old one stays in force, and the missing folder is not created.
@Suite(.serialized) struct ConfigRejectionTests {
    let id = "fault-systemSmall"
    let paths = #""paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}"#

    func replaceConfig(_ d: RunningDaemon, _ make: (String) -> Void) {
        let next = d.dir.path + "/next.json"
        make(next)
        #expect(rename(next, d.dir.path + "/config.json") == 0)
    }

    func rejections(_ d: RunningDaemon) -> Int { d.stderr.components(separatedBy: "configuration rejected").count - 1 }

    @Test func aBrokenConfigIsRejectedAndTheWidgetsStay() throws {
        let d = try RunningDaemon()
        d.install(try buildFault(in: d.dir.path, 0), as: "fault.so")
        #expect(eventually { d.text(id)?.hasPrefix("fine ") == true }, "\(d.stderr)")
        var seen = 0
        func expectRejected(_ what: String, _ reason: String) {
            #expect(eventually { rejections(d) > seen }, "\(what): \(d.stderr.suffix(2000))")
            seen = rejections(d)
            #expect(d.stderr.contains(reason), "\(what): \(d.stderr.suffix(2000))")
            #expect(d.output(id)?["removed"] == nil && d.text(id)?.hasPrefix("fine ") == true, "\(what): the widget stays")
        }
        replaceConfig(d) { FileManagerFree.write($0, #"{"paths": {"plugins": "Missing", "out": "out", "containers": "containers", "state": "state"}}"#) }
        expectRejected("missing plugins folder", "paths.plugins: the folder \(d.dir.path)/Missing does not exist")
        #expect(!FileManagerFree.exists(d.dir.path + "/Missing"), "the host does not create the folder")

        replaceConfig(d) { FileManagerFree.write($0, "") }
        expectRejected("empty file", "config.json: the file is empty")

        replaceConfig(d) { FileManagerFree.write($0, "{\(paths),\n \"widgets\": [\n  {\"kind\": \"fault\"}\n  {\"kind\": \"x\"}]}") }
        expectRejected("syntax error", "not valid JSON: line 4, column 3: unexpected '{', expected ',' or ']'")

        unlink(d.dir.path + "/config.json")
        mkdir(d.dir.path + "/config.json", 0o755)
        d.signal(SIGHUP)
        expectRejected("a folder", "config.json: is a folder, not a config file")

        // A good config still applies afterwards.
        rmdir(d.dir.path + "/config.json")
        replaceConfig(d) { FileManagerFree.write($0, "{\(paths), \"widgets\": [{\"id\": \"only\", \"kind\": \"fault\"}]}") }
        #expect(eventually { d.text("only")?.hasPrefix("fine ") == true }, "\(d.stderr.suffix(2000))")
        #expect(kill(d.pid, 0) == 0 && d.waitForExit(timeout: 0) == nil)
    }
}

/// CPU seconds (user + system) `pid` has used, from /proc.
func cpuSeconds(_ pid: pid_t) -> Double {
    guard let stat = FileManagerFree.read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    // After ")": state is field 0, utime field 11, stime field 12.
    guard fields.count > 12, let u = Double(fields[11]), let s = Double(fields[12]) else { return 0 }
    return (u + s) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// A plugin spamming stderr cost the host ~98 % of a core (issue 15): the host reads a worker's
/// output at a bounded rate, so the spammer is throttled where it writes.
@Suite(.serialized) struct OutputFloodTests {
    @Test func aStderrFloodCostsTheHostLittle() throws {
        try HostileTests().withHostile({ dir in try buildFault(in: dir, 20) }, seconds: 1) { d in
            #expect(eventually { d.text(FaultInjectionTests.fault)?.hasPrefix("fine ") == true }, "\(d.stderr.suffix(1000))")
            let before = cpuSeconds(d.pid), start = monotonicNow()
            usleep(3_000_000)
            let share = (cpuSeconds(d.pid) - before) / (monotonicNow() - start)
            print("host CPU beside a stderr flood: \(Int(share * 100)) % of a core")
            #expect(share < 0.25, "the host used \(Int(share * 100)) % of a core")
        }
    }
}

/// After `kill -9` of the host its workers die (PDEATHSIG) and, through each worker's group
/// guardian, whatever they forked; a child that left the group (its own `setsid`) is ended by
/// the next start, so a restart comes up clean (issue 15).
@Suite(.serialized) struct LeftoverProcessTests {
    func forkedChild(_ d: RunningDaemon) throws -> pid_t {
        #expect(eventually { d.text(FaultInjectionTests.fault)?.hasPrefix("forked ") == true }, "\(d.stderr.suffix(2000))")
        let named = try #require(pid_t(d.text(FaultInjectionTests.fault)?.split(separator: " ").last ?? ""))
        return hostPID(named, mentioning: "/state/bundles/fault-")
    }

    @Test func aForkedChildDiesWhenTheHostIsKilled() throws {
        let d = try RunningDaemon()
        d.install(try buildFault(in: d.dir.path, 11, defines: keepsItsWorker), as: "fault.so")
        let child = try forkedChild(d)
        d.signal(SIGKILL)
        _ = d.waitForExit()
        #expect(eventually(timeout: 5) { !isAlive(child) }, "the forked child \(child) outlived the killed host")
        #expect(eventually(timeout: 5) { processesMentioning(d.dir.path).isEmpty }, "left: \(processesMentioning(d.dir.path))")
    }

    @Test func aRestartEndsAChildThatLeftItsWorkersGroup() throws {
        let d = try RunningDaemon()
        d.install(try buildFault(in: d.dir.path, 12, defines: keepsItsWorker), as: "fault.so")
        let child = try forkedChild(d)
        d.signal(SIGKILL)
        _ = d.waitForExit()
        usleep(300_000)
        if WorkerSandbox.isolationAvailable {
            // In the worker's own PID namespace nothing outlives it, a session of its own or not.
            #expect(eventually(timeout: 5) { !isAlive(child) }, "the child \(child) outlived its worker's PID namespace")
            return
        }
        #expect(isAlive(child), "a child in a session of its own outlives the killed host (what the restart cleans up)")
        let pid = spawnBackground(TestPaths.widgethost, ["run", "--config", d.dir.path + "/config.json"])
        defer { kill(pid, SIGTERM); var st: Int32 = 0; waitpid(pid, &st, 0) }
        #expect(eventually { !isAlive(child) }, "the restart ended the leftover child \(child)")
        kill(child, SIGKILL)  // whatever happened, leave nothing running
    }
}
