import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetGraphics
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The GTK surface (`widgethost-desktop-gtk`, which `widgethost-desktop` runs with `--gtk`): under sway's headless backend as an
/// unprivileged user and, for its reading of `out/`, under Xvfb, read back with screenshots
/// (`import -window root`, grim); the version lines; and the image-reading recipes of
/// docs/desktop.md and docs/status-bars.md in conky and waybar. The lean X11 surface's tests are
/// `LeanDesktopSurfaceTests` (which use this file's `DesktopScene`), its Wayland ones
/// `WaylandDesktopTests`.
/// Unless a real host draws them, the pictures are the committed picture goldens
/// (Fixtures/pictures, scale 2), put into `out/` by the test the way the host writes files (temp
/// name, rename). Each widget's area on screen
/// must match its picture as the surface composes it (over what is behind, dimmed to 45 % when
/// stale or when no host runs) with the picture goldens' tolerance. Positions are the docs'
/// grid worked out by hand: small 158 pt, medium 338 × 158, 22 pt across, 38 down, margin 32,
/// scale 2.
///
/// A program that is not installed skips its test, except under `CI=true` (scripts/install-deps.sh
/// installs them all). Every wait is for a condition.
@Suite(.serialized) struct DesktopSurfaceTests {
    static let patience = RealBarTests.patience
    static let habit = "InteractiveHabit-systemSmall"
    static let clocky = "ClockyWidget-systemMedium"
    static let stats = "com.example.StatsWidget-systemSmall"
    static let screen = (width: 1280, height: 800)

    /// Where each widget's picture lands, in screen pixels, for a grid whose top-left corner is
    /// at `origin`: row 0 the two small ones, row 1 the medium one (it does not fit beside Habit).
    static func frames(origin: (Int, Int)) -> [String: (x: Int, y: Int, w: Int, h: Int)] {
        [habit: (origin.0, origin.1, 316, 316),
         stats: (origin.0 + 360, origin.1, 316, 316),
         clocky: (origin.0, origin.1 + 392, 676, 316)]
    }
    /// The grid is 676 × 708 px: top-right at margin 64 px on a 1280 × 800 screen.
    static let topRightOrigin = (1280 - 64 - 676, 64)
    static let bottomLeftOrigin = (64, 800 - 64 - 708)

    /// The GTK surface (`--gtk`) under sway 1.7's headless backend, as an unprivileged user: a
    /// layer-shell surface on the bottom layer at the bottom-left corner, the pictures over sway's own background; the
    /// compositor gone ends the process with a clear line and status 1.
    @Test func waylandSurfaceUnderSwayShowsTheGridAndStopsWhenSwayGoes() throws {
        guard let sway = requireProgram("sway", package: "sway"),
              let grim = requireProgram("grim", package: "grim") else { return }
        let s = try DesktopScene(display: nil, anchor: "bottom-left", unprivileged: getuid() == 0)
        defer { s.stop() }
        _ = try s.fakeHost()
        try s.putAllPictures()
        FileManagerFree.write(s.dir.path + "/sway.conf", "output HEADLESS-1 resolution \(Self.screen.width)x\(Self.screen.height)\n")
        s.session.handOver()
        let compositor = try s.start(sway, ["-c", s.dir.path + "/sway.conf"], name: "sway",
                                     extraEnvironment: ["WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman"],
                                     asUser: s.session.unprivileged)
        var socket = ""
        try #require(eventually(timeout: Self.patience) {
            socket = FileManagerFree.names(in: s.session.runtime).first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") } ?? ""
            return !socket.isEmpty
        }, "sway did not start:\n\(compositor.stderr.suffix(3000))")
        let wayland = ["WAYLAND_DISPLAY=\(socket)", "GDK_BACKEND=wayland"]
        let desktop = try s.startDesktop(arguments: ["--gtk"], extraEnvironment: wayland)
        let frames = Self.frames(origin: Self.bottomLeftOrigin)
        let shot = { s.shot { path in
            let grab = try? BarProcess(grim, [path], dir: s.dir.path, name: "grim", environment: s.session.environment + wayland)
            return grab?.waitForExit(timeout: Self.patience) == 0 ? () : nil
        } }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("on a layer-shell surface on the bottom layer"), "\(desktop.stderr)")
        s.writeState(Self.habit, stale: true)
        s.expectShows(frames, dimmed: [Self.habit], within: Self.patience, shot: shot, log: desktop)

        // sway goes while the surface is stopped, so that sway's last bytes and its hang-up reach
        // the surface together: GDK then logs "Lost connection to Wayland compositor." (not
        // "Error reading events…"), which a plain SIGTERM gave in some runs only (issue 22).
        desktop.signal(SIGSTOP)
        let ipc = try #require(FileManagerFree.names(in: s.session.runtime).first { $0.hasPrefix("sway-ipc.") }, "no sway IPC socket")
        let change = s.run("/usr/bin/swaymsg", ["-s", s.session.runtime + "/" + ipc, "output", "HEADLESS-1", "scale", "2"])
        #expect(change.status == 0, "\(change.stdout)\(change.stderr)")
        compositor.signal(SIGTERM)
        #expect(compositor.waitForExit(timeout: Self.patience) != nil, "sway did not stop")
        desktop.signal(SIGCONT)
        #expect(desktop.waitForExit(timeout: Self.patience) == 1, "\(desktop.stderr)")
        #expect(desktop.stderr.contains("widgethost-desktop: the display went away (Lost connection to Wayland compositor.); stopping"),
                "\(desktop.stderr)")
        #expect(!desktop.stderr.contains("Gdk-Message"), "\(desktop.stderr)")
    }

    /// A widget whose outputs are "png" alone has no `out/<id>.json`: the surface takes its family
    /// from its picture (the regions file gives pixels and scale) and shows it. A desktop widget
    /// whose outputs have no "png", and one with no picture yet, are named with the reason
    /// (issue 22: "0 widget(s)" and nothing else).
    @Test func x11SurfaceShowsAWidgetWhosePictureIsItsOnlyOutput() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let screen = try XServer.start(width: Self.screen.width, height: Self.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let s = try DesktopScene(display: screen.display, anchor: "top-right")
        defer { s.stop() }
        s.writeConfig("""
            {"widgets": [{"kind": "InteractiveHabit", "family": "systemSmall", "outputs": ["png"]},
                         {"kind": "ClockyWidget", "family": "systemMedium", "outputs": ["files"]}],
             "desktop": {"widgets": ["\(Self.habit)", "\(Self.clocky)"], "scale": 2}}
            """)
        _ = try s.fakeHost()
        s.putFile(Self.habit + ".png", try #require(readBytes(DesktopScene.picture(Self.habit))))
        s.putFile(PictureRegions.fileName(for: Self.habit), Array(#"{"width": 316, "height": 316, "scale": 2, "regions": []}"#.utf8))
        let desktop = try s.startDesktop(arguments: ["--gtk"])
        let grid = DesktopGrid(widgets: [(Self.habit, .systemSmall)])
        let frame = (x: Self.screen.width - 64 - Int(grid.width * 2), y: 64, w: 316, h: 316)
        s.expectShows([Self.habit: frame], dimmed: [], within: Self.patience, shot: { s.rootShot(capture) }, log: desktop)
        #expect(desktop.stderr.contains("1 widget(s) from \(s.out)"), "\(desktop.stderr)")
        #expect(desktop.stderr.contains("\(Self.clocky) has no \"png\" among its outputs (files)"), "\(desktop.stderr)")
        #expect(desktop.stderr.contains("\(Self.clocky) is not shown: no picture \(Self.clocky).png yet"), "\(desktop.stderr)")
    }

    /// `--version`, as every command of the project has it, with no display needed: the SDK and
    /// the lean surface's drawing libraries; the GTK surface's executable its GTK and
    /// gtk-layer-shell.
    @Test func versionNamesTheSDKTheLeanSurfaceAndGTK() {
        let r = run("/usr/bin/env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", TestPaths.products + "/widgethost-desktop", "--version"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("widgethost-desktop \(openWidgetKitVersion)\nlean surface (Wayland layer-shell or X11): wayland-client, Xlib, Cairo 1."), "\(r.stdout)")
        #expect(r.stdout.contains(", Pango 1.") && r.stdout.contains("GTK surface: widgethost-desktop-gtk"), "\(r.stdout)")
        let gtk = run("/usr/bin/env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", TestPaths.products + "/widgethost-desktop-gtk", "--version"])
        #expect(gtk.status == 0, "\(gtk.stderr)")
        #expect(gtk.stdout.hasPrefix("widgethost-desktop-gtk \(openWidgetKitVersion)\nGTK 3."), "\(gtk.stdout)")
        #expect(gtk.stdout.contains(", gtk-layer-shell "), "\(gtk.stdout)")
    }

    /// `--gallery` opens the editor's gallery of the same configuration, wherever `--config` is
    /// among the arguments.
    @Test func galleryOpensTheEditorOnTheSameConfig() throws {
        let dir = TempDir(); defer { dir.remove() }
        let editor = dir.path + "/editor.sh", args = dir.path + "/args"
        FileManagerFree.write(editor, "#!/bin/sh\nprintf '%s ' \"$@\" > \(args)\n")
        chmod(editor, 0o755)
        let r = run("/usr/bin/env", ["WIDGETHOST_EDIT_EXECUTABLE=\(editor)", TestPaths.products + "/widgethost-desktop",
                                     "--gallery", "--config", dir.path + "/config.json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManagerFree.read(args) == "--gallery --config \(dir.path)/config.json ", "\(r.stderr)")
    }

    /// Issue 22: a conky that cannot run the `${image}` recipe is named — path, version, package,
    /// features — with the reason (conky-cli, which can replace conky-std mid-run, has neither
    /// X11 nor Imlib2).
    @Test func aConkyThatCannotDrawImagesIsNamedWithTheReason() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let fake = dir.path + "/conky"
        FileManagerFree.write(fake, "#!/bin/sh\nprintf 'conky 1.18.3 compiled 2023-03-07 for Linux x86_64\\n\\nCompiled in features:\\n\\n General:\\n  * math\\n'\n")
        chmod(fake, 0o755)
        let cli = ConkyBuild(fake)
        #expect(cli.description == "\(fake) (conky 1.18.3 compiled 2023-03-07 for Linux x86_64; package not from a Debian package; without X11, without Imlib2)")
        #expect(cli.imageProblem?.contains("needs X11 and Imlib2 (Debian package conky-std") == true)
        if let installed = which("conky") { print("conky here: \(ConkyBuild(installed))") }
    }

    /// docs/desktop.md, conky `${image}`: the recipe as written in conky-std under Xvfb, with the
    /// real host drawing the Habit widget (scale 2): conky's window shows the picture at the
    /// top-right corner, and the new picture after the habit is logged (`-n`: no cache).
    @Test func conkyImageRecipeAsWrittenShowsThePictureAndItsChanges() throws {
        guard let found = requireConkyWithImages(),
              let capture = requireProgram("import", package: "imagemagick"),
              let screen = try XServer.start(width: 800, height: 500) else { return }
        defer { withExtendedLifetime(screen) {} }
        let conky = found.path
        // Should the conky change under the test (another package installed meanwhile), say so.
        defer {
            let now = ConkyBuild(conky)
            let why: String = now.imageProblem.map { ": \($0)" } ?? ""
            if now != found { Issue.record("conky changed during the test: it was \(found), it is \(now)\(why)") }
        }
        let s = try DesktopScene(display: screen.display, anchor: "top-right", plugins: ["HabitWidget"])
        defer { s.stop() }
        s.writeConfig("""
            {"widgets": [{"kind": "InteractiveHabit", "family": "systemSmall", "outputs": ["files", "png"]}],
             "defaults": {"picture": {"scale": 2}}}
            """)
        s.picturePath = { [out = s.out] in out + "/\($0).png" }
        let host = try s.session.startHost()
        let picture = s.out + "/\(Self.habit).png"
        #expect(eventually(timeout: Self.patience) { FileManagerFree.exists(picture) }, "host:\n\(host.stderr.suffix(3000))")
        let before = try #require(readBytes(picture))
        let recipe = try pageRecipes("docs/desktop.md", heading: "### conky `${image}`", fence: "lua").first ?? ""
        FileManagerFree.write(s.dir.path + "/conky.conf", recipe)
        let bar = try s.start(conky, ["-c", s.dir.path + "/conky.conf"], name: "conky")
        // The recipe's corner: 32 px in (conky 1.18 puts its window one pixel further from the
        // right edge than gap_x).
        let frame = (x: 800 - 33 - 316, y: 32, w: 316, h: 316)
        let shot = { s.rootShot(capture) }
        s.expectShows([Self.habit: frame], dimmed: [], within: Self.patience, shot: shot, log: bar)
        #expect(s.session.cli(["click", Self.habit, "--target", "Log"]).status == 0)
        #expect(eventually(timeout: Self.patience) { readBytes(picture).map { $0 != before } == true }, "host:\n\(host.stderr.suffix(3000))")
        s.expectShows([Self.habit: frame], dimmed: [], within: Self.patience, shot: shot, log: bar)
    }

    /// docs/status-bars.md, waybar `image`: Debian 12's waybar 0.9.17 has no `image` module
    /// (it logs "Unknown module"), so the module itself is not run here. Its refresh is: the
    /// host's widgets as the page configures them (`picture.signal` 8), and a waybar 0.9.17
    /// module with the page's `"signal": 8` and no interval, in headless sway (host, sway and
    /// waybar as one unprivileged user). The module's command records the picture's checksum
    /// each time waybar runs it: after a click the host redraws the picture and signals waybar,
    /// and waybar runs it again on the new picture.
    @Test func waybarImageRecipesSignalMakesARealWaybarReloadTheNewPicture() throws {
        guard let sway = requireProgram("sway", package: "sway"),
              let waybar = requireProgram("waybar", package: "waybar") else { return }
        let s = try DesktopScene(display: nil, anchor: "top-left", unprivileged: getuid() == 0, plugins: ["HabitWidget"])
        defer { s.stop() }
        let blocks = try pageRecipes("docs/status-bars.md", heading: "### waybar `image` module", fence: "json")
        try #require(blocks.count == 2, "the section has the host's widgets and waybar's module: \(blocks)")
        s.writeConfig("{" + blocks[0] + "}")
        let module = try #require(WireCodec.decode([String: JSONValue].self, from: Data(("{" + blocks[1] + "}").utf8))["image#habit"]?.objectValue)
        let signal = try #require(module["signal"]?.intValue, "the module has a signal")
        let picture = s.out + "/\(Self.habit).png", runs = s.dir.path + "/runs.log"
        FileManagerFree.write(s.dir.path + "/waybar.json", """
            [{"position": "top", "height": 20, "modules-left": ["custom/picture"],
              "custom/picture": {"exec": "md5sum \(picture) >> \(runs); echo picture", "interval": "once", "signal": \(signal)}}]

            """)
        FileManagerFree.write(s.dir.path + "/sway.conf", """
            output HEADLESS-1 resolution 640x120
            exec \(waybar) -c \(s.dir.path)/waybar.json

            """)
        try #require(run("/bin/cp", [TestPaths.products + "/widgethost-render", s.session.bin + "/widgethost-render"]).status == 0)
        s.session.handOver()
        let host = try s.start(s.session.bin + "/widgethost", ["run"], name: "host", asUser: s.session.unprivileged)
        #expect(eventually(timeout: Self.patience) { FileManagerFree.exists(picture) }, "host:\n\(host.stderr.suffix(3000))")
        let compositor = try s.start(sway, ["-c", s.dir.path + "/sway.conf"], name: "sway",
                                     extraEnvironment: ["WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman"],
                                     asUser: s.session.unprivileged)
        func md5(_ path: String) -> String { run("/usr/bin/md5sum", [path]).stdout.split(separator: " ").first.map(String.init) ?? "?" }
        func lastRun() -> String? { FileManagerFree.read(runs)?.split(separator: "\n").last?.split(separator: " ").first.map(String.init) }
        let before = md5(picture)
        #expect(eventually(timeout: Self.patience) { lastRun() == before }, "waybar did not run the module:\n\(compositor.stderr.suffix(3000))")
        #expect(!compositor.stderr.contains("Unknown module"), "\(compositor.stderr.suffix(3000))")
        // A click logs the habit: a new picture, and the signal. The host remembers which
        // processes are waybar for 2 s, so a waybar started just after its last look may miss
        // one change: click again until waybar has run on a new picture.
        #expect(eventually(timeout: Self.patience) {
            let shown = md5(picture)
            guard s.session.cli(["click", Self.habit, "--target", "Log"]).status == 0 else { return false }
            return eventually(timeout: 5) { md5(picture) != shown && lastRun() == md5(picture) }
        },
                "waybar did not reload on the host's signal; its runs:\n\(FileManagerFree.read(runs) ?? "(none)")\nhost:\n\(host.stderr.suffix(3000))\nsway:\n\(compositor.stderr.suffix(2000))")
    }

    /// Issue 23, item 4: files in `out/` that crashed or froze the surface. A regions file whose
    /// scale is 1e300 and a click on it (a trap converting the click's pixel to `Int`), scales
    /// 1e±300 (an invalid Cairo matrix: the widget blank), a FIFO named `<id>.png` (the GTK
    /// thread blocked in `open` for good), a 30 000 × 30 000 PNG of a few hundred KB (3.7 GB
    /// decoded): each is refused with a line saying why, the last good picture stays, the
    /// surface keeps answering (a widget marked stale afterwards shows so) and stays small.
    @Test func x11SurfaceSurvivesHostileFilesInOut() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let xdotool = requireProgram("xdotool", package: "xdotool"),
              let screen = try XServer.start(width: Self.screen.width, height: Self.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let s = try DesktopScene(display: screen.display, anchor: "top-right")
        defer { s.stop() }
        let control = try FakeControlSocket(path: s.dir.path + "/ctl.sock")
        defer { control.stop() }
        s.writeConfig("""
            {"paths": {"socket": "\(control.path)"},
             "widgets": [\(DesktopScene.widgets.map { id in "{\"kind\": \"\(id.dropLast(id.split(separator: "-").last!.count + 1))\", \"family\": \"\(id.split(separator: "-").last!)\"}" }.joined(separator: ", "))],
             "desktop": {"widgets": [\(DesktopScene.widgets.map { "\"\($0)\"" }.joined(separator: ", "))],
                         "anchor": "top-right", "margin": 32, "gap": 22, "columns": 2, "scale": 2}}
            """)
        _ = try s.fakeHost()
        try s.putAllPictures()
        let desktop = try s.startDesktop(arguments: ["--gtk"])
        let frames = Self.frames(origin: Self.topRightOrigin)
        let shot = { s.rootShot(capture) }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        let habit = try #require(frames[Self.habit])

        // Scales no picture has, then a click where the widget is.
        for scale in ["1e300", "1e-300"] {
            s.putFile(PictureRegions.fileName(for: Self.habit), Array("""
                {"width":316,"height":316,"scale":\(scale),"regions":[{"kind":"widgetURL","x":0,"y":0,"width":316,"height":316,"url":"a://b"}]}
                """.utf8))
            let clicks = control.requests.count
            #expect(s.run(xdotool, ["mousemove", "\(habit.x + 100)", "\(habit.y + 100)", "click", "1"]).status == 0)
            #expect(eventually(timeout: Self.patience) { control.requests.count > clicks && desktop.stderr.contains("click on \(Self.habit) at 100,100: done") },
                    "desktop:\n\(desktop.stderr)")
        }
        // A FIFO with no writer in the picture's place, and a picture far larger than the widget.
        let fifo = s.out + "/.fifo.tmp"
        try #require(mkfifo(fifo, 0o644) == 0)
        rename(fifo, s.out + "/\(Self.habit).png")
        s.putFile(Self.stats + ".png", hugeBlankPNG(width: 30_000, height: 30_000))
        // Then a change the surface shows only if it still reads and draws.
        s.writeState(Self.clocky, stale: true)
        s.expectShows(frames, dimmed: [Self.clocky], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.waitForExit(timeout: 0) == nil, "the surface ended: \(desktop.stderr)")
        let log = desktop.stderr
        #expect(log.contains("\(Self.habit).regions.json refused (not a valid regions file"), "\(log)")
        #expect(log.contains("\(Self.habit).png refused (not a regular file)"), "\(log)")
        #expect(log.contains("\(Self.stats).png refused (30000 × 30000 pixels, not the widget's size"), "\(log)")
        #expect(!log.contains("invalid matrix"), "\(log)")
        let rss = FileManagerFree.read("/proc/\(desktop.pid)/status")?.split(separator: "\n")
            .first { $0.hasPrefix("VmHWM:") }.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? Int.max
        #expect(rss < 200_000, "the surface's peak RSS was \(rss) kB")
    }

    /// Bad configuration exits 2 before any display is needed, naming the file and JSON path.
    @Test func anUnknownWidgetInTheDesktopSectionIsAnErrorNamingThePath() throws {
        let dir = TempDir(); defer { dir.remove() }
        let config = dir.path + "/config.json"
        FileManagerFree.write(config, #"{"widgets": [{"kind": "InteractiveHabit", "family": "systemSmall"}], "#
                              + #""desktop": {"widgets": ["InteractiveHabit-systemSmall", "Nope-systemSmall"]}}"#)
        let r = run(TestPaths.products + "/widgethost-desktop", ["--config", config], environment: ["DISPLAY": ":9999"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("widgethost-desktop: \(config): desktop.widgets[1]: no widget \"Nope-systemSmall\""), "\(r.stderr)")
        let noDisplay = run("/usr/bin/env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", TestPaths.products + "/widgethost-desktop", "--out", dir.path + "/out"])
        #expect(noDisplay.status == 1 && noDisplay.stderr.contains("cannot open a display"), "\(noDisplay.stderr)")
    }
}

// MARK: - Support

/// A user's session (`BarSession`) with `out/` holding pictures the test puts there, a config
/// whose `desktop` section places the three widgets at `anchor` with scale 2, and this build's
/// `widgethost-desktop` in the session's `bin/`.
final class DesktopScene {
    let session: BarSession
    var dir: TempDir { session.dir }
    var out: String { session.out }
    private var shots = 0
    /// Where the picture a widget should show is read from (each time it is compared): the
    /// committed goldens, or `out/` when a real host draws them.
    var picturePath: (String) -> String = DesktopScene.picture
    /// Where a dimmed widget's mark is, in its picture's pixels: the GTK surface's top-left
    /// corner (100 × 30 pt), unless the surface under test places it elsewhere.
    var markAreas: (String) -> [(x: Int, y: Int, w: Int, h: Int)] = { _ in [(0, 0, 200, 60)] }

    static let widgets = [DesktopSurfaceTests.habit, DesktopSurfaceTests.stats, DesktopSurfaceTests.clocky]

    /// The committed picture golden shown for `id` (scale 2).
    static func picture(_ id: String) -> String {
        let dir = PictureGoldenTests.goldenDir
        switch id {
        case DesktopSurfaceTests.habit: return dir + "/HabitWidget/InteractiveHabit-systemSmall-snapshot.png"
        case DesktopSurfaceTests.clocky: return dir + "/ClockyWidget/ClockyWidget-systemMedium-snapshot.png"
        default: return dir + "/StatsWidget/com.example.StatsWidget-systemSmall-snapshot.png"
        }
    }

    init(display: String?, anchor: String, unprivileged: Bool = false, hostWidgets: [String]? = nil, plugins: [String] = []) throws {
        session = try BarSession(display: display, widgets: [], plugins: plugins, unprivileged: unprivileged)
        let listed = (hostWidgets ?? Self.widgets).map { id -> String in
            let family = id.split(separator: "-").last!
            return "{\"kind\": \"\(id.dropLast(family.count + 1))\", \"family\": \"\(family)\"}"
        }
        FileManagerFree.write(session.home + "/.config/widgethost/config.json", """
            {"widgets": [\(listed.joined(separator: ", "))],
             "desktop": {"widgets": [\(Self.widgets.map { "\"\($0)\"" }.joined(separator: ", "))],
                         "anchor": "\(anchor)", "margin": 32, "gap": 22, "columns": 2, "scale": 2}}
            """)
        _ = run("/bin/mkdir", ["-p", out])
        // The surface and, beside it, the GTK surface it runs with --gtk (and on Wayland, for now).
        for name in ["widgethost-desktop", "widgethost-desktop-gtk"] {
            if unprivileged {
                try #require(run("/bin/cp", [TestPaths.products + "/" + name, session.bin + "/" + name]).status == 0)
            } else {
                symlink(TestPaths.products + "/" + name, session.bin + "/" + name)
            }
        }
    }

    func stop() { session.stop() }

    /// Replaces the session's `config.json`.
    func writeConfig(_ json: String) { FileManagerFree.write(session.home + "/.config/widgethost/config.json", json) }

    func start(_ program: String, _ args: [String], name: String, extraEnvironment: [String] = [], asUser: Bool = false) throws -> BarProcess {
        try session.start(program, args, name: name, extraEnvironment: extraEnvironment, asUser: asUser)
    }

    func run(_ program: String, _ args: [String]) -> ProcessResult { session.run(program, args) }

    /// `widgethost-desktop` as the README starts it: no arguments (or `arguments`), the session's default config.
    func startDesktop(arguments: [String] = [], extraEnvironment: [String] = []) throws -> BarProcess {
        try start(session.bin + "/widgethost-desktop", arguments, name: "desktop", extraEnvironment: extraEnvironment, asUser: session.unprivileged)
    }

    /// A process standing in for the host: its pid and start time in `out/.widgethost.pid`.
    func fakeHost() throws -> BarProcess {
        let p = try start("/bin/sleep", ["3600"], name: "fake-host")
        let stat = try #require(FileManagerFree.read("/proc/\(p.pid)/stat"))
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        putFile(".widgethost.pid", Array("\(p.pid) \(fields[19])\n".utf8))   // field 22 of stat
        return p
    }

    /// Writes `out/<name>` the way the host does: a temp name, then a rename.
    func putFile(_ name: String, _ bytes: [UInt8]) {
        let temp = out + "/.\(name).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        rename(temp, out + "/" + name)
    }

    /// `out/<id>.json` with the widget's family and staleness (what the surface reads of it).
    func writeState(_ id: String, stale: Bool) {
        let family = id.split(separator: "-").last!
        putFile(id + ".json", Array("""
            {"id":"\(id)","text":"","class":[],"kind":"\(id.dropLast(family.count + 1))","family":"\(family)","stale":\(stale)}
            """.utf8))
    }

    func putAllPictures() throws {
        for id in Self.widgets {
            writeState(id, stale: false)
            putFile(id + ".png", try #require(readBytes(Self.picture(id))))
        }
    }

    private var capturePath: String { dir.path + "/shot-\(shots).png" }

    /// A screenshot of the X screen (`import -window root`).
    func rootShot(_ importProgram: String) -> PixelImage? {
        shot { run(importProgram, ["-window", "root", $0]).status == 0 ? () : nil }
    }

    /// The X id of the surface's visible window (decimal), "" when there is none.
    func desktopWindow(_ xdotool: String) -> String {
        run(xdotool, ["search", "--onlyvisible", "--name", "^widgethost-desktop$"]).stdout
            .split(separator: "\n").first.map(String.init) ?? ""
    }

    /// A screenshot taken by `grab(path)` into a fresh PNG, decoded; nil when it failed.
    func shot(_ grab: (String) -> Void?) -> PixelImage? {
        shots += 1
        let path = capturePath
        guard grab(path) != nil else { return nil }
        return readBytes(path).flatMap(PixelImage.decodePNG)
    }

    /// How many pixels of `frame` in `image` differ (picture goldens' threshold) from `id`'s
    /// picture as the surface composes it: over the colour just left of the frame (what is
    /// behind the surface there), at 45 % when `dimmed`, the mark (`markAreas`) left out then. Left of the frame, or right of it when the frame starts at the screen's edge.
    func differing(_ image: PixelImage, frame f: (x: Int, y: Int, w: Int, h: Int), id: String, dimmed: Bool) -> Int {
        guard let picture = readBytes(picturePath(id)).flatMap(PixelImage.decodePNG),
              picture.width == f.w, picture.height == f.h,
              f.x >= 0, f.y >= 0, f.x + f.w + 4 < image.width, f.y + f.h <= image.height else { return Int.max }
        let behind = f.x >= 4 ? f.x - 4 : f.x + f.w + 4
        let background = image.pixels[(f.y + f.h / 2) * image.width + behind]
        let k = dimmed ? 0.45 : 1
        var expected = picture, got = picture
        let marks = markAreas(id)
        for y in 0..<f.h {
            for x in 0..<f.w {
                let i = y * f.w + x
                let p = picture.pixels[i], a = Double(p >> 24) / 255
                var c: UInt32 = 0xFF00_0000
                for shift: UInt32 in [0, 8, 16] {
                    let value = Double((p >> shift) & 0xFF) * k + Double((background >> shift) & 0xFF) * (1 - a * k)
                    c |= UInt32(min(255, max(0, value.rounded()))) << shift
                }
                expected.pixels[i] = c
                let inMark = marks.contains { x >= $0.x && x < $0.x + $0.w && y >= $0.y && y < $0.y + $0.h }
                got.pixels[i] = dimmed && inMark ? c : image.pixels[(f.y + y) * image.width + f.x + x] | 0xFF00_0000
            }
        }
        return got.differingPixels(from: expected, threshold: PictureGoldenTests.threshold)
    }

    /// Whether the dimmed widget `id` at `frame` carries its mark: white text in `markAreas`
    /// (the dimmed picture itself has nothing near white).
    func hasMark(_ image: PixelImage, frame f: (x: Int, y: Int, w: Int, h: Int), id: String) -> Bool {
        var white = 0
        for mark in markAreas(id) {
            for y in max(0, f.y + mark.y)..<min(image.height, f.y + mark.y + mark.h) {
                for x in max(0, f.x + mark.x)..<min(image.width, f.x + mark.x + mark.w) {
                    let p = image.pixels[y * image.width + x]
                    let channels = [(p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF]
                    if channels.allSatisfy({ $0 > 230 }) { white += 1 }
                }
            }
        }
        return white > 50
    }

    /// Waits until a screenshot shows every widget of `frames` as its picture, dimmed and marked
    /// for the ids in `dimmed`; records an issue (with the last screenshot's path) when it never does.
    func expectShows(_ frames: [String: (x: Int, y: Int, w: Int, h: Int)], dimmed: Set<String>, within timeout: Double,
                     shot: () -> PixelImage?, log: BarProcess, sourceLocation: SourceLocation = #_sourceLocation) {
        var report = ""
        let ok = eventually(timeout: timeout) {
            guard let image = shot() else { report = "no screenshot"; return false }
            report = ""
            for (id, f) in frames.sorted(by: { $0.key < $1.key }) {
                let n = differing(image, frame: f, id: id, dimmed: dimmed.contains(id))
                let allowed = f.w * f.h / 500
                if n > allowed { report += "\(id): \(n) pixels differ (allowed \(allowed)); " }
                if dimmed.contains(id) && !hasMark(image, frame: f, id: id) { report += "\(id): no mark; " }
            }
            return report.isEmpty
        }
        // WIDGETHOST_DESKTOP_SHOTS=DIR keeps each screenshot that passed, to look at.
        if ok, let keepDir = getenv("WIDGETHOST_DESKTOP_SHOTS").map({ String(cString: $0) }) {
            let name = "\(sourceLocation.fileID.split(separator: "/").last ?? "")-\(sourceLocation.line)-dimmed-\(dimmed.count).png"
            _ = run("/bin/cp", [capturePath, keepDir + "/" + name])
        }
        if !ok {
            let keep = "/tmp/widgethost-desktop-failed-\(getpid())-\(shots).png"
            _ = run("/bin/cp", [capturePath, keep])
            Issue.record("the screen (kept as \(keep)) does not show the pictures (dimmed: \(dimmed.sorted())): \(report)\ndesktop:\n\(log.stderr.suffix(3000))",
                         sourceLocation: sourceLocation)
        }
    }
}

/// The fenced blocks under `heading` (up to the next heading of the same or a higher level) in
/// the repository's page `page` whose fence line is "```" + `fence`: recipes exactly as a reader
/// copies them.
func pageRecipes(_ page: String, heading: String, fence: String) throws -> [String] {
    let text = try #require(FileManagerFree.read(TestPaths.repoRoot + "/" + page))
    let level = heading.prefix { $0 == "#" }.count
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).drop { $0 != heading }
    try #require(!lines.isEmpty, "\(page) has no \(heading)")
    lines = lines.dropFirst()
    var blocks: [String] = [], block: [Substring] = [], inside = false, other = false
    for line in lines {
        if !inside && !other, line.hasPrefix("#"), line.prefix(while: { $0 == "#" }).count <= level, line.dropFirst(level).hasPrefix(" ") { break }
        if !inside && !other && line.hasPrefix("```") { if line == "```" + fence { inside = true } else { other = true }; continue }
        if (inside || other) && line == "```" {
            if inside { blocks.append(block.joined(separator: "\n") + "\n") }
            inside = false; other = false; block = []
            continue
        }
        if inside { block.append(line) }
    }
    return blocks
}
