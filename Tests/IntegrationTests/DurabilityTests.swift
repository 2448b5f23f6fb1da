import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `kill -9` in the middle of a write storm (DESIGN §8, issue 4): no output file is torn, the
/// reload ledger kept every charge the host logged, and a restarted host shows the last entries
/// and continues the budgets.
@Suite(.serialized) struct DurabilityTests {
    let id = "probe-systemSmall"

    /// Budgeted container reloads logged (the one that ends a burst is free).
    func reloadLines(_ log: String) -> Int {
        log.split(separator: "\n").filter {
            $0.contains("reload \(id) (") && $0.contains("container group.probe changed") && !$0.contains("end of the burst")
        }.count
    }

    func ledger(_ d: RunningDaemon) -> [String: [Double]] {
        guard let text = FileManagerFree.read(d.dir.path + "/state/reload-ledger.json"),
              let v = try? JSONDecoder().decode([String: [Double]].self, from: Data(text.utf8)) else { return [:] }
        return v
    }

    @Test func killDashNineDuringAWriteStormTearsNothingAndLosesNoCharge() throws {
        // Timelines after a widget's first are saved write-behind; a 1-s delay lets the storm
        // see that path flush (the default, 30 s, would leave only the first on disk).
        let d = try RunningDaemon(config: #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}, "defaults": {"timelineSaveDelaySeconds": 1}}"#)
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        // The storm: a container write every 5 ms; each burst window reloads (budgeted).
        let stormEnd = monotonicNow() + 2.5
        var i = 0
        while monotonicNow() < stormEnd {
            d.writeContainer("group.probe", "value.txt", "w\(i)")
            i += 1
            usleep(5_000)
        }
        d.signal(SIGKILL)
        #expect(d.waitForExit() != nil)
        // No torn output: every out/*.json parses.
        let outs = FileIO.list(d.dir.path + "/out") ?? []
        #expect(!outs.isEmpty)
        for name in outs where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let text = FileManagerFree.read(d.dir.path + "/out/" + name) ?? ""
            #expect((try? WireCodec.decode([String: JSONValue].self, from: Data(text.utf8))) != nil, "\(name) is torn: \(text)")
        }
        // No charge lost: the ledger holds at least every budgeted reload the host logged.
        let logged = reloadLines(d.stderr)
        let charged = ledger(d)[id]?.count ?? 0
        print("write storm: \(i) writes, \(logged) budgeted reloads logged, \(charged) charges in the ledger")
        #expect(logged > 0)
        #expect(charged >= logged)
        #expect(charged <= 60, "the budget caps the charges")

        // Restart on the same directory with the outputs gone and a plugin that now hangs in
        // its timeline: a timeline saved during the storm (not the first, "v1 none #0") is on
        // screen anyway, and the charges are still there.
        for name in outs { unlink(d.dir.path + "/out/" + name) }
        d.writeContainer("group.probe", "value.txt", "hang")
        let pid = spawnBackground(TestPaths.widgethost, ["run", "--config", d.dir.path + "/config.json"])
        defer { kill(pid, SIGKILL); var st: Int32 = 0; waitpid(pid, &st, 0) }
        #expect(eventually(timeout: 5) { d.text(id)?.hasPrefix("v1 w") == true }, "the saved entry shows: \(d.output(id) ?? [:])")
        #expect((ledger(d)[id]?.count ?? 0) >= charged, "the budget continues after kill -9")
    }
}
