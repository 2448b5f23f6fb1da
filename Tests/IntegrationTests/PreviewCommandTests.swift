import FoundationEssentials
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost preview` as the README and docs/plugin-authoring.md use it (issue 22): it reads
/// the containers of its `--config` as the host's workers do, creates the picture folders it is
/// given with their parents, and names an SF Symbol that text output cannot draw.
@Suite struct PreviewCommandTests {
    /// The README's order: `defaults write --config config.json …`, then `preview --config
    /// config.json`: the value written is the one shown, from the config's `paths.containers`
    /// (relative to the file), not from `~/.local/share/widgethost/containers`.
    @Test func previewReadsTheContainersOfItsConfigAsTheHostDoes() throws {
        let dir = TempDir(); defer { dir.remove() }
        let plugin = try compileCPlugin("Tests/IntegrationTests/Fixtures/probe_widget.c", in: dir.path, name: "probe", defines: [])
        let config = dir.path + "/config.json"
        FileManagerFree.write(config, #"{"paths": {"containers": "my-containers"}}"#)
        // XDG folders of their own, so the built-in default is a folder nothing wrote to.
        let env = ["XDG_CONFIG_HOME": dir.path + "/xdg/config", "XDG_DATA_HOME": dir.path + "/xdg/data", "XDG_STATE_HOME": dir.path + "/xdg/state"]
        let write = run(TestPaths.widgethost, ["defaults", "write", "--config", config, "group.probe", "ignored", "1"], environment: env)
        #expect(write.status == 0, "\(write.stderr)")
        FileManagerFree.write(dir.path + "/my-containers/group.probe/value.txt", "from-config\n")
        let r = run(TestPaths.widgethost, ["preview", "--config", config, plugin, "--family", "accessoryInline"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("v1 from-config #0"), "\(r.stdout)")
        #expect(FileManagerFree.exists(dir.path + "/my-containers/group.probe/defaults.json"))

        // Without --config: the default config's containers (none here: the built-in defaults).
        let byDefault = run(TestPaths.widgethost, ["preview", plugin, "--family", "accessoryInline"], environment: env)
        #expect(byDefault.status == 0 && byDefault.stdout.contains("v1 none #0"), "\(byDefault.stdout)\(byDefault.stderr)")

        // The README's own lines, on the Habit bundle: 6/8 after the write, not 0/8.
        let habit = run(TestPaths.widgethost, ["defaults", "write", "--config", config, "group.com.yourapp.shared", "completedCount", "6"],
                        environment: env)
        #expect(habit.status == 0, "\(habit.stderr)")
        let shown = run(TestPaths.widgethost, ["preview", "--config", config, TestPaths.plugin("HabitWidget"), "--kind", "MyAppWidget",
                                               "--family", "accessoryInline"], environment: env)
        #expect(shown.status == 0 && shown.stdout.contains("Habit: 6/8"), "\(shown.stdout)\(shown.stderr)")

        let broken = dir.path + "/broken.json"
        FileManagerFree.write(broken, #"{"paths": 3}"#)
        let bad = run(TestPaths.widgethost, ["preview", "--config", broken, plugin], environment: env)
        #expect(bad.status != 0 && bad.stderr.contains("invalid configuration: \(broken): paths"), "\(bad.stderr)")
    }

    /// `--png out/png --svg out/svg` in a folder with no `out/`: both folders are created.
    @Test func previewCreatesThePictureFoldersWithTheirParents() throws {
        let dir = TempDir(); defer { dir.remove() }
        let plugin = try compileCPlugin("Tests/IntegrationTests/Fixtures/probe_widget.c", in: dir.path, name: "probe", defines: [])
        let png = dir.path + "/out/deeper/png", svg = dir.path + "/out/svg"
        let r = run(TestPaths.widgethost, ["preview", plugin, "--family", "systemSmall", "--png", png, "--svg", svg])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(FileManagerFree.exists(png + "/probe-systemSmall-timeline-00.png"), "\(r.stdout)\(r.stderr)")
        #expect(FileManagerFree.exists(svg + "/probe-systemSmall-timeline-00.svg"), "\(r.stdout)\(r.stderr)")

        // A file where a folder must be: an error naming it, nothing drawn.
        FileManagerFree.write(dir.path + "/file", "")
        let blocked = run(TestPaths.widgethost, ["preview", plugin, "--png", dir.path + "/file"])
        #expect(blocked.status == 1 && blocked.stderr.contains("\(dir.path)/file is not a folder"), "\(blocked.stderr)")
    }

    /// A symbol with no glyph is named once per widget on stderr (it shows as "•", which looks
    /// deliberate); a symbol that has one is not, and stdout is the rendering alone.
    @Test func textPreviewNamesAnSFSymbolItCannotDraw() throws {
        let dir = TempDir(); defer { dir.remove() }
        let unknown = try compileCPlugin("Tests/IntegrationTests/Fixtures/probe_widget.c", in: dir.path, name: "unknown",
                                         defines: [#"PROBE_SYMBOL="number""#])
        let r = run(TestPaths.widgethost, ["preview", unknown])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("• v1 none #0"), "\(r.stdout)")
        let warning = "preview: warning: probe uses SF Symbol \"number\", which has no glyph here (shown as •)"
        #expect(r.stderr.split(separator: warning, omittingEmptySubsequences: false).count == 2, "once, for both families: \(r.stderr)")
        #expect(!r.stdout.contains("warning"))

        let known = try compileCPlugin("Tests/IntegrationTests/Fixtures/probe_widget.c", in: dir.path, name: "known",
                                       defines: [#"PROBE_SYMBOL="plus.circle.fill""#])
        let ok = run(TestPaths.widgethost, ["preview", known, "--family", "accessoryInline"])
        #expect(ok.status == 0 && ok.stdout.contains("⊕ v1 none #0") && !ok.stderr.contains("SF Symbol"), "\(ok.stdout)\(ok.stderr)")
    }

    /// A home-screen widget whose view has no containerBackground is named once on stderr, in
    /// text and picture previews (iOS 17 shows "Please adopt containerBackground API" in its
    /// place, where it looks fine here); an accessory family, or a view with it, says nothing.
    @Test func previewNamesAHomeScreenWidgetWithoutContainerBackground() throws {
        let dir = TempDir(); defer { dir.remove() }
        let line = "preview: warning: probe (systemSmall): no containerBackground — iOS 17 shows \"Please adopt containerBackground API\" "
            + "instead of this widget; add .containerBackground(for: .widget) { … }"
        let bare = try compileCPlugin("Tests/IntegrationTests/Fixtures/probe_widget.c", in: dir.path, name: "bare", defines: [])
        let r = run(TestPaths.widgethost, ["preview", bare])
        #expect(r.status == 0 && r.stdout.contains("v1 none #0"), "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.components(separatedBy: line).count == 2, "once, for systemSmall alone: \(r.stderr)")
        #expect(!r.stdout.contains("containerBackground"), "the rendering is unchanged")
        let inline = run(TestPaths.widgethost, ["preview", bare, "--family", "accessoryInline"])
        #expect(inline.status == 0 && !inline.stderr.contains("containerBackground"), "\(inline.stderr)")
        let pictures = run(TestPaths.widgethost, ["preview", bare, "--family", "systemSmall", "--png", dir.path + "/png"])
        #expect(pictures.status == 0 && pictures.stderr.components(separatedBy: line).count == 2, "\(pictures.stderr)")

        let with = try compileCPlugin("Tests/IntegrationTests/Fixtures/probe_widget.c", in: dir.path, name: "with", defines: ["PROBE_BACKGROUND"])
        let ok = run(TestPaths.widgethost, ["preview", with])
        #expect(ok.status == 0 && ok.stdout.contains("v1 none #0"), "\(ok.stdout)\(ok.stderr)")
        #expect(!ok.stderr.contains("containerBackground"), "\(ok.stderr)")
    }
}
