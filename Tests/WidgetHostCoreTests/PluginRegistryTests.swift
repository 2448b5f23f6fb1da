import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

@Suite struct PluginRegistryTests {
    let logger = Logger(label: "test")

    func plugin(_ version: String) -> (WireRequest) -> Result<WireResponse, WorkerFailure> {
        fakePlugin(bundleId: "org.test.\(version)") { _ in WireResponse(ok: true, entries: [textEntry(Date(), version)]) }
    }

    @Test func addReplaceRemove() {
        let launcher = FakeLauncher()
        let registry = PluginRegistry(launcher: launcher, snapshotDirectory: nil, logger: logger)
        var events: [String] = []
        registry.onEvent = { e in
            switch e {
            case .loaded(let b): events.append("loaded \(b.bundleId)")
            case .replaced(let o, let n): events.append("replaced \(o.bundleId) by \(n.bundleId)")
            case .removed(let b): events.append("removed \(b.bundleId)")
            case .rejected(let f, _, _): events.append("rejected \(f.name)")
            }
        }
        launcher.plugins["/p/a.so"] = plugin("v1")
        registry.reconcile([PluginFile(path: "/p/a.so", fingerprint: "1")])
        registry.reconcile([PluginFile(path: "/p/a.so", fingerprint: "1")])   // unchanged: nothing
        launcher.plugins["/p/a.so"] = plugin("v2")
        registry.reconcile([PluginFile(path: "/p/a.so", fingerprint: "2")])
        #expect(launcher.workers.count == 2)
        #expect(launcher.workers[0].stopped, "the old worker stops once the new one validated")
        registry.reconcile([])
        #expect(launcher.workers[1].stopped)
        #expect(events == ["loaded org.test.v1", "replaced org.test.v1 by org.test.v2", "removed org.test.v2"])
    }

    /// A new bundle is described and served by one worker (`WorkerSettings`): launched with the
    /// settings of a bundle not yet described plus `--settings-after-describe`, it gets the
    /// settings its manifest earns (here its app group's container) right after `describe` and
    /// before any other request, and no second worker is started.
    @Test func oneWorkerDescribesThenServesUnderTheManifestsSettings() {
        let launcher = FakeLauncher()
        let registry = PluginRegistry(launcher: launcher, snapshotDirectory: nil, logger: logger)
        registry.workerArguments = { bundle in ["--sandbox", (["no-network"] + bundle.manifest.appGroups.map { "/c/" + $0 }).joined(separator: "\n")] }
        registry.onEvent = { e in
            if case .loaded(let b) = e {
                registry.call(b, WireRequest(op: .timeline, kind: "k", family: .systemSmall)) { _ in }
            }
        }
        launcher.plugins["/p/a.so"] = fakePlugin(bundleId: "org.test.a", appGroups: ["group.a"]) { _ in WireResponse(ok: true, entries: [textEntry(Date(), "a")]) }
        registry.reconcile([PluginFile(path: "/p/a.so", fingerprint: "1")])
        #expect(launcher.workers.count == 1)
        let w = launcher.workers[0]
        #expect(w.arguments == ["--sandbox", "no-network", "--settings-after-describe"])
        #expect(w.requests.map(\.op) == [.describe, .timeline])
        #expect(w.settings.count == 1)
        #expect(w.settings.first?.arguments == ["--sandbox", "no-network\n/c/group.a"])
        #expect(w.settings.first?.afterRequests == 1, "the settings leave after describe, before the timeline")
        #expect(!w.stopped)
    }

    /// A restart runs an unchanged bundle from the copy the previous run made (no new copy of a
    /// 5–10 MB file at every start); a changed or damaged one is copied again; the rest of the
    /// previous run's copies are removed.
    @Test func aRestartReusesTheCopyOfAnUnchangedBundleOnly() throws {
        let dir = TestDirectory()
        defer { dir.remove() }
        let plugins = dir.path + "/Plugins", snapshots = dir.path + "/state/bundles"
        try FileIO.makeDirectories(plugins)
        for name in ["a", "b", "c"] { try FileIO.writeAtomically(Data("\(name) v1".utf8), to: plugins + "/\(name).so") }
        let launcher = FakeLauncher()
        func scan() throws -> [PluginFile] {
            let files = try #require(PluginFile.scan(plugins))
            for f in files { launcher.plugins[snapshots + "/" + PluginRegistry.snapshotName(f)] = plugin(f.name) }
            return files
        }
        func inode(_ path: String) -> UInt64 { var st = stat(); return stat(path, &st) == 0 ? UInt64(st.st_ino) : 0 }
        let first = PluginRegistry(launcher: launcher, snapshotDirectory: snapshots, logger: logger)
        first.reconcile(try scan())
        let copies = ["a.so", "b.so", "c.so"].map { first.bundles[$0]?.runPath ?? "" }
        #expect(copies.map { FileIO.read($0) } == ["a v1", "b v1", "c v1"].map { Data($0.utf8) })
        let inodes = copies.map(inode)

        // Before the restart: b.so replaced, c.so's copy damaged, a stray copy of a gone bundle.
        try FileIO.writeAtomically(Data("b v2".utf8), to: plugins + "/b.so")
        try FileIO.writeAtomically(Data("damaged copy".utf8), to: copies[2])
        try FileIO.writeAtomically(Data("x".utf8), to: snapshots + "/gone-0000000000000001.so")
        let second = PluginRegistry(launcher: launcher, snapshotDirectory: snapshots, logger: logger)
        second.reconcile(try scan())
        #expect(second.bundles["a.so"]?.runPath == copies[0])
        #expect(inode(copies[0]) == inodes[0], "the unchanged bundle's copy is not made again")
        #expect(FileIO.read(second.bundles["b.so"]?.runPath ?? "") == Data("b v2".utf8))
        #expect(second.bundles["b.so"]?.runPath != copies[1])
        #expect(FileIO.read(copies[2]) == Data("c v1".utf8), "a copy of another size is copied again")
        let kept = ["a.so", "b.so", "c.so"].compactMap { second.bundles[$0]?.runPath.lastPathComponent }
        #expect(FileIO.list(snapshots) == kept.sorted(), "the previous run's other copies are removed")
    }

    @Test func aBrokenReplacementKeepsTheOldVersionServing() {
        let launcher = FakeLauncher()
        let registry = PluginRegistry(launcher: launcher, snapshotDirectory: nil, logger: logger)
        var rejection: (String, String?)?
        registry.onEvent = { e in if case .rejected(_, let reason, let kept) = e { rejection = (reason, kept?.bundleId) } }
        launcher.plugins["/p/a.so"] = plugin("v1")
        registry.reconcile([PluginFile(path: "/p/a.so", fingerprint: "1")])
        let old = registry.bundles["a.so"]
        // The new build fails in its worker the way a bad .so does.
        launcher.plugins["/p/a.so"] = { _ in .failure(WorkerFailure("widgethost worker: /p/a.so: truncated ELF file")) }
        registry.reconcile([PluginFile(path: "/p/a.so", fingerprint: "2")])
        #expect(registry.bundles["a.so"] === old, "the old version goes on serving")
        #expect(old?.connection != nil && !launcher.workers[0].stopped)
        #expect(launcher.workers[1].stopped, "the candidate worker is stopped")
        #expect(rejection?.0.contains("truncated ELF file") == true)
        #expect(rejection?.1 == "org.test.v1")
        #expect(registry.rejected["a.so"]?.fingerprint == "2")
        // Not retried until the file changes; a fixed build then replaces it.
        registry.reconcile([PluginFile(path: "/p/a.so", fingerprint: "2")])
        #expect(launcher.workers.count == 2)
        launcher.plugins["/p/a.so"] = plugin("v3")
        registry.reconcile([PluginFile(path: "/p/a.so", fingerprint: "3")])
        #expect(registry.bundles["a.so"]?.bundleId == "org.test.v3")
    }

    @Test func aManifestWithTheWrongABIIsRejected() {
        let launcher = FakeLauncher()
        let registry = PluginRegistry(launcher: launcher, snapshotDirectory: nil, logger: logger)
        launcher.plugins["/p/x.so"] = { _ in
            .success(WireResponse(ok: true, manifest: BundleManifest(bundleId: "x", sdkVersion: "", abiVersion: 7, widgets: [], appGroups: [])))
        }
        registry.reconcile([PluginFile(path: "/p/x.so", fingerprint: "1")])
        #expect(registry.bundles.isEmpty)
        #expect(registry.rejected["x.so"]?.reason.contains("ABI version 7") == true)
    }
}

@Suite struct WidgetHostTests {
    /// A host over a real temp directory (plugin files exist, their contents are the fake launcher's).
    final class Harness {
        let dir = TestDirectory()
        let loop = VirtualLoop()
        let launcher = FakeLauncher()
        let sink = RecordingSink()
        let host: WidgetHost
        init(widgets: [HostConfig.Widget]? = nil, logger: Logger = Logger(label: "t")) {
            let paths = HostConfig.Paths(plugins: dir.path + "/Plugins", out: dir.path + "/out",
                                         containers: dir.path + "/containers", state: dir.path + "/state")
            var defaults = HostConfig.Defaults()
            defaults.outputs = [.files, .stdout]
            host = WidgetHost(config: HostConfig(paths: paths, widgets: widgets, defaults: defaults), loop: loop,
                              launcher: launcher, extraSinks: [sink], snapshots: false, logger: logger)
            try? FileIO.makeDirectories(paths.plugins)
        }
        func install(_ name: String, _ answer: @escaping (WireRequest) -> Result<WireResponse, WorkerFailure>) {
            let path = host.config.paths.plugins + "/" + name
            launcher.plugins[path] = answer
            try? FileIO.writeAtomically(Data("\(name) \(Double.random(in: 0..<1))".utf8), to: path)
        }
        deinit { dir.remove() }
    }

    /// Issue 22: with a `widgets` list, a dropped-in bundle's kind that no widget places shows
    /// nothing. The host says so once, at info, and in `status`, with the command that places
    /// it (a family the kind supports, and the config file when it is not the default one).
    @Test func aKindNoWidgetPlacesIsNamedWithTheCommandThatPlacesIt() {
        let log = LogRecorder()
        let h = Harness(widgets: [HostConfig.Widget(id: "clock-accessoryInline", kind: "clock", family: .accessoryInline)], logger: log.logger)
        h.host.configFile = "/home/u/my widgets/config.json"
        let answer: (WireRequest) -> WireResponse = { _ in
            WireResponse(ok: true, entries: [textEntry(Date(timeIntervalSince1970: 0), "x")], policy: WirePolicy(type: "never"))
        }
        h.install("System.so", fakePlugin(bundleId: "org.sys", kind: "clock", families: [.accessoryInline], timeline: answer))
        h.install("MyWidgets.so", fakePlugin(bundleId: "org.my", kind: "counter", families: [.systemSmall, .accessoryInline], timeline: answer))
        h.host.start()
        h.loop.advance(by: 1)
        let line = "counter: available, not placed — `widgethost add counter --family systemSmall --config '/home/u/my widgets/config.json'`"
        #expect(log.at(.info).filter { $0.contains("not placed") } == [line], "\(log.all)")
        let status = h.host.status()
        #expect(status.unplaced == [UnplacedKind(kind: "counter", bundle: "MyWidgets.so", families: ["systemSmall", "accessoryInline"])])
        #expect(StatusText.lines(status, now: h.loop.now).contains(line))
        // Placed by the next config: gone from status, and nothing more is logged.
        var placed = h.host.config
        placed.widgets?.append(HostConfig.Widget(id: "counter-systemSmall", kind: "counter", family: .systemSmall))
        h.host.apply(placed)
        #expect(h.host.status().unplaced == nil)
        #expect(log.at(.info).filter { $0.contains("not placed") }.count == 1)
        // The default config file is not named; a kind with no family gets no command.
        h.host.configFile = nil
        #expect(UnplacedKind(kind: "k", bundle: "b.so", families: ["accessoryInline"]).line(configFile: nil)
                == "k: available, not placed — `widgethost add k --family accessoryInline`")
        #expect(UnplacedKind(kind: "k", bundle: "b.so", families: []).line(configFile: nil) == "k: available, not placed (b.so declares no family for it)")
    }

    @Test func everyKindInEveryFamilyWithDerivedIds() {
        let h = Harness()
        h.install("a.so", fakePlugin(kind: "Clock Face", families: [.systemSmall, .accessoryInline]) { _ in
            WireResponse(ok: true, entries: [textEntry(Date(timeIntervalSince1970: 0), "tick")], policy: WirePolicy(type: "never"))
        })
        h.host.start()
        #expect(h.host.scheduler.instances.keys.sorted() == ["Clock_Face-accessoryInline", "Clock_Face-systemSmall"])
        #expect(FileIO.exists(h.dir.path + "/out/Clock_Face-systemSmall.json"))
        #expect(h.sink.texts("Clock_Face-systemSmall") == ["tick"])
    }

    @Test func aContainerBurstReloadsOnceAtOnceAndOnceAfter() {
        let h = Harness()
        var value = 0
        h.install("a.so", fakePlugin(kind: "habit", appGroups: ["group.habit"]) { _ in
            WireResponse(ok: true, entries: [textEntry(Date(timeIntervalSince1970: 0), "count \(value)")], policy: WirePolicy(type: "never"))
        })
        var watched: [String: String] = [:]
        h.host.onContainerDirectoriesChanged = { watched = $0 }
        h.host.start()
        #expect(watched == ["group.habit": h.dir.path + "/containers/group.habit"])
        #expect(FileIO.isDirectory(h.dir.path + "/containers/group.habit"))
        #expect(h.launcher.timelineRequests == 1)
        value = 6
        h.host.containerChanged(group: "group.habit")
        #expect(h.launcher.timelineRequests == 2, "the first event reloads at once")
        #expect(h.sink.texts("habit-systemSmall").last == "count 6")
        for _ in 0..<10 { h.loop.advance(by: 0.005); h.host.containerChanged(group: "group.habit") }
        #expect(h.launcher.timelineRequests == 2)
        h.loop.advance(by: 0.2)
        #expect(h.launcher.timelineRequests == 3, "the burst is coalesced into one more reload")
        h.host.containerChanged(group: "group.other")
        #expect(h.launcher.timelineRequests == 3)
        h.loop.advance(by: 1)
        h.host.containerChanged(group: "group.habit", name: "/c/group.habit/.defaults.42.tmp")
        h.host.containerChanged(group: "group.habit", name: "/c/group.habit/.defaults.lock")
        h.host.containerChanged(group: "group.habit", name: "/c/group.habit/value.txt.tmp")
        #expect(h.launcher.timelineRequests == 3, "a writer's temp and lock files are not changes")
        h.host.containerChanged(group: "group.habit", name: "/c/group.habit/defaults.json")
        #expect(h.launcher.timelineRequests == 4)
    }

    /// The renames of a burst read in one inotify read all precede the round's requests (they
    /// leave at the end of the loop iteration): the round sees them, no second reload is needed.
    @Test func changesReadBeforeTheRoundLeftReloadOnce() {
        let h = Harness()
        h.install("a.so", fakePlugin(kind: "habit", appGroups: ["group.habit"]) { _ in
            WireResponse(ok: true, entries: [textEntry(Date(timeIntervalSince1970: 0), "count")], policy: WirePolicy(type: "never"))
        })
        h.host.start()
        h.loop.advance(by: 1)
        #expect(h.launcher.timelineRequests == 1)
        for i in 0..<10 { h.host.containerChanged(group: "group.habit", name: "/c/group.habit/file\(i)") }
        h.loop.advance(by: 1)
        #expect(h.launcher.timelineRequests == 2, "ten renames read in one go are one reload")
        h.host.containerChanged(group: "group.habit", name: "/c/group.habit/file0")
        h.loop.advance(by: 0)
        h.host.containerChanged(group: "group.habit", name: "/c/group.habit/file1")
        h.loop.advance(by: 1)
        #expect(h.launcher.timelineRequests == 4, "a change after the requests left gets the trailing reload")
    }

    /// A writer's temp file is no change, but inside a burst's window it holds the container's
    /// watch: the rest of the burst is read once, at the window's end.
    @Test func aTempFileInsideAWindowHoldsTheContainersWatch() {
        let h = Harness()
        h.install("a.so", fakePlugin(kind: "habit", appGroups: ["group.habit"]) { _ in
            WireResponse(ok: true, entries: [textEntry(Date(timeIntervalSince1970: 0), "count")], policy: WirePolicy(type: "never"))
        })
        h.host.start()
        h.loop.advance(by: 1)
        let watch = FakeEventSource()
        h.host.attachContainerSource(group: "group.habit", watch)
        h.host.containerChanged(group: "group.habit", name: "/c/group.habit/.file0.tmp")
        #expect(!watch.held && h.launcher.timelineRequests == 1, "a temp file outside a window: nothing")
        h.host.containerChanged(group: "group.habit", name: "/c/group.habit/file0")
        h.loop.advance(by: 0)
        #expect(h.launcher.timelineRequests == 2)
        h.host.containerChanged(group: "group.habit", name: "/c/group.habit/.file1.tmp")
        #expect(watch.held, "inside the window a temp file holds the watch")
        #expect(h.launcher.timelineRequests == 2, "and reloads nothing")
        h.loop.advance(by: 1)
        #expect(!watch.held && h.launcher.timelineRequests == 2, "released at the window's end, no call owed")
        h.host.attachContainerSource(group: "group.habit", nil)
    }

    @Test func removingAPluginMarksItsOutputsRemoved() throws {
        let h = Harness()
        h.install("a.so", fakePlugin(kind: "k") { _ in
            WireResponse(ok: true, entries: [textEntry(Date(timeIntervalSince1970: 0), "hi")], policy: WirePolicy(type: "never"))
        })
        h.host.start()
        FileIO.remove(h.host.config.paths.plugins + "/a.so")
        h.host.pluginFolderChanged()
        h.loop.advance(by: 1)
        let json = try WireCodec.decode([String: JSONValue].self, from: FileIO.read(h.dir.path + "/out/k-systemSmall.json") ?? Data())
        #expect(json["removed"] == .bool(true))
        #expect(json["class"] == .array([.string("removed")]))
        #expect(h.host.scheduler.instances.isEmpty)
        #expect(h.loop.armedWallDates.isEmpty)
    }

    @Test func configuredWidgetsUseTheirFamilyAndParameters() {
        let h = Harness(widgets: [HostConfig.Widget(id: "mine", kind: "k", family: .accessoryInline, parameters: ["n": .number(3)])])
        var seen: WireRequest?
        h.install("a.so", fakePlugin(kind: "k", families: [.systemSmall, .accessoryInline]) { req in
            seen = req
            return WireResponse(ok: true, entries: [textEntry(Date(timeIntervalSince1970: 0), "x")], policy: WirePolicy(type: "never"))
        })
        h.host.start()
        #expect(h.host.scheduler.instances.keys.sorted() == ["mine"])
        #expect(seen?.family == .accessoryInline)
        #expect(seen?.configuration?["n"] == .number(3))
    }
}
