import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Workers only while needed (issue 26): a bundle none of whose kinds is placed has no running
/// worker — described once, its manifest cached with the file's identity, its worker stopped —
/// and starts again when a configuration places one of its kinds; at the next start an unchanged
/// unplaced bundle starts no worker at all, a changed one is described again.
@Suite(.serialized) struct WorkersWhileNeededTests {
    static let paths = #""paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state""#
    static let examples = Array(TestPaths.exampleProducts.prefix(4))

    static func config(placing ids: [String]) -> String {
        let widgets = ids.map { #"{"id": "\#($0)", "kind": "\#($0)", "family": "systemSmall", "outputs": ["files"]}"# }
        return "{\(paths)}, \"widgets\": [\(widgets.joined(separator: ", "))]}"
    }

    /// The installed bundles (file names) whose worker runs: processes whose command line
    /// names the bundle's private copy under `state/bundles/`.
    static func running(_ dir: String, _ names: [String]) -> [String] {
        names.filter { !processesMentioning(dir + "/state/bundles/" + $0.dropLast(3) + "-").isEmpty }
    }

    @Test func onlyPlacedBundlesKeepAWorkerAndACachedManifestSkipsTheWorkerUntilTheFileChanges() throws {
        let d = try RunningDaemon(config: Self.config(placing: ["probe"]))
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=1000"]), as: "probe.so")
        d.install(try buildCPlugin(in: d.dir.path, name: "hello"), as: "hello.so")
        for p in Self.examples { d.install(TestPaths.plugin(p), as: "\(p).so") }
        let names = ["probe.so", "hello.so"] + Self.examples.map { "\($0).so" }
        #expect(eventually(timeout: 60) { names.allSatisfy { d.stderr.contains("plugin loaded: \($0)") } }, "\(d.stderr.suffix(3000))")
        #expect(eventually { d.text("probe") == "v1 none #0" })
        // Six installed, one placed: one worker.
        #expect(eventually { Self.running(d.dir.path, names) == ["probe.so"] }, "running: \(Self.running(d.dir.path, names))\n\(d.stderr.suffix(3000))")
        let status = run(TestPaths.widgethost, ["status", "--json", "--config", d.dir.path + "/config.json"])
        struct Status: Decodable {
            struct Bundle: Decodable { var name: String; var worker: String; var kinds: [String] }
            var bundles: [Bundle]
        }
        let bundles = (try? JSONDecoder().decode(Status.self, from: Data(status.stdout.utf8)))?.bundles ?? []
        let running = bundles.filter { $0.worker == "running" }.map(\.name)
        #expect(bundles.count == 6 && running == ["probe.so"], "\(status.stdout)\(status.stderr)")
        #expect(FileManagerFree.exists(d.dir.path + "/state/manifests/hello.so.json"))
        // Placing another kind starts its bundle's worker, and the widget appears.
        FileManagerFree.write(d.dir.path + "/config.json", Self.config(placing: ["probe", "hello"]))
        #expect(eventually(timeout: 20) { d.text("hello")?.hasPrefix("Hello from C") == true }, "\(d.stderr.suffix(3000))")
        #expect(Self.running(d.dir.path, names) == ["probe.so", "hello.so"])
        // Taken off again: its worker stops.
        FileManagerFree.write(d.dir.path + "/config.json", Self.config(placing: ["probe"]))
        #expect(eventually { Self.running(d.dir.path, names) == ["probe.so"] }, "\(d.stderr.suffix(2000))")

        // The next start: the unchanged unplaced bundles start no worker at all; hello.so,
        // replaced by another build, is described by its worker again.
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0)
        d.install(try buildCPlugin(in: d.dir.path, name: "hello-rebuilt"), as: "hello.so")
        let second = try BarProcess(TestPaths.widgethost, ["run", "--config", d.dir.path + "/config.json", "--log-level", "debug"],
                                    dir: d.dir.path, name: "second", stdin: .closed)
        defer { second.signal(SIGTERM); _ = second.waitForExit() }
        #expect(eventually(timeout: 60) { names.allSatisfy { second.stderr.contains("plugin loaded: \($0)") } }, "\(second.stderr.suffix(3000))")
        for p in Self.examples {
            #expect(second.stderr.contains("\(p).so: none of its kinds is placed; loaded from its cached manifest, no worker started"), "\(second.stderr.suffix(3000))")
        }
        #expect(!second.stderr.contains("hello.so: none of its kinds is placed; loaded from its cached manifest"), "a changed .so is not taken from the cache")
        #expect(second.stderr.contains("hello.so: none of its kinds is placed; its worker is stopped"), "\(second.stderr.suffix(3000))")
        #expect(eventually { Self.running(d.dir.path, names) == ["probe.so"] })
        #expect(eventually { d.text("probe") == "v1 none #0" })
        // And a cached bundle placed later starts its worker and shows its widget.
        let example = Self.examples[0]
        let kind = try #require(bundles.first { $0.name == "\(example).so" }?.kinds.first)
        FileManagerFree.write(d.dir.path + "/config.json", """
            {\(Self.paths)}, "widgets": [{"id": "probe", "kind": "probe", "family": "systemSmall", "outputs": ["files"]},
             {"id": "placed", "kind": "\(kind)", "outputs": ["files"]}]}
            """)
        #expect(eventually(timeout: 30) { d.output("placed")?["text"] != nil && d.output("placed")?["error"] == nil }, "\(second.stderr.suffix(3000))")
        #expect(Self.running(d.dir.path, names).contains("\(example).so"))
    }

    /// A bundle whose next call is minutes away rests (`WorkerRest`): the system clock answers a
    /// 5-minute timeline, then its worker stops; the widget still ticks from the host's entries,
    /// `status` says the worker is asleep (not idle, not failed), and a `reload` starts it again
    /// for one answer, after which it rests again.
    @Test func aWorkerWhoseNextCallIsMinutesAwayRestsAndARequestWakesIt() throws {
        let d = try RunningDaemon(config: """
            {\(Self.paths)}, "widgets": [{"id": "clock", "kind": "clock", "family": "systemSmall", "outputs": ["files"]}]}
            """)
        d.install(TestPaths.plugin("SystemWidgets"), as: "SystemWidgets.so")
        let rests = "SystemWidgets.so: no call due for a while; its worker rests until the next"
        #expect(eventually(timeout: 60) { d.stderr.contains(rests) }, "\(d.stderr.suffix(3000))")
        let worker = d.dir.path + "/state/bundles/SystemWidgets-"
        #expect(eventually { processesMentioning(worker).isEmpty }, "the worker's processes stay: \(processesMentioning(worker))")
        // The widget still ticks: a new second's text from the host's own entries.
        let first = d.text("clock")
        #expect(first != nil)
        #expect(eventually(timeout: 5) { d.text("clock") != first }, "\(d.stderr.suffix(2000))")
        #expect(processesMentioning(worker).isEmpty)
        func workerState() -> String? {
            let status = run(TestPaths.widgethost, ["status", "--json", "--config", d.dir.path + "/config.json"])
            struct Status: Decodable {
                struct Bundle: Decodable { var name: String; var worker: String }
                var bundles: [Bundle]
            }
            return (try? JSONDecoder().decode(Status.self, from: Data(status.stdout.utf8)))?.bundles.first { $0.name == "SystemWidgets.so" }?.worker
        }
        #expect(workerState() == "asleep")
        #expect(d.output("clock")?["error"] == nil)
        // A reload wakes it: a second worker answers, then rests.
        #expect(run(TestPaths.widgethost, ["reload", "--config", d.dir.path + "/config.json"]).status == 0)
        #expect(eventually(timeout: 30) { d.stderr.ranges(of: rests).count == 2 }, "\(d.stderr.suffix(3000))")
        #expect(d.stderr.ranges(of: "reload clock (SystemWidgets.so clock systemSmall)").count == 2, "\(d.stderr.suffix(3000))")
        #expect(eventually { processesMentioning(worker).isEmpty })
        #expect(workerState() == "asleep")
        #expect(!d.stderr.contains("worker exited"), "\(d.stderr.suffix(3000))")
    }

    /// `gallery` (and the config edits) take a bundle from the host's cached manifest while its
    /// file is as the host described it, and ask its worker again once the file changed.
    @Test func theGalleryReadsTheHostsCachedManifestUntilTheFileChanges() throws {
        let d = try RunningDaemon(config: Self.config(placing: []))
        d.install(try buildCPlugin(in: d.dir.path, name: "hello"), as: "hello.so")
        let entry = d.dir.path + "/state/manifests/hello.so.json"
        #expect(eventually { FileManagerFree.exists(entry) }, "\(d.stderr.suffix(2000))")
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0)
        func displayName() -> String? {
            let r = run(TestPaths.widgethost, ["gallery", "--json", "--config", d.dir.path + "/config.json"])
            let items = try? WireCodec.decode([[String: JSONValue]].self, from: Data(r.stdout.utf8))
            return items?.first?["displayName"]?.stringValue
        }
        #expect(displayName() == "Hello C")
        // The cache says something the worker would not: the gallery shows it, so no worker was asked.
        let cached = try #require(FileManagerFree.read(entry))
        #expect(cached.contains(#""displayName":"Hello C""#), "\(cached)")
        FileManagerFree.write(entry, cached.replacing(#""displayName":"Hello C""#, with: #""displayName":"Hello C (cached)""#))
        #expect(displayName() == "Hello C (cached)")
        // A new file there: described again.
        d.install(try buildCPlugin(in: d.dir.path, name: "hello-again"), as: "hello.so")
        #expect(displayName() == "Hello C")
    }
}
