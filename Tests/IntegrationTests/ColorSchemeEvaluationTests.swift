import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore

/// Issue 27: `@Environment(\.colorScheme)` is the appearance the widget is drawn in, for
/// evaluation and not only for drawing: `preview --dark` (text and pictures), the `preview` op,
/// and a daemon whose `picture.colorScheme` is "dark" (whose text outputs then show the dark
/// branch too: an instance has one timeline). The fixture is AppearanceWidget of the
/// Apple-style bundle: `if colorScheme == .dark { Text("dark") } else { Text("light") }`.
@Suite struct ColorSchemeEvaluationTests {
    var plugin: String { TestPaths.plugin(TestPaths.appleStyleProduct) }

    func preview(_ extra: [String]) throws -> ProcessResult {
        run(TestPaths.widgethost, ["preview", plugin, "--kind", "AppearanceWidget", "--family", "accessoryInline"] + extra,
            environment: try shiftedClockEnvironment(at: fixedTestInstant))
    }

    @Test func previewDarkEvaluatesTheDarkBranch() throws {
        let dark = try preview(["--dark"])
        #expect(dark.status == 0, "\(dark.stderr)")
        #expect(dark.stdout.contains("dark") && !dark.stdout.contains("light"), "\(dark.stdout)")
        let light = try preview([])
        #expect(light.status == 0, "\(light.stderr)")
        #expect(light.stdout.contains("light") && !light.stdout.contains("dark"), "\(light.stdout)")
    }

    /// The pictures of `--dark` are drawn from views evaluated dark: the SVG of the dark branch
    /// ("dark", 4 glyphs) is the one a `.dark` request's tree draws, not the light one's.
    @Test func previewDarkPicturesDrawTheDarkBranch() throws {
        let dir = TempDir(); defer { dir.remove() }
        func glyphs(_ extra: [String], into name: String) throws -> Int {
            let r = try preview(["--family", "systemSmall", "--svg", dir.path + "/" + name] + extra)
            #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
            let svg = try #require(FileManagerFree.read(dir.path + "/" + name + "/AppearanceWidget-systemSmall-timeline-00.svg"))
            return svg.components(separatedBy: "<use").count - 1
        }
        let dark = try glyphs(["--dark"], into: "dark"), light = try glyphs([], into: "light")
        #expect(dark == 4 && light == 5, "glyphs drawn: dark \(dark), light \(light)")
    }

    @Test func thePreviewOpCarriesTheScheme() throws {
        let w = try BlockingWorkerClient(pluginPath: plugin, executable: TestPaths.worker,
                                         environment: try shiftedClockEnvironment(at: fixedTestInstant))
        let manifest = try #require(try w.request(WireRequest(op: .describe)).manifest)
        let alone = try #require(manifest.previews?.first { $0.name == "Appearance alone" })
        func text(_ scheme: ColorScheme?) throws -> String? {
            try w.request(WireRequest(op: .preview, kind: alone.id, family: .systemSmall, colorScheme: scheme)).entries?.first?.view.text
        }
        #expect(try text(.dark) == "dark")
        #expect(try text(nil) == "light")
    }

    /// Two instances of one kind, one with `picture.colorScheme: "dark"`: each is evaluated in its
    /// own scheme, the text output of the dark one showing its dark branch.
    @Test func theDaemonEvaluatesInThePictureColorScheme() throws {
        let config = """
        {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "state/control.sock"},
         "widgets": [{"id": "night", "kind": "AppearanceWidget", "family": "accessoryInline", "outputs": ["files"], "picture": {"colorScheme": "dark"}},
                     {"id": "day", "kind": "AppearanceWidget", "family": "accessoryInline", "outputs": ["files"]}]}
        """
        let d = try RunningDaemon(config: config) { dir in
            _ = run("/bin/cp", [TestPaths.plugin(TestPaths.appleStyleProduct), dir + "/Plugins/AppleStyleWidget.so"])
        }
        #expect(eventually { d.text("night") == "dark" && d.text("day") == "light" },
                "night: \(d.text("night") ?? "nil"), day: \(d.text("day") ?? "nil")\n\(d.stderr)")
    }
}
