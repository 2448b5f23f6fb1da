import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The lean surface's own AT-SPI bridge (issue 25 item 4) used by a real AT-SPI client: under
/// Xvfb with openbox, a private session bus and AT-SPI's bus and registry (`EditorTests.Screen`),
/// `Fixtures/edit_driver.py` (libatspi through python3-gi) finds the surface's application by its
/// process, its "Desktop widgets" frame, the Habit widget and its "Log Habit" button by name, and
/// performs actions on them; a real host (its own folders and socket) runs the intent.
@Suite(.serialized) struct SurfaceAccessibilityTests {
    static let habit = "InteractiveHabit-systemSmall"

    /// Habit on the desktop grid; the socket named in the config, so that the surface (in the
    /// driver's session, its own XDG_RUNTIME_DIR) and the host find the same one.
    static func config(socket: String) -> String {
        """
        {
          "paths": { "plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "\(socket)" },
          "widgets": [
            { "kind": "InteractiveHabit", "family": "systemSmall", "outputs": ["files", "png"] }
          ],
          "defaults": { "outputs": ["files"] },
          "desktop": { "widgets": ["InteractiveHabit-systemSmall"] }
        }

        """
    }

    /// A real host with `plugins` installed (each `<name>.so`), serving Habit, its socket in `socketDir`.
    static func startHost(_ plugins: [String], socketDir: TempDir) throws -> RunningDaemon {
        let d = try RunningDaemon(config: config(socket: socketDir.path + "/control.sock")) { dir in
            for p in plugins { _ = run("/bin/cp", [TestPaths.plugin(p), dir + "/Plugins/\(p).so"]) }
        }
        try #require(eventually { d.text(habit) != nil }, "stderr:\n\(d.stderr)")
        return d
    }

    /// A screen reader's path: the widget by name, its button performed (the host logs the
    /// habit), then the widget's menu opened through its "menu" action and its "Edit Widget" row
    /// performed: the editor's "Edit Widget" window appears (closed again with Escape).
    @Test func aClientFindsTheWidgetLogsTheHabitAndOpensEditWidgetThroughActions() throws {
        guard let screen = try EditorTests.Screen.start() else { return }
        let socketDir = TempDir()
        defer { socketDir.remove() }
        let d = try Self.startHost(["HabitWidget"], socketDir: socketDir)
        let file = d.dir.path + "/config.json"
        let before = d.text(Self.habit) ?? ""
        // The widget's accessible name: the first text it shows (the habit's name, "Habit" by default).
        let habitName = "Habit"

        try #require(screen.drive(["--config", file], [
            "window:Desktop widgets", "showing:\(habitName)", "showing:Log Habit", "shot:a11y-0-surface",
            "do:Log Habit:click",
            "do:\(habitName):menu", "showing:Edit Widget", "showing:Add Widget…", "shot:a11y-1-menu",
            "do:Edit Widget:click", "hidden:Edit Widget",
            "anywindow:Edit Widget", "shot:a11y-2-editor", "key:Escape", "anygone:Edit Widget",
        ], program: TestPaths.products + "/widgethost-desktop"))
        #expect(eventually { (d.text(Self.habit) ?? before) != before }, "the habit was not logged: \(d.text(Self.habit) ?? "")\nstderr:\n\(d.stderr)")
        #expect(d.stderr.contains("interaction"), "\(d.stderr)")
    }

    /// No accessibility bus on the session bus (and none started for the surface): one line
    /// says so, and the widgets show as ever.
    @Test func noAccessibilityBusIsOneLineAndTheSurfaceRuns() throws {
        guard requireProgram("dbus-run-session", package: "dbus-daemon") != nil,
              let x = try XServer.start(width: 800, height: 600) else { return }
        let socketDir = TempDir()
        defer { socketDir.remove() }
        let d = try Self.startHost(["HabitWidget"], socketDir: socketDir)
        // A session bus with no org.a11y.Bus service files: nothing can start one.
        let services = TempDir()
        defer { services.remove() }
        let busConfig = services.path + "/session.conf"
        FileManagerFree.write(busConfig, """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig><type>session</type><listen>unix:dir=\(services.path)</listen><servicedir>\(services.path)</servicedir>
        <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
        """)
        let environment = currentEnvironment().filter { e in !["DISPLAY=", "WAYLAND_DISPLAY=", "DBUS_SESSION_BUS_ADDRESS=", "AT_SPI_BUS_ADDRESS="].contains { e.hasPrefix($0) } }
            + ["DISPLAY=\(x.display)"]
        let surface = try BarProcess("/usr/bin/dbus-run-session", ["--config-file=\(busConfig)", "--", TestPaths.products + "/widgethost-desktop", "--config", d.dir.path + "/config.json"],
                                     dir: services.path, name: "desktop", stdin: .file("/dev/null"), environment: environment, ownGroup: true)
        #expect(eventually { surface.stderr.contains("1 widget(s) from") }, "\(surface.stderr)")
        let lines = surface.stderr.split(separator: "\n").filter { $0.contains("accessibility") }
        #expect(lines == ["widgethost-desktop: accessibility: not exposed to screen readers (no accessibility bus: org.a11y.Bus is not running on the session bus)"],
                "\(surface.stderr)")
    }
}
