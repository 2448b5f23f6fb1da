import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 25 item 2, "or where it is dropped", under headless sway (item 5): the lean surface on
/// its layer-shell surface, the gallery opened from its menu (GTK on Wayland), floated by sway
/// beside the widgets, and Stats (small) dragged from its tile onto Habit with a real pointer
/// (sway's virtual pointer, `Fixtures/virtual_pointer_click.c`: press, ten moves, release) —
/// GTK's `wl_data_source`, the surface's `wl_data_device` (`WaylandDropTarget`). Held over Habit
/// before the release, the screen shows the drop slot in Habit's place (the payload was read
/// while moving); after the drop `config.json` has Stats before Habit, the host draws it, and
/// grim's screenshot shows it in Habit's old place. A drag offering only text (even a valid widget's JSON) is refused: the
/// source hears that no one took it and the file keeps every byte. One sway for the suite.
@Suite(.serialized) struct WaylandGalleryDropTests {
    static let habit = SurfaceAccessibilityTests.habit
    static let stats = "com.example.StatsWidget-systemSmall"

    nonisolated(unsafe) private static var sharedSway: SwaySession?

    /// The suite's sway, started on first use and stopped when the test process exits; nil
    /// (skip) when a program is missing outside CI.
    static func sway() throws -> SwaySession? {
        guard requireProgram("sway", package: "sway") != nil, requireProgram("grim", package: "grim") != nil,
              requireProgram("dbus-run-session", package: "dbus-daemon") != nil,
              requireProgram("convert", package: "imagemagick") != nil else { return nil }
        guard run("/usr/bin/python3", ["-c", "import gi; gi.require_version('Atspi', '2.0')"]).status == 0 else {
            let why = "/usr/bin/python3 cannot import Atspi (python3-gi, gir1.2-atspi-2.0)"
            if getenv("CI").map({ String(cString: $0) }) == "true" { Issue.record(Comment(rawValue: why)) } else { print("skipped: \(why)") }
            return nil
        }
        if let s = sharedSway { return s }
        let s = try SwaySession()
        sharedSway = s
        atexit { WaylandGalleryDropTests.sharedSway?.stop() }
        return s
    }

    /// Runs `edit_driver.py` with `steps` on `sway` against the lean surface of `file`; its
    /// screenshots go to `$WIDGETHOST_EDIT_SHOTS` (or `shots`). Returns the driver's exit status
    /// and output.
    static func drive(_ sway: SwaySession, file: String, shots: String, _ steps: [String]) throws -> (Int32?, String) {
        let pointer = try compileFixture("virtual_pointer_click", libraries: ["-lwayland-client"])
        let runtime = TempDir()
        defer { runtime.remove() }
        chmod(runtime.path, 0o700)
        let environment = currentEnvironment().filter { e in !["DISPLAY=", "WAYLAND_DISPLAY=", "XDG_RUNTIME_DIR=", "DBUS_SESSION_BUS_ADDRESS=", "GDK_BACKEND="].contains { e.hasPrefix($0) } }
            + ["WIDGETHOST_DRIVER_WAYLAND=\(sway.socket)", "WIDGETHOST_DRIVER_POINTER=\(pointer) \(sway.width) \(sway.height)",
               "WIDGETHOST_DRIVER_SWAYSOCK=\(sway.ipc)", "GDK_BACKEND=wayland",
               "XDG_RUNTIME_DIR=\(runtime.path)", "DBUS_FATAL_WARNINGS=0", "GTK_THEME=Adwaita", "GIO_USE_VFS=local"]
        let driver = try BarProcess("/usr/bin/dbus-run-session", ["--", "/usr/bin/python3", EditorTests.driver, shots] + steps
                                        + ["--", TestPaths.products + "/widgethost-desktop", "--config", file],
                                    dir: runtime.path, name: "driver", stdin: .file("/dev/null"), environment: environment, ownGroup: true)
        let status = driver.waitForExit(timeout: 180)
        return (status, "driver:\n\(driver.stdout)\n\(driver.stderr)")
    }

    static var shotDir: String? { getenv("WIDGETHOST_EDIT_SHOTS").map { String(cString: $0) } }

    /// A real host with Habit on the grid and Stats installed (`SurfaceAccessibilityTests`'
    /// config), the grid at the top-left corner: the gallery floats clear of it on the right.
    /// With `statsOnGrid`, a small Stats after Habit on the grid too.
    static func startHost(socketDir: TempDir, statsOnGrid: Bool = false) throws -> RunningDaemon {
        var config = SurfaceAccessibilityTests.config(socket: socketDir.path + "/control.sock")
            .replacing("\"desktop\": { \"widgets\"", with: "\"desktop\": { \"anchor\": \"top-left\", \"widgets\"")
        if statsOnGrid {
            let habitEntry = #"{ "kind": "InteractiveHabit", "family": "systemSmall", "outputs": ["files", "png"] }"#
            config = config.replacing(habitEntry, with: habitEntry + #", { "kind": "com.example.StatsWidget", "family": "systemSmall", "outputs": ["files", "png"] }"#)
                .replacing(#"["\#(habit)"]"#, with: #"["\#(habit)", "\#(stats)"]"#)
        }
        try #require(config.contains("top-left") && (!statsOnGrid || config.contains(#""\#(habit)", "\#(stats)""#)), "\(config)")
        let d = try RunningDaemon(config: config) { dir in
            for p in ["HabitWidget", "StatsWidget"] { _ = run("/bin/cp", [TestPaths.plugin(p), dir + "/Plugins/\(p).so"]) }
        }
        try #require(eventually { d.text(habit) != nil }, "stderr:\n\(d.stderr)")
        return d
    }

    @Test func statsDraggedFromTheGalleryLandsBeforeHabitUnderSway() throws {
        guard let sway = try Self.sway() else { return }
        let socketDir = TempDir()
        defer { socketDir.remove() }
        let d = try Self.startHost(socketDir: socketDir)
        let file = d.dir.path + "/config.json", out = d.dir.path + "/out/\(Self.stats).txt"
        let habitPicture = d.dir.path + "/out/\(Self.habit).png", statsPicture = d.dir.path + "/out/\(Self.stats).png"
        let shots = Self.shotDir ?? socketDir.path
        let (status, output) = try Self.drive(sway, file: file, shots: shots, [
            "window:Desktop widgets", "showing:Habit", "matches:Habit:\(habitPicture)", "remember:Habit", "shot:wldrop-0-habit",
            "do:Habit:Add Widget…", "scope:any", "window:Add Widget", "settext:Search Widgets:Stats", "showing:Daily Stats, Small",
            // Floated on the right half, clear of the widgets at the top-left corner.
            "sway:[title=\"Add Widget\"] floating enable, resize set 560 560, move position 680 120",
            "shot:wldrop-1-gallery",
            // Held over Habit: the payload was read while moving, so the drop slot is drawn in
            // Habit's place and Habit, making way, is drawn in the next slot (the gallery being
            // open, the area holds the grid's reach; edit mode's badge on its corner).
            "wlhold:Daily Stats, Small:Habit", "shot:wldrop-2-over", "shotlacks:wldrop-2-over:Habit:\(habitPicture)",
            "matchesbelowbadge:Habit:180:0:\(habitPicture)", "wlrelease",
            "file:\(file):\"desktop\": { \"anchor\": \"top-left\", \"widgets\": [\"\(Self.stats)\", \"\(Self.habit)\"] }",
            "file:\(file):{ \"kind\": \"com.example.StatsWidget\", \"family\": \"systemSmall\", \"outputs\": [\"files\", \"png\"] }",
            "file:\(out):Steps",
            "scope:program", "showing:Steps", "before:Steps:Habit", "at:Steps:Habit", "shot:wldrop-3-dropped",
            // The gallery closed, edit mode ends: both as the host draws them, no badges.
            "sway:[title=\"Add Widget\"] kill", "scope:any", "anygone:Add Widget", "scope:program", "hidden:Remove Widget",
            "matches:Steps:\(statsPicture)", "matches:Habit:\(habitPicture)",
        ])
        #expect(status == 0, "\(output)")
        #expect(!d.stderr.contains("configuration rejected"), "\(d.stderr)")
    }

    /// In edit mode the surface's input region is its whole grid area, and sway gives a drag to
    /// the surface by it: Stats dropped in the gap just left of the Stats already on the grid
    /// (Habit, Stats) lands between the two, from a gallery started on its own.
    @Test func inEditModeADropInTheGapBetweenWidgetsLandsThere() throws {
        guard let sway = try Self.sway() else { return }
        let socketDir = TempDir()
        defer { socketDir.remove() }
        let d = try Self.startHost(socketDir: socketDir, statsOnGrid: true)
        let file = d.dir.path + "/config.json"
        let (status, output) = try Self.drive(sway, file: file, shots: Self.shotDir ?? socketDir.path, [
            "window:Desktop widgets", "showing:Habit", "showing:Steps", "before:Habit:Steps",
            "do:Habit:Edit Home Screen",
            "spawn:\(TestPaths.products)/widgethost-edit --gallery --config \(file)",
            "scope:any", "window:Add Widget", "settext:Search Widgets:Stats", "showing:Daily Stats, Small",
            "sway:[title=\"Add Widget\"] floating enable, resize set 560 560, move position 680 120",
            "wlhold:Daily Stats, Small:<Steps", "shot:wldrop-5-gap-over", "wlrelease",
            "file:\(file):\"desktop\": { \"anchor\": \"top-left\", \"widgets\": [\"\(Self.habit)\", \"\(Self.stats)-2\", \"\(Self.stats)\"] }",
            "scope:program", "shot:wldrop-6-gap-dropped",
        ])
        #expect(status == 0, "\(output)")
        #expect(eventually { d.text(Self.stats + "-2") != nil }, "stderr:\n\(d.stderr)")
    }

    /// While the gallery is open the surface is in edit mode without being asked (its badges, as
    /// "Remove Widget" buttons, on AT-SPI and on screen), however the gallery was started — here
    /// from a terminal, `widgethost-desktop --gallery`: Stats dropped on the empty slot after
    /// Habit, outside the surface's area before, lands there, and another in the gap between the
    /// two lands between them (`config.json`, the host's outputs, the screen). The gallery
    /// closed, edit mode ends: no badges, the widgets as the host draws them.
    @Test func anOpenGalleryIsEditModeAndADropAfterTheLastWidgetLandsThere() throws {
        guard let sway = try Self.sway() else { return }
        let socketDir = TempDir()
        defer { socketDir.remove() }
        let d = try Self.startHost(socketDir: socketDir)
        let file = d.dir.path + "/config.json"
        let habitPicture = d.dir.path + "/out/\(Self.habit).png", statsPicture = d.dir.path + "/out/\(Self.stats).png"
        let out = d.dir.path + "/out/\(Self.stats).txt", out2 = d.dir.path + "/out/\(Self.stats)-2.txt"
        let (status, output) = try Self.drive(sway, file: file, shots: Self.shotDir ?? socketDir.path, [
            "window:Desktop widgets", "showing:Habit", "hidden:Remove Widget", "matches:Habit:\(habitPicture)",
            "spawn:\(TestPaths.products)/widgethost-desktop --gallery --config \(file)",
            "scope:any", "window:Add Widget", "settext:Search Widgets:Stats", "showing:Daily Stats, Small",
            "sway:[title=\"Add Widget\"] floating enable, resize set 560 560, move position 680 120",
            "scope:program", "showing:Remove Widget", "shot:wlgallery-0-edit-mode",
            // 180 px right of Habit's middle: the empty slot after it (Habit 158 wide, 22 apart).
            "scope:any", "wlhold:Daily Stats, Small:Habit@180,0", "shot:wlgallery-1-after-habit", "wlrelease",
            "file:\(file):\"desktop\": { \"anchor\": \"top-left\", \"widgets\": [\"\(Self.habit)\", \"\(Self.stats)\"] }",
            "file:\(out):Steps",
            "scope:program", "showing:Steps", "before:Habit:Steps", "shot:wlgallery-2-dropped",
            // Another in the gap between the two (outside every widget): it lands between them.
            "scope:any", "wldrag:Daily Stats, Small:<Steps",
            "file:\(file):\"desktop\": { \"anchor\": \"top-left\", \"widgets\": [\"\(Self.habit)\", \"\(Self.stats)-2\", \"\(Self.stats)\"] }",
            "file:\(out2):Steps", "shot:wlgallery-2-gap-dropped",
            "sway:[title=\"Add Widget\"] kill", "scope:any", "anygone:Add Widget", "scope:program",
            "hidden:Remove Widget", "matches:Habit:\(habitPicture)", "matches:Steps:\(statsPicture)", "shot:wlgallery-3-closed",
        ])
        #expect(status == 0, "\(output)")
        #expect(output.contains("widgethost-desktop: gallery open: yes (org.widgethost.Gallery has an owner)"), "\(output)")
        #expect(output.contains("widgethost-desktop: gallery open: no (org.widgethost.Gallery has no owner)"), "\(output)")
        #expect(!d.stderr.contains("configuration rejected"), "\(d.stderr)")
    }

    /// A medium held over Habit, the gallery opened from the surface's menu: its slot is the top
    /// row and Habit, pushed into a new row (196 px down: the grid's pitch), is drawn there
    /// during the drag — the layer surface holds the grid's reach (grown when the gallery opened;
    /// without the gallery followed, resized when the drag enters: the same screen). Dropped,
    /// Stats is added before it; the gallery closed, Habit is drawn in its new place unmarked,
    /// and a drag onto the bare desktop beside it reaches the desktop, not the surface.
    @Test func aMediumHeldOverHabitPushesItIntoANewRowDrawnDuringTheDrag() throws {
        guard let sway = try Self.sway() else { return }
        let socketDir = TempDir()
        defer { socketDir.remove() }
        let d = try Self.startHost(socketDir: socketDir)
        let file = d.dir.path + "/config.json", medium = "com.example.StatsWidget-systemMedium"
        let result = socketDir.path + "/drag-result"
        let habitPicture = d.dir.path + "/out/\(Self.habit).png"
        let (status, output) = try Self.drive(sway, file: file, shots: Self.shotDir ?? socketDir.path, [
            "window:Desktop widgets", "showing:Habit", "remember:Habit",
            "do:Habit:Add Widget…", "scope:any", "window:Add Widget", "settext:Search Widgets:Stats", "showing:Daily Stats, Medium",
            "sway:[title=\"Add Widget\"] floating enable, resize set 560 560, move position 680 120",
            "wlhold:Daily Stats, Medium:Habit", "matchesbelowbadge:Habit:0:196:\(habitPicture)", "shot:wlgallery-4-medium-over-habit",
            "shotlacks:wlgallery-4-medium-over-habit:Habit:\(habitPicture)", "wlrelease",
            "file:\(file):\"desktop\": { \"anchor\": \"top-left\", \"widgets\": [\"\(medium)\", \"\(Self.habit)\"] }",
            "scope:program", "showing:Steps", "before:Steps:Habit", "shot:wlgallery-5-medium-dropped",
            // The bare desktop beside Habit (inside the area, no widget): a drag of the private
            // type from a source that sends nothing, dropped there, reaches the surface while the
            // gallery is open (its one line: it read nothing), and not once the gallery is closed.
            "spawn:/usr/bin/python3 \(GalleryDropTests.textSource) \(result) - empty",
            "scope:any", "window:Widget to drag", "showing:Drag this widget",
            "sway:[title=\"Widget to drag\"] floating enable, resize set 240 120, move position 400 650",
            "wldrag:Drag this widget:Habit@180,0", "file:\(result):drag-",
            "sway:[title=\"Add Widget\"] kill", "anygone:Add Widget", "scope:program",
            "hidden:Remove Widget", "matchesat:Habit:0:0:\(habitPicture)",
            "scope:any", "wldrag:Drag this widget:Habit@180,0", "shot:wlgallery-6-bare-drag",
        ])
        #expect(status == 0, "\(output)")
        #expect(output.ranges(of: "the dragged widget's source sent no data").count == 1, "\(output)")
    }

    /// What a drag that must be refused left: the driver's status and output (with the surface's
    /// stderr), what the source heard, whether `config.json` kept every byte, the host.
    struct Refusal {
        var status: Int32?
        var output: String
        var result: String?
        var configKept: Bool
        var host: RunningDaemon
    }

    /// `Fixtures/text_drag_source.py TEXT [MODE]` started in the session and floated beside the
    /// grid, its button dragged onto Habit; nil when skipped.
    static func dragOntoHabit(from sourceArguments: String, window: String, button: String, shot: String) throws -> Refusal? {
        guard let sway = try Self.sway() else { return nil }
        let socketDir = TempDir()
        defer { socketDir.remove() }
        let d = try Self.startHost(socketDir: socketDir)
        let file = d.dir.path + "/config.json"
        let before = try #require(FileManagerFree.read(file))
        let result = socketDir.path + "/drag-result"
        let (status, output) = try Self.drive(sway, file: file, shots: Self.shotDir ?? socketDir.path, [
            "window:Desktop widgets", "showing:Habit",
            "spawn:/usr/bin/python3 \(GalleryDropTests.textSource) \(result) \(sourceArguments)",
            "scope:any", "window:\(window)", "showing:\(button)",
            "sway:[title=\"\(window)\"] floating enable, resize set 240 120, move position 680 400",
            "wldrag:\(button):Habit",
            "file:\(result):drag-",
            "scope:program", "showing:Habit", "hidden:Steps", "shot:\(shot)",
        ])
        return Refusal(status: status, output: output, result: FileManagerFree.read(result), configKept: FileManagerFree.read(file) == before, host: d)
    }

    @Test func aDragOfferingOnlyTextIsRefusedUnderSwayAndChangesNothing() throws {
        // A widget's JSON, offered as text only: the type, not the content, decides.
        let json = #"{"family":"systemSmall","kind":"com.example.StatsWidget","outputs":["png"]}"#
        guard let r = try Self.dragOntoHabit(from: json, window: "Text to drag", button: "Drag this text", shot: "wldrop-4-text-refused") else { return }
        #expect(r.status == 0, "\(r.output)")
        #expect(r.result?.hasPrefix("drag-failed") == true, "\(r.result ?? "no result")")
        #expect(r.configKept, "the config changed")
        #expect(r.host.output(Self.stats) == nil, "the host runs no Stats")
    }

    /// A drag of the private type whose source sends nothing for 8 s, 1 MiB, or nothing at all
    /// (`Fixtures/text_drag_source.py`'s modes): the surface says why in one line, adds nothing
    /// (the file keeps every byte, the source hears the drop failed) and keeps running (its
    /// AT-SPI bridge, on the same loop, still answers and shows Habit).
    @Test(arguments: [
        ("stall", "widgethost-desktop: the dropped widget's data did not come within 3 s: nothing added"),
        ("huge", "widgethost-desktop: the dragged widget's data is more than 16384 bytes: not read further"),
        ("empty", "widgethost-desktop: the dragged widget's source sent no data (it closed the pipe): refused"),
    ])
    func aHostileSourceIsOneLineAndAddsNothing(mode: String, line: String) throws {
        guard let r = try Self.dragOntoHabit(from: "- \(mode)", window: "Widget to drag", button: "Drag this widget", shot: "wldrop-hostile-\(mode)") else { return }
        #expect(r.status == 0, "\(r.output)")
        #expect(r.output.contains(line), "\(r.output)")
        #expect(r.result?.hasPrefix("drag-failed") == true, "\(r.result ?? "no result")")
        #expect(r.configKept, "the config changed")
    }
}
