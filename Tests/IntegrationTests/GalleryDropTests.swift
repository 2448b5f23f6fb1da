import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 25 item 2, "or where it is dropped", on Xvfb + openbox (`EditorTests.Screen`): the
/// gallery opened from the lean surface's menu, Stats (small) dragged with the real pointer
/// (XTest: press on its tile, ten moves onto Habit on the desktop, release) — GTK's XDND source,
/// the surface's XDND target. After the drop `config.json` has Stats before Habit, the host draws
/// it, and the screen shows it there. A drag offering only text (even a valid widget's JSON) is
/// refused: the source is told no target took it and the file keeps every byte.
@Suite(.serialized) struct GalleryDropTests {
    static let habit = SurfaceAccessibilityTests.habit
    static let textSource = TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/text_drag_source.py"

    /// The session, a host with Habit on the grid and Stats installed, its config file; nil:
    /// skipped (a program missing outside CI).
    static func start(_ socketDir: TempDir) throws -> (screen: EditorTests.Screen, host: RunningDaemon, file: String)? {
        guard let screen = try EditorTests.Screen.start() else { return nil }
        let d = try SurfaceAccessibilityTests.startHost(["HabitWidget", "StatsWidget"], socketDir: socketDir)
        return (screen, d, d.dir.path + "/config.json")
    }

    @Test func statsDraggedFromTheGalleryLandsBeforeHabit() throws {
        let socketDir = TempDir()
        defer { socketDir.remove() }
        guard let (screen, d, file) = try Self.start(socketDir) else { return }
        let stats = "com.example.StatsWidget-systemSmall", out = d.dir.path + "/out/\(stats).txt"
        let habitPicture = d.dir.path + "/out/\(Self.habit).png", statsPicture = d.dir.path + "/out/\(stats).png"
        try #require(screen.drive(["--config", file], [
            "window:Desktop widgets", "showing:Habit", "matches:Habit:\(habitPicture)",
            "do:Habit:Add Widget…", "scope:any", "window:Add Widget", "focused:Search Widgets", "type:Stats",
            "showing:Daily Stats, Small", "shot:drop-0-gallery",
            "drag:Daily Stats, Small:Habit",
            "file:\(file):\"desktop\": { \"widgets\": [\"\(stats)\", \"\(Self.habit)\"] }",
            "file:\(file):{ \"kind\": \"com.example.StatsWidget\", \"family\": \"systemSmall\", \"outputs\": [\"files\", \"png\"] }",
            "file:\(out):Steps",
            "scope:program", "showing:Steps", "before:Steps:Habit", "shot:drop-1-dropped",
            // The gallery stays open for another drag (here over the widgets' lower edge);
            // Escape closes it, and the screen shows both widgets as the host draws them.
            "scope:any", "window:Add Widget", "key:Escape", "anygone:Add Widget", "scope:program",
            "matches:Steps:\(statsPicture)", "matches:Habit:\(habitPicture)", "shot:drop-2-gallery-closed",
        ], program: TestPaths.products + "/widgethost-desktop"))
        #expect(!d.stderr.contains("configuration rejected"), "\(d.stderr)")
    }

    @Test func aDragOfferingOnlyTextIsRefusedAndChangesNothing() throws {
        let socketDir = TempDir()
        defer { socketDir.remove() }
        guard let (screen, d, file) = try Self.start(socketDir) else { return }
        let before = try #require(FileManagerFree.read(file))
        let result = socketDir.path + "/drag-result"
        // A widget's JSON, offered as text only: the type, not the content, decides.
        let json = #"{"family":"systemSmall","kind":"com.example.StatsWidget","outputs":["png"]}"#
        try #require(screen.drive(["--config", file], [
            "window:Desktop widgets", "showing:Habit",
            "spawn:/usr/bin/python3 \(Self.textSource) \(result) \(json)",
            "scope:any", "window:Text to drag", "showing:Drag this text",
            "drag:Drag this text:Habit",
            "file:\(result):drag-",
            "scope:program", "showing:Habit", "hidden:Steps",
        ], program: TestPaths.products + "/widgethost-desktop"))
        // Refused by the surface's XDND answer (a drop on the bare root window would have
        // "succeeded": GTK's root-window protocol).
        #expect(FileManagerFree.read(result) == "drag-failed no-target\n")
        #expect(FileManagerFree.read(file) == before, "the config changed")
        #expect(d.output("com.example.StatsWidget-systemSmall") == nil, "the host runs no Stats")
    }
}
