import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension TestPaths {
    static var edit: String { products + "/widgethost-edit" }
}

/// `widgethost-edit` driven as a person drives it (issue 25, items 2–5): on a private Xvfb with
/// openbox as its window manager, with a private session bus and AT-SPI (at-spi-bus-launcher and at-spi2-registryd, started by that
/// bus), `Fixtures/edit_driver.py` finds the windows and controls by their accessible names,
/// clicks with the real pointer and types on the real keyboard (XTest). After each step the
/// config file and the outputs of a real host (private folders, its own socket) agree.
/// Screenshots go to `$WIDGETHOST_EDIT_SHOTS` when set (to look at them), else a temp folder.
@Suite(.serialized) struct EditorTests {
    static let stats = "com.example.StatsWidget"
    static let driver = TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/edit_driver.py"

    /// A person's desktop config: Habit on the desktop grid, text outputs by default.
    static let config = """
    {
      "paths": { "plugins": "Plugins", "out": "out", "containers": "containers", "state": "state" },
      "widgets": [
        { "kind": "InteractiveHabit", "family": "systemSmall", "outputs": ["files", "png"] }
      ],
      "defaults": { "outputs": ["files"] },
      "desktop": { "widgets": ["InteractiveHabit-systemSmall"] }
    }

    """

    /// The session the driver runs in, or nil (skipped) when a program it needs is missing.
    struct Screen {
        let x: XServer
        let wm: BarProcess
        let runtime: TempDir
        let shots: String

        static func start() throws -> Screen? {
            guard requireProgram("dbus-run-session", package: "dbus-daemon") != nil,
                  requireProgram("import", package: "imagemagick") != nil,
                  FileManagerFree.exists("/usr/libexec/at-spi-bus-launcher") || requireProgram("at-spi-bus-launcher", package: "at-spi2-core") != nil
            else { return nil }
            let atspi = run("/usr/bin/python3", ["-c", "import gi; gi.require_version('Atspi', '2.0'); from gi.repository import Atspi"])
            if atspi.status != 0 {
                let why = "/usr/bin/python3 cannot import Atspi (Debian python3-gi, gir1.2-atspi-2.0; scripts/install-deps.sh installs them)"
                if getenv("CI").map({ String(cString: $0) }) == "true" { Issue.record(Comment(rawValue: why)) } else { print("skipped: \(why)") }
                return nil
            }
            guard let openbox = requireProgram("openbox", package: "openbox"), let xprop = requireProgram("xprop", package: "x11-utils"),
                  let x = try XServer.start(width: 1280, height: 1024) else { return nil }
            // A window manager, as a person has: it gives each new window the keyboard focus.
            let runtime = TempDir()
            let wm = try BarProcess(openbox, ["--sm-disable"], dir: runtime.path, name: "openbox",
                                    environment: currentEnvironment().filter { !$0.hasPrefix("DISPLAY=") } + ["DISPLAY=\(x.display)"], ownGroup: true)
            try #require(eventually { run(xprop, ["-root", "_NET_SUPPORTED"], environment: ["DISPLAY": x.display]).stdout.contains("_NET_ACTIVE_WINDOW") },
                         "openbox did not start: \(FileManagerFree.read(runtime.path + "/openbox.err") ?? "")")
            let shots = getenv("WIDGETHOST_EDIT_SHOTS").map { String(cString: $0) } ?? TempDir().path
            mkdir(shots, 0o755)
            return Screen(x: x, wm: wm, runtime: runtime, shots: shots)
        }

        /// Runs `program args` (`widgethost-edit`, unless told) under the driver's `steps`; the
        /// driver's log when one fails.
        @discardableResult
        func drive(_ args: [String], _ steps: [String], program: String = TestPaths.edit, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
            chmod(runtime.path, 0o700)
            // No WAYLAND_DISPLAY at all (set, even empty, it sends libatspi's and the registry's
            // synthesized input to Wayland): everything here is on the private X display. GIO's
            // local VFS: no gvfsd is activated on the session bus.
            // A BarProcess: its own process group, killed as a whole at the end, and no signal
            // blocked (the runner's mask, inherited, kept the bus's services alive after it).
            let environment = currentEnvironment().filter { e in !["DISPLAY=", "WAYLAND_DISPLAY=", "XDG_RUNTIME_DIR=", "DBUS_SESSION_BUS_ADDRESS="].contains { e.hasPrefix($0) } }
                + ["DISPLAY=\(x.display)", "DBUS_FATAL_WARNINGS=0", "XDG_RUNTIME_DIR=\(runtime.path)", "GTK_THEME=Adwaita", "GDK_BACKEND=x11", "GIO_USE_VFS=local"]
            // at-spi-bus-launcher puts its bus address on the root window (AT_SPI_BUS) and
            // libatspi reads it there first; a launcher killed with the last driver's session
            // before it took the property away leaves the address of a bus that is gone, and the
            // next driver dies on "Couldn't connect to accessibility bus". Each driver's session
            // starts its own bus: the old address is removed first.
            _ = run("/usr/bin/xprop", ["-root", "-remove", "AT_SPI_BUS"], environment: ["DISPLAY": x.display])
            let driver: BarProcess
            do {
                driver = try BarProcess("/usr/bin/dbus-run-session", ["--", "/usr/bin/python3", EditorTests.driver, shots] + steps + ["--", program] + args,
                                        dir: runtime.path, name: "driver", stdin: .file("/dev/null"), environment: environment, ownGroup: true)
            } catch {
                Issue.record("cannot start the driver: \(error)", sourceLocation: sourceLocation)
                return false
            }
            let status = driver.waitForExit(timeout: 180)
            let r = (status: status ?? -1, stdout: driver.stdout, stderr: driver.stderr)
            #expect(r.status == 0, "driver:\n\(r.stdout)\n\(r.stderr)", sourceLocation: sourceLocation)
            return r.status == 0
        }
    }

    /// The whole flow on a running host: the gallery finds Stats by search and adds it as a
    /// small widget (Enter on its tile), its form sets statType = calories; Edit Widget changes
    /// it to steps; Remove Widget removes it.
    @Test func aPersonAddsEditsAndRemovesStatsThroughTheWindows() throws {
        guard let screen = try Screen.start() else { return }
        let d = try RunningDaemon(config: Self.config) { dir in
            _ = run("/bin/cp", [TestPaths.plugin("HabitWidget"), dir + "/Plugins/HabitWidget.so"])
            _ = run("/bin/cp", [TestPaths.plugin("StatsWidget"), dir + "/Plugins/StatsWidget.so"])
        }
        let file = d.dir.path + "/config.json"
        #expect(eventually { d.output("InteractiveHabit-systemSmall") != nil }, "stderr:\n\(d.stderr)")
        let id = "\(Self.stats)-systemSmall"

        // Add: search, Enter to the first tile, Enter on it; then its form.
        try #require(screen.drive(["--gallery", "--config", file], [
            "window:Add Widget", "focused:Search Widgets", "showing:Habit Tracker, Small", "shot:0-gallery", "type:Stats",
            "showing:Daily Stats, Small", "showing:Daily Stats, Medium", "hidden:Habit Tracker, Small", "shot:1-gallery-search",
            "key:Return", "focused:Daily Stats, Small", "key:Return",
            "window:Edit Widget", "gone:Add Widget", "text:Default: Steps", "shot:2-form-after-adding",
            "choose:Stat Type:Calories", "shot:3-form-calories", "click:Apply", "exit:0",
        ]))
        var text = FileManagerFree.read(file) ?? ""
        #expect(text.contains(#"{ "kind": "\#(Self.stats)", "family": "systemSmall", "parameters": { "statType": "calories" }, "outputs": ["files", "png"] }"#)
                || text.contains(#""kind": "\#(Self.stats)", "family": "systemSmall", "outputs": ["files", "png"], "parameters": { "statType": "calories" }"#), "\(text)")
        #expect(text.contains(#""desktop": { "widgets": ["InteractiveHabit-systemSmall", "\#(id)"] }"#), "the first free slot of the grid:\n\(text)")
        #expect(eventually { d.text(id)?.contains("487") == true }, "\(d.output(id) ?? [:])\nstderr:\n\(d.stderr)")
        #expect(eventually { FileManagerFree.exists(d.dir.path + "/out/\(id).png") }, "the desktop's picture")

        // Edit: change to steps, apply with the keyboard (Alt+A).
        try #require(screen.drive(["--edit", id, "--config", file], [
            "window:Edit Widget", "text:\(id)", "text:Default: Steps", "choose:Stat Type:Steps", "shot:4-edit-steps", "key:alt+a", "exit:0",
        ]))
        text = FileManagerFree.read(file) ?? ""
        #expect(text.contains(#""parameters": { "statType": "steps" }"#), "\(text)")
        #expect(eventually { d.text(id)?.contains("10,432") == true || d.text(id)?.contains("10432") == true }, "\(d.output(id) ?? [:])")

        // Remove, after a confirmation.
        try #require(screen.drive(["--edit", id, "--config", file], [
            "window:Edit Widget", "click:Remove Widget…", "window:Remove Widget", "shot:5-confirm-removal", "click:Remove", "exit:0",
        ]))
        text = FileManagerFree.read(file) ?? ""
        #expect(!text.contains(Self.stats) && text.contains(#""desktop": { "widgets": ["InteractiveHabit-systemSmall"] }"#), "\(text)")
        #expect(eventually { d.output(id)?["removed"] == .bool(true) }, "stderr:\n\(d.stderr)")
        #expect(d.output("InteractiveHabit-systemSmall")?["removed"] == nil)
        #expect(!d.stderr.contains("configuration rejected"), "\(d.stderr)")
    }

    /// A read-only config: the form opens (it only reads), Apply shows why nothing was written,
    /// and the file keeps every byte; the window stays until closed with Escape. The gallery
    /// says the same when a widget is chosen (Tab to the next size and Space, or a click), and stays.
    @Test func aReadOnlyConfigShowsTheErrorInTheWindowAndKeepsTheFile() throws {
        guard let screen = try Screen.start() else { return }
        let dir = ConfigEditCommandTests.folder(config: """
        { "paths": { "plugins": "Plugins", "out": "out" },
          "widgets": [ { "kind": "\(Self.stats)", "family": "systemSmall", "parameters": { "statType": "calories" } } ] }

        """)
        defer { dir.remove() }
        let file = dir.path + "/config.json"
        chmod(file, 0o444)
        let before = FileManagerFree.read(file)
        screen.drive(["--edit", "\(Self.stats)-systemSmall", "--config", file], [
            "window:Edit Widget", "choose:Stat Type:Distance", "click:Apply", "text:is read-only (mode 444): not changed",
            "shot:6-read-only", "window:Edit Widget", "key:Escape", "exit:0",
        ])
        #expect(FileManagerFree.read(file) == before)
        screen.drive(["--gallery", "--config", file], [
            "window:Add Widget", "type:Stats", "showing:Daily Stats, Medium", "key:Return", "focused:Daily Stats, Small",
            "key:Tab", "focused:Daily Stats, Medium", "key:space",
            "text:Daily Stats (Medium) was not added: \(file) is read-only (mode 444): not changed",
            "click:Daily Stats, Large", "text:Daily Stats (Large) was not added", "shot:8-gallery-read-only",
            "window:Add Widget", "key:Escape", "exit:0",
        ])
        #expect(FileManagerFree.read(file) == before)
    }

    /// An id the config does not have: a window (and stderr) names the ids there are.
    @Test func anUnknownIdIsNamedInAWindow() throws {
        guard let screen = try Screen.start() else { return }
        let dir = ConfigEditCommandTests.folder()
        defer { dir.remove() }
        screen.drive(["--edit", "nope", "--config", dir.path + "/config.json"], [
            "window:Edit Widgets", "text:no widget \"nope\" in the config (ids: MyAppWidget-accessoryInline, InteractiveHabit-systemSmall)",
            "shot:7-unknown-id", "click:Close", "exit:1",
        ])
    }
}
