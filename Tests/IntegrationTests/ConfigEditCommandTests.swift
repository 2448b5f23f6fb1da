import Dispatch
import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost add`, `remove`, `configure`, `move` and `gallery` on real bundles, with and without
/// a running host (issue 25, item 1).
@Suite struct ConfigEditCommandTests {
    static let stats = "com.example.StatsWidget"

    /// Laid out as the shipped config.json is.
    static let config = """
    {
      "comment": "by hand",
      "paths": {
        "plugins": "Plugins",
        "out": "out",
        "containers": "containers",
        "state": "state"
      },
      "widgets": [
        { "kind": "MyAppWidget", "family": "accessoryInline" },
        { "kind": "InteractiveHabit", "family": "systemSmall", "outputs": ["files", "png"] }
      ],
      "defaults": {
        "outputs": ["files"]
      },
      "desktop": { "widgets": ["InteractiveHabit-systemSmall"] }
    }

    """

    /// A folder with `Plugins/` holding the Habit and Stats bundles and `config.json`.
    static func folder(config: String = config) -> TempDir {
        let dir = TempDir()
        mkdir(dir.path + "/Plugins", 0o755)
        for (product, name) in [("HabitWidget", "HabitWidget.so"), ("StatsWidget", "StatsWidget.so")] {
            _ = run("/bin/cp", [TestPaths.plugin(product), dir.path + "/Plugins/" + name])
        }
        FileManagerFree.write(dir.path + "/config.json", config)
        return dir
    }

    func widgethost(_ args: [String], in dir: TempDir) -> ProcessResult {
        run("/usr/bin/timeout", ["60", TestPaths.widgethost] + args + ["--config", dir.path + "/config.json"])
    }

    @Test func addConfigureMoveAndRemoveChangeOnlyWhatTheyMust() throws {
        let dir = Self.folder()
        defer { dir.remove() }
        let file = dir.path + "/config.json"
        let add = widgethost(["add", Self.stats, "--family", "systemSmall", "--param", "statType=calories", "--output", "png"], in: dir)
        #expect(add.status == 0 && add.stdout == "\(Self.stats)-systemSmall\n", "\(add.stdout)\(add.stderr)")
        let entry = "{ \"kind\": \"\(Self.stats)\", \"family\": \"systemSmall\", \"parameters\": { \"statType\": \"calories\" }, \"outputs\": [\"png\"] }"
        let added = Self.config
            .replacing("\"outputs\": [\"files\", \"png\"] }\n  ]", with: "\"outputs\": [\"files\", \"png\"] },\n    \(entry)\n  ]")
            .replacing("[\"InteractiveHabit-systemSmall\"]", with: "[\"InteractiveHabit-systemSmall\", \"\(Self.stats)-systemSmall\"]")
        #expect(FileManagerFree.read(file) == added)

        let configure = widgethost(["configure", "\(Self.stats)-systemSmall", "statType=steps"], in: dir)
        #expect(configure.status == 0, "\(configure.stderr)")
        #expect(FileManagerFree.read(file) == added.replacing("\"statType\": \"calories\"", with: "\"statType\": \"steps\""))

        let move = widgethost(["move", "\(Self.stats)-systemSmall", "--to", "1"], in: dir)
        #expect(move.status == 0, "\(move.stderr)")
        #expect(FileManagerFree.read(file)?.contains("[\"\(Self.stats)-systemSmall\", \"InteractiveHabit-systemSmall\"]") == true)
        #expect(widgethost(["move", "\(Self.stats)-systemSmall", "--before", "\(Self.stats)-systemSmall"], in: dir).status == 1)
        #expect(widgethost(["move", "\(Self.stats)-systemSmall", "--before", "InteractiveHabit-systemSmall"], in: dir).status == 0)

        let remove = widgethost(["remove", "\(Self.stats)-systemSmall"], in: dir)
        #expect(remove.status == 0, "\(remove.stderr)")
        #expect(FileManagerFree.read(file) == Self.config, "add, then remove: every byte as it was")
    }

    @Test func galleryListsEveryKindInEveryFamilyPlacedOrNot() throws {
        let dir = Self.folder()
        defer { dir.remove() }
        let json = widgethost(["gallery", "--json"], in: dir)
        #expect(json.status == 0, "\(json.stderr)")
        let items = try WireCodec.decode([[String: JSONValue]].self, from: Data(json.stdout.utf8))
        let stats = items.filter { $0["kind"] == .string(Self.stats) }
        #expect(stats.map { $0["family"]?.stringValue ?? "" } == ["systemSmall", "systemMedium", "systemLarge", "accessoryCircular", "accessoryRectangular"])
        let parameter = stats.first?["parameters"]?.arrayValue?.first?.objectValue
        #expect(parameter?["name"] == .string("statType") && parameter?["type"] == .string("enum"))
        #expect(parameter?["options"]?.arrayValue?.compactMap { $0.objectValue?["value"]?.stringValue } == ["steps", "calories", "distance"])
        #expect(stats.allSatisfy { $0["placed"] == .array([]) && $0["bundle"] == .string("StatsWidget.so") })
        let habit = items.first { $0["kind"] == .string("InteractiveHabit") && $0["family"] == .string("systemSmall") }
        #expect(habit?["placed"] == .array([.string("InteractiveHabit-systemSmall")]))

        let text = widgethost(["gallery"], in: dir)
        #expect(text.status == 0)
        #expect(text.stdout.contains("\(Self.stats) — Daily Stats: Track steps, calories, or distance at a glance.  [StatsWidget.so, com.example.stats]"), "\(text.stdout)")
        #expect(text.stdout.contains("    parameter statType (Stat Type): one of: steps (Steps), calories (Calories), distance (Distance), default \"steps\""), "\(text.stdout)")
        #expect(text.stdout.contains("  systemSmall           placed: InteractiveHabit-systemSmall"), "\(text.stdout)")
    }

    @Test func badInputIsAClearErrorAndTheFileIsUntouched() throws {
        let dir = Self.folder()
        defer { dir.remove() }
        let file = dir.path + "/config.json"
        let cases: [([String], String)] = [
            (["add", "Stats", "--family", "systemSmall"], "no installed bundle declares kind \"Stats\" (installed kinds: InteractiveHabit, MyAppWidget, \(Self.stats))"),
            (["add", Self.stats, "--family", "accessoryInline"], "\(Self.stats) does not support accessoryInline (it supports: systemSmall, systemMedium, systemLarge, accessoryCircular, accessoryRectangular)"),
            (["add", Self.stats, "--family", "systemSmall", "--param", "color=red"], "\(Self.stats) has no parameter \"color\" (its parameters: statType (one of: steps (Steps), calories (Calories), distance (Distance)))"),
            (["add", Self.stats, "--family", "systemSmall", "--param", "statType=sleep"], "\(Self.stats) parameter statType expects one of: steps (Steps), calories (Calories), distance (Distance), got 'sleep'"),
            (["configure", "MyAppWidget-accessoryInline", "statType=steps"], "MyAppWidget has no parameter \"statType\" (it has no parameters)"),
            (["remove", "clock"], "no widget \"clock\" in the config (ids: MyAppWidget-accessoryInline, InteractiveHabit-systemSmall)"),
        ]
        for (args, message) in cases {
            let r = widgethost(args, in: dir)
            #expect(r.status == 1 && r.stderr == "widgethost: \(message)\n", "\(args): \(r.stderr)")
            #expect(FileManagerFree.read(file) == Self.config)
        }
        chmod(file, 0o444)
        symlink(file, dir.path + "/link.json")
        let readOnly = widgethost(["remove", "MyAppWidget-accessoryInline"], in: dir)
        #expect(readOnly.status == 1 && readOnly.stderr == "widgethost: \(file) is read-only (mode 444): not changed\n", "\(readOnly.stderr)")
        let link = run(TestPaths.widgethost, ["remove", "MyAppWidget-accessoryInline", "--config", dir.path + "/link.json"])
        #expect(link.status == 1 && link.stderr.contains("link.json (a symlink to \(file)) is read-only (mode 444): not changed"), "\(link.stderr)")
        #expect(FileManagerFree.read(file) == Self.config)
    }

    @Test func twoAddsAtOnceLoseNeitherAndAHandEditInBetweenStays() throws {
        let dir = Self.folder()
        defer { dir.remove() }
        let file = dir.path + "/config.json"
        // Two processes at once (run from two threads; a shell's `wait` hangs under the test runner's signal mask).
        let results = NSLockFreeBox()
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let family = i == 0 ? "systemSmall" : "systemMedium", id = i == 0 ? "a" : "b"
            let r = run(TestPaths.widgethost, ["add", Self.stats, "--family", family, "--id", id, "--config", file])
            results.append("\(r.status) \(r.stdout)\(r.stderr)")
        }
        #expect(results.sorted == ["0 a\n", "0 b\n"])
        let text = FileManagerFree.read(file) ?? ""
        #expect(text.contains("\"id\": \"a\"") && text.contains("\"id\": \"b\""), "\(text)")
        // By hand: another comment and four-space indentation of the defaults. Both stay.
        let byHand = text.replacing("\"comment\": \"by hand\"", with: "\"comment\": \"edited by hand\"")
            .replacing("  \"defaults\": {\n    \"outputs\": [\"files\"]\n  }", with: "  \"defaults\": {\n        \"outputs\": [\"files\"]\n  }")
        FileManagerFree.write(file, byHand)
        #expect(widgethost(["remove", "a"], in: dir).status == 0)
        let after = FileManagerFree.read(file) ?? ""
        #expect(after.contains("\"comment\": \"edited by hand\"") && after.contains("        \"outputs\": [\"files\"]") && !after.contains("\"id\": \"a\""), "\(after)")
    }

    @Test func theRunningHostShowsAnAddedWidgetAndDropsARemovedOne() throws {
        let config = """
        {
          "paths": { "plugins": "Plugins", "out": "out", "containers": "containers", "state": "state" },
          "widgets": [
            { "kind": "MyAppWidget", "family": "accessoryInline" }
          ]
        }
        """
        let d = try RunningDaemon(config: config) { dir in
            _ = run("/bin/cp", [TestPaths.plugin("HabitWidget"), dir + "/Plugins/HabitWidget.so"])
            _ = run("/bin/cp", [TestPaths.plugin("StatsWidget"), dir + "/Plugins/StatsWidget.so"])
        }
        #expect(eventually { d.output("MyAppWidget-accessoryInline") != nil }, "stderr:\n\(d.stderr)")
        let file = d.dir.path + "/config.json"
        let add = run(TestPaths.widgethost, ["add", Self.stats, "--family", "accessoryRectangular", "--param", "statType=calories", "--config", file])
        #expect(add.status == 0, "\(add.stderr)")
        let id = add.stdout.trimmingSuffixNewline
        #expect(eventually { d.text(id)?.contains("487") == true }, "\(d.output(id) ?? [:])\nstderr:\n\(d.stderr)")
        #expect(run(TestPaths.widgethost, ["configure", id, "statType=distance", "--config", file]).status == 0)
        #expect(eventually { d.text(id)?.contains("7.3") == true }, "\(d.output(id) ?? [:])")
        #expect(run(TestPaths.widgethost, ["remove", id, "--config", file]).status == 0)
        #expect(eventually { d.output(id)?["removed"] == .bool(true) }, "stderr:\n\(d.stderr)")
        #expect(d.output("MyAppWidget-accessoryInline")?["removed"] == nil)
        #expect(!d.stderr.contains("configuration rejected"), "\(d.stderr)")
    }

    /// A config kept elsewhere and symlinked into place (a dotfiles checkout): the link stays a
    /// link, and the host, which watches the link's folder, still sees the edit.
    @Test func anEditThroughASymlinkReachesTheRunningHost() throws {
        let config = #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}, "widgets": []}"#
        let d = try RunningDaemon(config: config) { dir in
            _ = run("/bin/cp", [TestPaths.plugin("StatsWidget"), dir + "/Plugins/StatsWidget.so"])
            guard FileManagerFree.exists(dir + "/config.json") else { return }
            mkdir(dir + "/dotfiles", 0o755)
            rename(dir + "/config.json", dir + "/dotfiles/config.json")
            symlink(dir + "/dotfiles/config.json", dir + "/config.json")
        }
        #expect(eventually { d.stderr.contains("plugin loaded: StatsWidget.so") }, "\(d.stderr)")
        let add = run(TestPaths.widgethost, ["add", Self.stats, "--family", "accessoryRectangular", "--config", d.dir.path + "/config.json"])
        #expect(add.status == 0, "\(add.stderr)")
        var st = stat()
        lstat(d.dir.path + "/config.json", &st)
        #expect(st.st_mode & S_IFMT == S_IFLNK)
        #expect(FileManagerFree.read(d.dir.path + "/dotfiles/config.json")?.contains(Self.stats) == true)
        #expect(eventually { d.output("\(Self.stats)-accessoryRectangular") != nil }, "stderr:\n\(d.stderr)")
    }
}

private extension String {
    var trimmingSuffixNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}

/// Lines appended from several threads.
private final class NSLockFreeBox: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var lines: [String] = []
    init() { pthread_mutex_init(&mutex, nil) }
    func append(_ s: String) { pthread_mutex_lock(&mutex); lines.append(s); pthread_mutex_unlock(&mutex) }
    var sorted: [String] { pthread_mutex_lock(&mutex); defer { pthread_mutex_unlock(&mutex) }; return lines.sorted() }
}
