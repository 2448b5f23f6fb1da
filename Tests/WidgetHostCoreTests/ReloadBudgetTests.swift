import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The reload budget on virtual time: budgeted reloads stop at the budget, the entry stays on
/// screen marked stale with the date the budget allows, requests coalesce, free reloads pass,
/// and the ledger survives a restart.
@Suite struct ReloadBudgetTests {
    let logger = Logger(label: "test")

    final class Harness {
        let loop = VirtualLoop()
        let sink = RecordingSink()
        var calls = 0
        let enforcer: LimitsEnforcer
        var scheduler: TimelineScheduler!
        /// `answerDelay`: seconds of virtual time between a request and its answer (a slow
        /// provider); the answer is what `timeline` returned at request time.
        init(logger: Logger, budget: Int, state: String? = nil, limits: Limits? = nil, answerDelay: Double = 0,
             timeline: @escaping (Harness) -> WireResponse) {
            var config = HostConfig(paths: .init(plugins: "/nonexistent", out: "/nonexistent", containers: "/nonexistent",
                                                 state: state ?? "/nonexistent"))
            config.defaults.limits = limits ?? Limits()
            config.defaults.limits.reloadBudget = budget
            enforcer = LimitsEnforcer(config: config, budgetEnabled: true, persistent: state != nil, logger: logger)
            let publisher = OutputPublisher(sinks: [sink])
            scheduler = TimelineScheduler(loop: loop, renderer: StandardEntryRenderer(), publisher: publisher, logger: logger) { [unowned self] _, _, reply in
                self.calls += 1
                let answer = timeline(self)
                guard answerDelay > 0 else { reply(.success(answer)); return }
                self.loop.makeTimer { reply(.success(answer)) }.schedule(after: answerDelay)
            }
            scheduler.limits = enforcer
            scheduler.setInstances([InstanceSpec(id: "w", bundleName: "b.so", kind: "k", family: .systemSmall, outputs: [.stdout])])
        }
        var last: WidgetOutput? { sink.written.last { $0.id == "w" } }
    }

    @Test func scheduledReloadsStopAtTheBudgetAndTheEntryGoesStale() {
        let h = Harness(logger: logger, budget: 3) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now, "n\(h.calls)")],
                         policy: WirePolicy(type: "after", date: h.loop.now + 60))
        }
        #expect(h.calls == 1, "first load is free")
        for _ in 0..<10 { h.loop.advance(by: 60) }
        #expect(h.calls == 4, "first load + 3 budgeted reloads")
        #expect(h.last?.text == "n4")
        #expect(h.last?.stale == true)
        #expect(h.last?.error?.hasPrefix("reload budget exhausted until ") == true)
        // A request while exhausted is deferred, not sent.
        h.scheduler.reload(reason: "container changed") { _ in true }
        #expect(h.calls == 4)
        // An interaction is free.
        h.scheduler.reload(.interaction("click")) { _ in true }
        #expect(h.calls == 5)
        #expect(h.last?.stale == false)
        // 24 h after the first charge the budget allows one again.
        h.loop.advance(by: 86_400)
        #expect(h.calls > 5)
    }

    @Test func aTimelineAlreadyOverWaitsFiveMinutes() {
        let h = Harness(logger: logger, budget: 60) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now - 100, "old")], policy: WirePolicy(type: "atEnd"))
        }
        for _ in 0..<60 { h.loop.advance(by: 1) }
        #expect(h.calls == 1, "no reload within a minute of a past .atEnd timeline")
        h.loop.advance(by: 240)
        #expect(h.calls == 2)
    }

    /// CardioBot's provider: one entry dated when the provider ran, `.atEnd`. The entry is a
    /// moment after the request but over when the answer arrives: it must wait like a past
    /// timeline, not reload every `minReloadSeconds` (61 requests in 70 s before the fix).
    @Test func anAtEndTimelineOverOnArrivalWaitsFiveMinutes() {
        let h = Harness(logger: logger, budget: 60, answerDelay: 0.2) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now + 0.05, "now")], policy: WirePolicy(type: "atEnd"))
        }
        h.loop.advance(by: 70)
        #expect(h.calls == 1, "one request in 70 s, not one a second")
        #expect(h.last?.stale == false)
        h.loop.advance(by: 300)
        #expect(h.calls == 2, "reloaded five minutes after the answer arrived")
    }

    /// A provider slower than its own `.after` interval (9 s to answer `.after(now + 5 s)`):
    /// the answer arrives past its date, so it waits like a past timeline instead of being
    /// reloaded, and charged, on every arrival.
    @Test func anAnswerArrivingAfterItsOwnAfterDateWaits() {
        let h = Harness(logger: logger, budget: 60, answerDelay: 9) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now, "tick")], policy: WirePolicy(type: "after", date: h.loop.now + 5))
        }
        h.loop.advance(by: 120)
        #expect(h.calls == 1)
        #expect(h.enforcer.ledger.charges["w"]?.count ?? 0 == 0, "no budgeted reload yet")
        h.loop.advance(by: 200)
        #expect(h.calls == 2)
    }

    /// A timeline with a future end still reloads at its end, as before.
    @Test func anAtEndTimelineWithAFutureEntryReloadsAtItsEnd() {
        let h = Harness(logger: logger, budget: 60, answerDelay: 0.2) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now, "a"), textEntry(h.loop.now + 30, "b")], policy: WirePolicy(type: "atEnd"))
        }
        h.loop.advance(by: 29)
        #expect(h.calls == 1)
        h.loop.advance(by: 2)
        #expect(h.calls == 2)
    }

    /// The ledger counts by halves over ascending lists (issue 22): a clock set back inserts
    /// its charge in place, expired charges stop counting, and the budget frees up when the
    /// oldest charge in the window is 24 h old.
    @Test func theLedgerCountsTheWindowOverSortedCharges() {
        let ledger = ReloadLedger(path: nil, logger: logger)
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(ledger.charge("w", budget: 3, now: t0) == nil)
        #expect(ledger.charge("w", budget: 3, now: t0 + 100) == nil)
        #expect(ledger.charge("w", budget: 3, now: t0 + 50) == nil, "the clock set back")
        #expect(ledger.charges["w"] == [t0.timeIntervalSince1970, t0.timeIntervalSince1970 + 50, t0.timeIntervalSince1970 + 100])
        #expect(ledger.charge("w", budget: 3, now: t0 + 200) == t0 + 86_400, "full: free again when the oldest is 24 h old")
        #expect(ledger.remaining("w", budget: 3, now: t0 + 86_400) == 1)
        #expect(ledger.charge("w", budget: 3, now: t0 + 86_400) == nil)
        #expect(ledger.remaining("w", budget: 3, now: t0 + 86_400 + 101) == 2)
        for i in 0..<1000 { _ = ledger.charge("cpu", budget: 20_000, now: t0 + Double(i) * 5) }
        #expect(ledger.remaining("cpu", budget: 20_000, now: t0 + 5000) == 19_000)
        #expect(ledger.remaining("cpu", budget: 20_000, now: t0 + 86_400 + 2500) == 19_501)
    }

    @Test func theLedgerAndTheLastTimelineSurviveARestart() {
        let dir = "/tmp/widgethost-budget-\(UInt32.random(in: 0...UInt32.max))"
        defer { _ = system("rm -rf '\(dir)'") }
        let first = Harness(logger: logger, budget: 2, state: dir) { h in
            WireResponse(ok: true, entries: [textEntry(h.loop.now, "a\(h.calls)"), textEntry(h.loop.now + 3600, "later")],
                         policy: WirePolicy(type: "never"))
        }
        first.scheduler.reload(reason: "request") { _ in true }
        first.scheduler.reload(reason: "request") { _ in true }
        #expect(first.calls == 3)
        // A new host on the same state directory: the restored entry shows before any answer,
        // and the two charges still count.
        var answered = false
        let second = Harness(logger: logger, budget: 2, state: dir) { h in
            answered = true
            return WireResponse(ok: false, error: "not now")
        }
        #expect(answered)
        #expect(second.sink.written.contains { $0.text == "a3" }, "the saved entry was shown")
        second.scheduler.reload(reason: "request") { _ in true }
        #expect(second.calls == 1, "the budget was already spent before the restart")
        #expect(second.enforcer.ledger.charges["w"]?.count == 2)
    }
}

/// Issue 22: the shipped `config.json`, as shipped, run for 48 h on virtual time with the reload
/// budget enforced. The widgets' timelines are the real example bundles' (each asked once of
/// its `.so` in a real worker, then answered again at every virtual request, moved to that
/// request's date: every shipped provider dates its entries and its policy from "now"), so the
/// schedule is the one they keep in a real daemon. No widget may go stale (the budget is what
/// would stop one), a widget whose timeline changes what it shows must keep changing it, and
/// each keeps being reloaded on its policy. Outputs are narrowed to stdout: where the entries go
/// does not change when they are asked for.
@Suite struct ShippedConfigBudgetTests {
    /// The example products the shipped `Plugins/` holds (scripts/run.sh builds and installs them).
    static let products = ["HabitWidget", "StatsWidget", "CardioBotWidgets", "ClockyWidget", "SystemWidgets"]

    static let repoRoot: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// What a real bundle answered: its manifest, and per widget id the timeline and when it was asked.
    struct Recorded {
        var manifest: BundleManifest
        var timelines: [String: (response: WireResponse, askedAt: Date)] = [:]
    }

    /// Per widget: what reached the stdout sink, condensed (48 h of a clock is 172 800 outputs).
    final class WatchingSink: OutputSink {
        let output = HostConfig.Output.stdout
        let loop: VirtualLoop
        var lastText: [String: String] = [:]
        var lastChange: [String: Date] = [:]
        var longestUnchanged: [String: Double] = [:]
        var stale: [String: String] = [:]
        let start: Date
        init(loop: VirtualLoop) { self.loop = loop; start = loop.now }
        func write(_ o: WidgetOutput) {
            if o.stale, stale[o.id] == nil { stale[o.id] = "\(o.error ?? "stale") at +\(Int(loop.now.timeIntervalSince(start))) s" }
            guard o.text != lastText[o.id] else { return }
            if let last = lastChange[o.id] { longestUnchanged[o.id] = max(longestUnchanged[o.id] ?? 0, loop.now.timeIntervalSince(last)) }
            lastText[o.id] = o.text
            lastChange[o.id] = loop.now
        }
    }

    /// A rendering that changes exactly when the entry's tree does (its hash), with the standard
    /// live-date ticks: two days of the standard text layout of two clocks, once a second, took
    /// a third of this test's time and tell nothing more about the schedule.
    struct TreeIdentityRenderer: EntryRenderer {
        let standard = StandardEntryRenderer()
        func render(_ view: ViewNode, family: WidgetFamily, now: Date) -> RenderedEntry { RenderedEntry(text: "\(view.hashValue)") }
        func nextChange(of view: ViewNode, after date: Date) -> Date? { standard.nextChange(of: view, after: date) }
    }

    /// The longest time a recorded timeline shows one rendering (nil: it shows one only).
    static func changeInterval(_ r: WireResponse, family: WidgetFamily) -> Double? {
        let entries = r.entries ?? []
        guard entries.count > 1 else { return nil }
        let renderer = TreeIdentityRenderer()
        var longest = 0.0
        for (a, b) in zip(entries, entries.dropFirst()) where renderer.render(a.view, family: family, now: a.date).text != renderer.render(b.view, family: family, now: b.date).text {
            longest = max(longest, b.date.timeIntervalSince(a.date))
        }
        return longest > 0 ? longest : nil
    }

    @Test func theShippedWidgetsRunTwoDaysWithTheBudgetEnforced() throws {
        let dir = TestDirectory()
        defer { dir.remove() }
        let shipped = try #require(FileIO.read(Self.repoRoot + "/config.json"))
        var config = try ConfigParser.parse(shipped, baseDirectory: dir.path, environment: ["HOME": dir.path])
        let widgets = try #require(config.widgets, "the shipped config lists its widgets")
        config.widgets = widgets.map { var w = $0; w.outputs = [.stdout]; return w }

        // The real bundles' answers.
        var recorded: [String: Recorded] = [:]
        for product in Self.products {
            let path = SiblingExecutable.path("lib\(product).so")  // beside the test bundle
            try #require(FileIO.exists(path), "\(path) is built by swift build")
            let worker = try BlockingWorkerClient(pluginPath: path, environment: ["WIDGETHOST_CONTAINERS": dir.path + "/containers"])
            let manifest = try #require(try worker.request(WireRequest(op: .describe), timeout: 30).manifest)
            var r = Recorded(manifest: manifest)
            for w in widgets {
                guard let d = manifest.widgets.first(where: { $0.kind == w.kind }), let family = w.family ?? d.families.first else { continue }
                let askedAt = Date()
                let answer = try worker.request(WireRequest(op: .timeline, kind: w.kind, family: family, displaySize: family.nominalSize,
                                                            configuration: w.parameters, isPreview: false), timeout: 30)
                try #require(answer.ok && !(answer.entries ?? []).isEmpty, "\(product) \(w.kind): \(answer.error ?? "no entries")")
                r.timelines[w.kind + "\u{0}" + family.rawValue] = (answer, askedAt)
            }
            recorded[product + ".so"] = r
        }

        let loop = VirtualLoop(now: Date(timeIntervalSince1970: 1_795_080_600))
        let sink = WatchingSink(loop: loop)
        let launcher = FakeLauncher()
        try FileIO.makeDirectories(config.paths.plugins)
        for (name, r) in recorded {
            let path = config.paths.plugins + "/" + name
            try FileIO.writeAtomically(Data(name.utf8), to: path)
            launcher.plugins[path] = { [loop] request in
                guard request.op == .timeline else { return .success(WireResponse(ok: true, manifest: r.manifest)) }
                guard let (answer, askedAt) = r.timelines[(request.kind ?? "") + "\u{0}" + (request.family?.rawValue ?? "")] else {
                    return .success(.failure("not recorded"))
                }
                let delta = loop.now.timeIntervalSince(askedAt)
                var moved = answer
                moved.entries = answer.entries?.map { var e = $0; e.date = e.date.addingTimeInterval(delta); return e }
                moved.policy = answer.policy.map { WirePolicy(type: $0.type, date: $0.date?.addingTimeInterval(delta)) }
                return .success(moved)
            }
        }
        let host = WidgetHost(config: config, loop: loop, launcher: launcher, renderer: TreeIdentityRenderer(), extraSinks: [sink],
                              snapshots: false, budget: true,
                              logger: Logger(label: "shipped"))
        host.start()
        #expect(host.scheduler.instances.count == widgets.count, "every shipped widget is placed: \(host.scheduler.instances.keys.sorted())")
        let hours = 48
        for _ in 0..<(hours * 6) { loop.advance(by: 600) }

        for w in widgets {
            let inst = try #require(host.scheduler.instances[w.id])
            #expect(sink.stale[w.id] == nil, "\(w.id) went stale: \(sink.stale[w.id] ?? "")")
            #expect(inst.budgetBlockedUntil == nil && inst.lastError == nil, "\(w.id): \(inst.lastError ?? "")")
            let key = inst.spec.kind + "\u{0}" + inst.spec.family.rawValue
            let (answer, askedAt) = try #require(recorded[inst.spec.bundleName]?.timelines[key])
            // Reloaded on its policy all along: as many requests as 48 h hold of its interval.
            let interval: Double? = switch answer.policy?.type {
            case "after": answer.policy?.date.map { $0.timeIntervalSince(askedAt) }
            case "never": nil
            default: answer.entries?.map(\.date).max().map { $0.timeIntervalSince(askedAt) }
            }
            if let interval, interval > 0 {
                let expected = Int(Double(hours * 3600) / max(interval, 1))
                #expect(inst.requestCount >= expected * 9 / 10, "\(w.id): \(inst.requestCount) timeline requests in \(hours) h, its policy asks for \(expected)")
            }
            // What its timeline changes, it keeps changing, to the end of the two days.
            if let every = Self.changeInterval(answer, family: inst.spec.family) {
                #expect((sink.longestUnchanged[w.id] ?? .infinity) <= every + 2,
                        "\(w.id) stood still for \(Int(sink.longestUnchanged[w.id] ?? -1)) s (its timeline changes every \(every) s)")
                #expect(loop.now.timeIntervalSince(sink.lastChange[w.id] ?? .distantPast) <= every + 2, "\(w.id) still changes at the end")
            }
        }
    }
}
