import FoundationEssentials
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost validate` and `--version` against real configs and real plugins (issue 14).
@Suite struct ValidateTests {
    func validate(_ args: [String]) -> ProcessResult {
        // `timeout` only guards the test against a validate that would hang.
        run("/usr/bin/timeout", ["60", TestPaths.widgethost, "validate"] + args)
    }

    @Test func versionNamesHostSDKABIAndLibuv() {
        let r = run(TestPaths.widgethost, ["--version"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("widgethost ") == true)
        #expect(lines.contains { $0.hasPrefix("OpenWidgetKit SDK ") })
        #expect(lines.contains { $0.hasPrefix("plugin ABI 1") })
        let libuv = lines.first { $0.hasPrefix("libuv ") }?.dropFirst(6).split(separator: ".") ?? []
        #expect(libuv.count == 3 && libuv.allSatisfy { Int($0) != nil }, "\(r.stdout)")
    }

    @Test func aGoodConfigAndGoodPluginsAreValid() throws {
        let dir = TempDir()
        defer { dir.remove() }
        FileManagerFree.write(dir.path + "/config.json", #"{"paths": {"plugins": "Plugins"}, "widgets": [{"kind": "MyAppWidget", "family": "accessoryInline"}]}"#)
        mkdir(dir.path + "/Plugins", 0o755)
        let c = try buildCPlugin(in: dir.path, name: "hello")
        let r = validate(["--config", dir.path + "/config.json", TestPaths.plugin("HabitWidget"), c])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("config \(dir.path)/config.json: ok (1 widget"))
        #expect(r.stdout.contains("bundle com.yourapp.habit, SDK 0.1.0, ABI 1"))
        #expect(r.stdout.contains("MyAppWidget (Habit Tracker): systemSmall, systemMedium, systemLarge, accessoryCircular, accessoryRectangular, accessoryInline — placeholder and snapshot ok"), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("valid\n"))
        // The one warning: the C example's systemSmall view has no containerBackground.
        #expect(r.stdout.components(separatedBy: "warning:").count == 2, "\(r.stdout)")
        #expect(r.stdout.contains("warning: hello (systemSmall): no containerBackground"), "\(r.stdout)")
        // The kinds no widget places (issue 22), each with the command that places it.
        #expect(r.stdout.contains("InteractiveHabit: available, not placed — `widgethost add InteractiveHabit --family systemSmall --config \(dir.path)/config.json`"), "\(r.stdout)")
        #expect(r.stdout.contains("hello: available, not placed — `widgethost add hello --family"), "\(r.stdout)")
        #expect(!r.stdout.contains("MyAppWidget: available"))
        // A kind no plugin given declares, and a family the kind lacks: warned, not failed.
        FileManagerFree.write(dir.path + "/config.json", #"{"widgets": [{"kind": "MyAppWidgte"}, {"kind": "InteractiveHabit", "family": "accessoryInline"}]}"#)
        let typo = validate(["--config", dir.path + "/config.json", TestPaths.plugin("HabitWidget")])
        #expect(typo.status == 0, "\(typo.stdout)")
        #expect(typo.stdout.contains("warning: widget MyAppWidgte: no loaded bundle declares kind \"MyAppWidgte\" (among the plugins given)"), "\(typo.stdout)")
        #expect(typo.stdout.contains("warning: widget InteractiveHabit-accessoryInline: kind \"InteractiveHabit\" does not support accessoryInline"), "\(typo.stdout)")
    }

    /// Picture outputs and their settings (issue 12): wrong values by path, and a warning when
    /// the render process cannot be run.
    @Test func pictureSettingsAreValidated() {
        let dir = TempDir()
        defer { dir.remove() }
        FileManagerFree.write(dir.path + "/config.json", """
        {"defaults": {"picture": {"colorScheme": "blue"}}, "widgets": [{"kind": "a", "outputs": ["png", "gif"], "picture": {"scale": 5}}]}
        """)
        let bad = validate(["--config", dir.path + "/config.json"])
        #expect(bad.status == 1)
        for path in ["defaults.picture.colorScheme: unknown colour scheme", "widgets[0].outputs[1]: unknown output \"gif\" (one of: files, txt, json, stdout, png, svg)",
                     "widgets[0].picture.scale: must be between 1.0 and 3.0"] {
            #expect(bad.stdout.contains("  " + path), "missing \(path) in:\n\(bad.stdout)")
        }
        FileManagerFree.write(dir.path + "/config.json", #"{"widgets": [{"kind": "a", "outputs": ["svg"], "picture": {"scale": 3, "signal": 8}}]}"#)
        let good = run(TestPaths.widgethost, ["validate", "--config", dir.path + "/config.json"])
        #expect(good.status == 0 && !good.stdout.contains("warning"), "\(good.stdout)")
        let missing = run(TestPaths.widgethost, ["validate", "--config", dir.path + "/config.json"],
                          environment: ["WIDGETHOST_RENDER_EXECUTABLE": dir.path + "/absent"])
        #expect(missing.stdout.contains("warning: png/svg outputs are drawn by \(dir.path)/absent, which cannot be run"), "\(missing.stdout)")
    }

    @Test func everyConfigErrorIsListedWithItsPath() {
        let dir = TempDir()
        defer { dir.remove() }
        FileManagerFree.write(dir.path + "/config.json", """
        {"paths": {"plugins": 3}, "defaults": {"families": ["x"], "limits": {"maxEntries": 0}},
         "widgets": [{"family": "systemSmall"}, {"kind": "a", "outputs": ["z"]}], "bundles": {"b": {"limits": {"nope": 1}}}, "extra": 1}
        """)
        let r = validate(["--config", dir.path + "/config.json"])
        #expect(r.status == 1)
        for path in ["extra: unknown key", "paths.plugins: expected a string", "defaults.families[0]: unknown family",
                     "defaults.limits.maxEntries: must be between", "widgets[0].kind: is required",
                     "widgets[1].outputs[0]: unknown output", "bundles.b.limits.nope: unknown key"] {
            #expect(r.stdout.contains("  " + path), "missing \(path) in:\n\(r.stdout)")
        }
        #expect(r.stdout.contains("7 errors"))
        #expect(r.stdout.hasSuffix("invalid\n"))
        // Not JSON at all, and a file that is not there.
        FileManagerFree.write(dir.path + "/config.json", "{ nope")
        #expect(validate(["--config", dir.path + "/config.json"]).stdout.contains("not valid JSON"))
        let missing = validate(["--config", dir.path + "/absent.json"])
        #expect(missing.status == 1 && missing.stdout.contains("cannot read the file"))
    }

    /// Issue 22: `validate` approved configs that `run` refused (an empty file, a plugin folder
    /// that does not exist). Both now judge a config by one check: over a corpus of bad configs
    /// `validate` says invalid (1) and `run` refuses to start (2), each with the same words.
    @Test func validateAndRunGiveEveryBadConfigTheSameVerdictAndMessage() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let paths = #""out": "out", "containers": "containers", "state": "state""#
        FileManagerFree.write(dir.path + "/Plugins.txt", "a file, not a folder")
        mkdir(dir.path + "/folder.json", 0o755)
        let corpus: [(name: String, text: String?)] = [
            ("empty.json", ""), ("blank.json", " \n\t\n"), ("folder.json", nil), ("absent.json", nil),
            ("no-plugins.json", #"{"paths": {"plugins": "NoSuchFolder", \#(paths)}}"#),
            ("plugins-file.json", #"{"paths": {"plugins": "Plugins.txt", \#(paths)}}"#),
            ("not-json.json", "{ nope"), ("unknown-key.json", #"{"paths": {\#(paths)}, "nope": 1}"#),
            ("bad-family.json", #"{"paths": {\#(paths)}, "widgets": [{"kind": "a", "family": "huge"}]}"#),
            ("two-errors.json", #"{"paths": {"plugins": "NoSuchFolder", \#(paths)}, "defaults": {"outputs": ["gif"]}}"#),
        ]
        // Should a config of the corpus be valid after all, `run` must not reach the user's folders.
        let env = ["XDG_STATE_HOME": dir.path + "/xdg/state", "XDG_DATA_HOME": dir.path + "/xdg/data", "XDG_CONFIG_HOME": dir.path + "/xdg/config"]
        for (name, text) in corpus {
            let file = dir.path + "/" + name
            if let text { FileManagerFree.write(file, text) }
            let v = run("/usr/bin/timeout", ["60", TestPaths.widgethost, "validate", "--config", file], environment: env)
            let r = run("/usr/bin/timeout", ["20", TestPaths.widgethost, "run", "--config", file], environment: env)
            #expect(v.status == 1 && v.stdout.hasSuffix("invalid\n"), "validate \(name): \(v.status)\n\(v.stdout)")
            #expect(r.status == 2, "run \(name): \(r.status)\n\(r.stderr)")
            // validate: "config FILE: N errors" and each error indented; run: each error after the file.
            let errors = v.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
            #expect(!errors.isEmpty && v.stdout.contains("config \(file): \(errors.count) error"), "\(name): \(v.stdout)")
            let marker = "invalid configuration: "
            let refused = r.stderr.split(separator: "\n").compactMap { line in line.range(of: marker).map { String(line[$0.upperBound...]) } }
            #expect(refused == errors.map { "\(file): \($0)" }, "\(name): validate said\n\(v.stdout)\nrun said\n\(r.stderr)")
        }
        #expect(run(TestPaths.widgethost, ["validate", "--config", dir.path + "/empty.json"]).stdout.contains("the file is empty"))
        #expect(run(TestPaths.widgethost, ["validate", "--config", dir.path + "/no-plugins.json"]).stdout
                .contains("  paths.plugins: the folder \(dir.path)/NoSuchFolder does not exist (create it, or correct the path)"))
    }

    /// A home-screen widget whose placeholder or snapshot has no containerBackground is named
    /// (iOS 17 shows "Please adopt containerBackground API" in its place), and stays valid: the
    /// C example's `hello` in systemSmall; Habit's widgets, which have one, are not named.
    @Test func aHomeScreenWidgetWithoutContainerBackgroundIsNamed() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let hello = try buildCPlugin(in: dir.path, name: "hello")
        FileManagerFree.write(dir.path + "/config.json", "{}")
        let r = validate(["--config", dir.path + "/config.json", hello, TestPaths.plugin("HabitWidget")])
        #expect(r.status == 0 && r.stdout.hasSuffix("valid\n"), "\(r.stdout)")
        let warning = "    warning: hello (systemSmall): no containerBackground — iOS 17 shows \"Please adopt containerBackground API\" "
            + "instead of this widget; add .containerBackground(for: .widget) { … }\n"
        #expect(r.stdout.contains(warning), "\(r.stdout)")
        #expect(r.stdout.components(separatedBy: "no containerBackground").count == 2, "hello alone, once: \(r.stdout)")
    }

    @Test func brokenPluginsAreNamedWithTheirReason() throws {
        let dir = TempDir()
        defer { dir.remove() }
        // A short request deadline, so the hanging plugin is killed soon.
        FileManagerFree.write(dir.path + "/config.json", #"{"defaults": {"requestTimeoutSeconds": 1}}"#)
        let fixture = "Tests/IntegrationTests/Fixtures/hostile_widget.c"
        let fine = try compileCPlugin(fixture, in: dir.path, name: "fine", defines: ["EVERY_OP"])
        let abi = try compileCPlugin(fixture, in: dir.path, name: "abi", defines: ["MODE=9"])
        let sdk = try compileCPlugin(fixture, in: dir.path, name: "sdk", defines: [#"SDK_VERSION="9.9.9""#])
        let hang = try compileCPlugin(fixture, in: dir.path, name: "hang", defines: ["EVERY_OP", "MODE=1"])
        let crash = try compileCPlugin(fixture, in: dir.path, name: "crash", defines: ["EVERY_OP", "MODE=2"])
        let huge = try compileCPlugin(fixture, in: dir.path, name: "huge", defines: ["EVERY_OP", "MODE=5"])
        FileManagerFree.write(dir.path + "/text.so", "not a shared object")
        let config = ["--config", dir.path + "/config.json"]

        #expect(validate(config + [fine]).status == 0)
        let r = validate(config + [fine, abi, sdk, hang, crash, huge, dir.path + "/text.so"])
        #expect(r.status == 1)
        func report(_ name: String) -> String {
            // The lines from "plugin …/name.so" up to the next plugin.
            let parts = r.stdout.components(separatedBy: "plugin \(dir.path)/")
            return parts.first { $0.hasPrefix(name + ":") } ?? ""
        }
        #expect(report("fine.so").contains("hostile (Fixture): systemSmall — placeholder and snapshot ok"), "\(r.stdout)")
        #expect(report("abi.so").contains("ABI version 2"), "\(report("abi.so"))")
        #expect(report("sdk.so").contains("9.9.9"), "\(report("sdk.so"))")
        #expect(report("hang.so").contains("systemSmall placeholder: ") && report("hang.so").contains("no answer within 1.0 s"), "\(report("hang.so"))")
        #expect(report("hang.so").contains("systemSmall snapshot: "), "a killed worker is replaced for the next request")
        #expect(report("crash.so").contains("systemSmall snapshot: "), "\(report("crash.so"))")
        #expect(report("huge.so").contains("systemSmall placeholder: "), "\(report("huge.so"))")
        #expect(report("text.so").contains("text.so"), "\(r.stdout)")
        #expect(!report("text.so").contains("ok"))
    }
}
