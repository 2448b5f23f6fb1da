import FoundationEssentials
import OpenWidgetKit
import Synchronization
import Testing
import WidgetGraphics
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost-desktop` on the desktops users run, each a real session with its real wallpaper
/// (`DesktopSessions.swift`: sway 1.7 with the stock config and swaybg, KDE Plasma 5.27, Xfce
/// 4.18), one session per desktop per run shared by its tests. A real host (`RunningDaemon`,
/// private state, socket and out/) draws the Habit and Stats widgets (pictures that do not
/// tick, `png` at scale 1); the surface shows them, read back with the desktop's screenshots and
/// compared, over the widget's opaque pixels, with the host's own `out/<id>.png`. Held to the
/// behaviour a user sees, whatever draws the surface: the widgets at their grid place, below a
/// normal window, still there after a click on the bare wallpaper and a wallpaper restart,
/// absent from task bars, and a real click on Habit's Log button logs the habit.
///
/// A desktop that is not installed skips its tests, except under `CI=true`
/// (scripts/install-deps.sh installs them all). Every wait is for a condition.
@Suite(.serialized) struct DesktopEnvironmentTests {
    static let habit = "InteractiveHabit-systemSmall"
    static let stats = "com.example.StatsWidget-systemSmall"

    @Test(arguments: DesktopKind.allCases)
    func widgetsShowAtTheirGridPlace(_ kind: DesktopKind) throws {
        guard let stage = try kind.stage() else { return }
        stage.expectShows([Self.habit, Self.stats])
        print("\(stage.session.name): session started in \(stage.sessionStart) s, host and surface in \(stage.surfaceStart) s")
    }

    /// A normal window over the Habit widget hides it (the window's colour at its middle) and
    /// leaves Stats beside it; closed, Habit shows again.
    @Test(arguments: DesktopKind.allCases)
    func widgetsStayBelowANormalWindow(_ kind: DesktopKind) throws {
        guard let stage = try kind.stage() else { return }
        stage.expectShows([Self.habit, Self.stats])
        let habit = try #require(stage.frames[Self.habit])
        let rect = ScreenRect(x: habit.x - 6, y: habit.y - 6, width: habit.width + 12, height: habit.height + 12)  // inside the 22 pt gap with the frame around it
        let window = try stage.session.openWindow(over: rect)
        var last = ""
        let covered = eventually(timeout: RealBarTests.patience) {
            guard let image = stage.screenshot() else { return false }
            let middle = image.pixels[habit.center.y * image.width + habit.center.x] & 0xFF_FFFF
            last = "pixel at Habit's middle: \(String(middle, radix: 16))"
            return middle == coverColor && stage.matches(image, Self.stats)
        }
        #expect(covered, "the window over \(rect) does not cover Habit (\(last); kept as \(stage.lastShot))\nsurface:\n\(stage.surface.stderr.suffix(2000))")
        // The task-bar check sees a normal window (so its "absent" for the surface means something).
        let facts = stage.session.facts(ofProcess: window.pid, named: "widgethost-cover")
        #expect(facts.listedInTaskbar, "the covering window is a normal one, which the task bar lists: \(facts.evidence)")
        window.stop()
        stage.expectShows([Self.habit, Self.stats])
    }

    /// A click on bare wallpaper goes to the desktop (Plasma raises its desktop window, Xfce's
    /// takes focus): the widgets stay over it.
    @Test(arguments: DesktopKind.allCases)
    func widgetsSurviveAClickOnTheBareWallpaper(_ kind: DesktopKind) throws {
        guard let stage = try kind.stage() else { return }
        stage.expectShows([Self.habit, Self.stats])
        let bare = stage.barePoint
        let around = ScreenRect(x: bare.x - 50, y: bare.y - 50, width: 100, height: 100)
        let before = try #require(stage.screenshot())
        #expect(stage.session.click(x: bare.x, y: bare.y), "no click at \(bare)")
        // The click has reached the desktop once a second click after it has (input is in order).
        #expect(stage.session.click(x: bare.x, y: bare.y))
        stage.expectShows([Self.habit, Self.stats])
        // ... and the desktop there looks as before (no menu, no selection, nothing raised), but
        // for the pointer itself (sway draws it into screenshots, down-right of its hot spot).
        let after = try #require(stage.screenshot())
        let changed = before.differingPixels(in: around, from: after, except: ScreenRect(x: bare.x - 2, y: bare.y - 2, width: 40, height: 40))
        #expect(changed <= around.width * around.height / 500, "\(changed) pixels around the bare point changed (kept as \(stage.lastShot))")
    }

    /// The wallpaper program restarted as the desktop restarts it: the widgets stay over it.
    @Test(arguments: DesktopKind.allCases)
    func widgetsSurviveAWallpaperRestart(_ kind: DesktopKind) throws {
        guard let stage = try kind.stage() else { return }
        stage.expectShows([Self.habit, Self.stats])
        let how = try stage.session.restartWallpaper()
        print("\(stage.session.name): wallpaper restarted: \(how)")
        stage.expectShows([Self.habit, Self.stats])
    }

    /// The surface has no task-bar entry: no managed X11 window without SKIP_TASKBAR, no
    /// toplevel in sway's window list, a window KWin keeps out of the task bar and Alt-Tab.
    @Test(arguments: DesktopKind.allCases)
    func surfaceIsAbsentFromTaskBars(_ kind: DesktopKind) throws {
        guard let stage = try kind.stage() else { return }
        stage.expectShows([Self.habit, Self.stats])
        let facts = stage.session.facts(ofProcess: stage.surface.pid, named: "widgethost-desktop")
        #expect(!facts.listedInTaskbar, "\(facts.evidence)")
        // Where the desktop can see the surface at all, it does (else "absent" would say nothing).
        #expect(facts.seen != false, "the desktop has no window of the surface's process: \(facts.evidence)")
    }

    /// A real click (the desktop's own input path) on Habit's Log button, found in the host's
    /// `regions.json`, runs its intent: the count goes up in the host's output and on screen.
    @Test(arguments: DesktopKind.allCases)
    func aClickOnHabitsLogButtonLogsTheHabit(_ kind: DesktopKind) throws {
        guard let stage = try kind.stage() else { return }
        stage.expectShows([Self.habit, Self.stats])
        let frame = try #require(stage.frames[Self.habit])
        let regions = try #require(readBytes(stage.host.dir.path + "/out/" + PictureRegions.fileName(for: Self.habit))
            .flatMap { PictureRegions.decode(Data($0)) })
        let button = try #require(regions.regions.first { $0.kind == "button" }, "no button in \(regions)")
        let before = stage.host.text(Self.habit) ?? ""
        let picture = readBytes(stage.picture(Self.habit))
        let x = frame.x + Int(button.x + button.width / 2), y = frame.y + Int(button.y + button.height / 2)
        #expect(stage.session.click(x: x, y: y))
        #expect(eventually(timeout: RealBarTests.patience) { (stage.host.text(Self.habit) ?? before) != before },
                "still \(before)\nsurface:\n\(stage.surface.stderr.suffix(2000))\nhost:\n\(stage.host.stderr.suffix(2000))")
        #expect(eventually(timeout: RealBarTests.patience) { readBytes(stage.picture(Self.habit)) != picture }, "the picture was not redrawn")
        stage.expectShows([Self.habit, Self.stats])
    }
}

/// The desktops of these tests; each one's stage starts at its first test and lives until the
/// test process ends.
enum DesktopKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sway, kde, xfce

    var testDescription: String { rawValue }

    private static let stages = Mutex<[DesktopKind: Result<DesktopStage, any Error>]>([:])

    /// The stage of this desktop, nil (skipped) when the desktop is not installed outside CI.
    func stage() throws -> DesktopStage? {
        guard requirements.allSatisfy({ requireProgram($0.program, package: $0.package) != nil }) else { return nil }
        return try Self.stages.withLock { stages in
            if let s = stages[self] { return try s.get() }
            let start = monotonicNow()
            let result = Result { try DesktopStage(startSession(), startedIn: monotonicNow() - start) }
            if case .success(let stage) = result { AtExit.stop { stage.stop() } }
            stages[self] = result
            return try result.get()
        }
    }

    private var requirements: [(program: String, package: String)] {
        switch self {
        case .sway: [("sway", "sway"), ("swaybg", "swaybg"), ("grim", "grim")]
        case .kde: [("kwin_wayland", "kwin-wayland"), ("plasmashell", "plasma-workspace"), ("Xvfb", "xvfb"), ("xdotool", "xdotool"),
                    ("import", "imagemagick")]
        case .xfce: [("xfwm4", "xfwm4"), ("xfdesktop", "xfdesktop4"), ("Xvfb", "xvfb"), ("xdotool", "xdotool"), ("import", "imagemagick"),
                     ("xprop", "x11-utils")]
        }
    }

    private func startSession() throws -> any DesktopSession & Sendable {
        let s: any DesktopSession & Sendable
        switch self {
        case .sway: s = try SwaySession()
        case .kde: s = try PlasmaSession()
        case .xfce: s = try XfceSession()
        }
        AtExit.stop { s.stop() }
        return s
    }
}

/// A desktop session with a real host drawing Habit and Stats and `widgethost-desktop` showing
/// them at the session's free corner, as the README starts it (`--config`, the user's display).
final class DesktopStage: @unchecked Sendable {
    let session: any DesktopSession
    let host: RunningDaemon
    let surface: BarProcess
    /// Where each widget's picture lands, in screen pixels: the docs' grid (small 158 pt, 22 pt
    /// apart, margin 32) at scale 1 — what a scale-1 output shows: on Wayland the compositor's
    /// scale decides, `desktop.scale` only where the display says none (X11 without `Xft.dpi`).
    let frames: [String: ScreenRect]
    /// Seconds the session took to start (wallpaper up), and the host and surface after it
    /// (both widgets on screen).
    let sessionStart: Double
    private(set) var surfaceStart = 0.0
    private var shots = 0
    private(set) var lastShot = ""

    init(_ session: any DesktopSession, startedIn seconds: Double) throws {
        let t1 = monotonicNow()
        self.session = session
        sessionStart = (seconds * 10).rounded() / 10
        let ids = [DesktopEnvironmentTests.habit, DesktopEnvironmentTests.stats]
        let config = """
            {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"},
             "widgets": [{"kind": "InteractiveHabit", "family": "systemSmall", "outputs": ["files", "png"]},
                         {"kind": "com.example.StatsWidget", "family": "systemSmall", "outputs": ["files", "png"]}],
             "defaults": {"picture": {"scale": 1}},
             "desktop": {"widgets": [\(ids.map { "\"\($0)\"" }.joined(separator: ", "))],
                         "anchor": "\(session.freeCorner)", "margin": 32, "gap": 22, "columns": 2, "scale": 1}}
            """
        host = try RunningDaemon(config: config) { dir in
            for plugin in ["HabitWidget", "StatsWidget"] {
                _ = run("/bin/cp", [TestPaths.plugin(plugin), dir + "/Plugins/\(plugin).so"])
            }
        }
        let out = host.dir.path + "/out"
        try #require(eventually(timeout: RealBarTests.patience) {
            ids.allSatisfy { FileManagerFree.exists(out + "/\($0).png") && FileManagerFree.exists(out + "/" + PictureRegions.fileName(for: $0)) }
        }, "the host drew no pictures:\n\(host.stderr.suffix(3000))")
        var env = currentEnvironment().filter { !$0.hasPrefix("DISPLAY=") && !$0.hasPrefix("WAYLAND_DISPLAY=") && !$0.hasPrefix("GDK_BACKEND=") }
        for (k, v) in session.clientEnvironment { env.removeAll { $0.hasPrefix(k + "=") }; env.append("\(k)=\(v)") }
        surface = try BarProcess(TestPaths.products + "/widgethost-desktop", ["--config", host.dir.path + "/config.json"],
                                 dir: host.dir.path, name: "desktop", stdin: .file("/dev/null"), environment: env, ownGroup: true)
        let (w, h) = (session.width, session.height)
        let origin: (x: Int, y: Int)
        switch session.freeCorner {
        case "top-left": origin = (32, 32)
        case "top-right": origin = (w - 32 - 338, 32)
        case "bottom-right": origin = (w - 32 - 338, h - 32 - 158)
        default: origin = (32, h - 32 - 158)
        }
        frames = [DesktopEnvironmentTests.habit: ScreenRect(x: origin.x, y: origin.y, width: 158, height: 158),
                  DesktopEnvironmentTests.stats: ScreenRect(x: origin.x + 180, y: origin.y, width: 158, height: 158)]
        expectShows(ids)
        surfaceStart = ((monotonicNow() - t1) * 10).rounded() / 10
    }

    /// Stops the surface and the host (the session is stopped after them).
    func stop() {
        surface.signal(SIGTERM)
        _ = surface.waitForExit(timeout: 10)
        host.signal(SIGTERM)
        _ = host.waitForExit(timeout: 10)
        for p in processesMentioning(host.dir.path) { kill(p, SIGKILL) }
        host.dir.remove()
    }

    /// A point of bare wallpaper: mid-height on the side away from the grid.
    var barePoint: (x: Int, y: Int) {
        session.freeCorner.hasSuffix("left") ? (session.width - 200, session.height / 2) : (200, session.height / 2)
    }

    func picture(_ id: String) -> String { host.dir.path + "/out/\(id).png" }

    func screenshot() -> PixelImage? {
        shots += 1
        lastShot = host.dir.path + "/shot-\(shots).png"
        return session.screenshot(into: lastShot)
    }

    /// Whether `id`'s area of `image` shows the host's picture of it: its opaque pixels (the
    /// rounded corners show what is behind) within the picture goldens' threshold, all but 1/500.
    func matches(_ image: PixelImage, _ id: String) -> Bool { mismatch(image, id).map { $0.differing <= $0.of / 500 } ?? false }

    func mismatch(_ image: PixelImage, _ id: String) -> (differing: Int, of: Int)? {
        guard let f = frames[id], let picture = readBytes(picture(id)).flatMap(PixelImage.decodePNG),
              picture.width == f.width, picture.height == f.height, f.x + f.width <= image.width, f.y + f.height <= image.height else { return nil }
        var differing = 0, opaque = 0
        for y in 0..<f.height {
            for x in 0..<f.width {
                let p = picture.pixels[y * f.width + x]
                guard p >> 24 == 0xFF else { continue }
                opaque += 1
                let q = image.pixels[(f.y + y) * image.width + f.x + x]
                for shift: UInt32 in [0, 8, 16] where abs(Int((p >> shift) & 0xFF) - Int((q >> shift) & 0xFF)) > PictureGoldenTests.threshold {
                    differing += 1
                    break
                }
            }
        }
        return (differing, opaque)
    }

    /// Waits until a screenshot shows each of `ids` at its grid place; records an issue naming
    /// the last screenshot (kept) when it never does.
    func expectShows(_ ids: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        var report = ""
        let ok = eventually(timeout: RealBarTests.patience) {
            guard let image = screenshot() else { report = "no screenshot"; return false }
            report = ids.map { id in mismatch(image, id).map { "\(id): \($0.differing) of \($0.of) pixels differ" } ?? "\(id): no picture" }
                .joined(separator: "; ")
            return ids.allSatisfy { matches(image, $0) }
        }
        let keep = getenv("WIDGETHOST_DESKTOP_SHOTS").map { String(cString: $0) }
        if !ok || keep != nil {
            let name = "\(session.name.split(separator: " ").first ?? "desktop")-\(sourceLocation.line)-\(shots).png"
            let dest = (keep ?? "/tmp") + "/" + (ok ? "" : "widgethost-desktop-failed-\(getpid())-") + name
            _ = run("/bin/cp", [lastShot, dest])
            if !ok {
                Issue.record("\(session.name): the screen (kept as \(dest)) does not show the widgets at \(frames): \(report)\nsurface:\n\(surface.stderr.suffix(3000))",
                             sourceLocation: sourceLocation)
            }
        }
    }
}
