import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetGraphics
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost-desktop` for real: under Xvfb (no window manager, openbox, i3) and under sway's
/// headless backend as an unprivileged user, read back with screenshots (`import -window root`,
/// grim); then with the real host drawing the Habit widget, clicked with xdotool; and the
/// image-reading recipes of docs/desktop.md and docs/status-bars.md in conky and waybar.
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

    /// Bare Xvfb (no window manager): the window's type and state, its place, the three pictures
    /// on the grid; a stale widget dimmed and marked; torn and foreign picture files keep the last
    /// good picture; the host gone dims everything; the X server gone ends the process with its
    /// message and status 1.
    @Test func x11SurfaceShowsTheGridAndKeepsTheLastGoodPicture() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let xprop = requireProgram("xprop", package: "x11-utils"),
              let xwininfo = requireProgram("xwininfo", package: "x11-utils"),
              let xdotool = requireProgram("xdotool", package: "xdotool"),
              let screen = try XServer.start(width: Self.screen.width, height: Self.screen.height) else { return }
        let s = try DesktopScene(display: screen.display, anchor: "top-right")
        defer { s.stop() }
        let host = try s.fakeHost()
        try s.putAllPictures()
        let desktop = try s.startDesktop()
        let frames = Self.frames(origin: Self.topRightOrigin)
        let shot = { s.rootShot(capture) }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("3 widget(s) from \(s.out) on a window below all others"), "\(desktop.stderr)")

        // The window: desktop type, below, sticky, out of task bar and pager; with no window
        // manager (none lists desktop windows) an override-redirect one, at the grid's place.
        let window = s.desktopWindow(xdotool)
        let props = s.run(xprop, ["-id", window, "_NET_WM_WINDOW_TYPE", "_NET_WM_STATE", "_NET_WM_DESKTOP"]).stdout
        #expect(props.contains("_NET_WM_WINDOW_TYPE(ATOM) = _NET_WM_WINDOW_TYPE_DESKTOP"), "\(props)")
        for state in ["_NET_WM_STATE_BELOW", "_NET_WM_STATE_STICKY", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER"] {
            #expect(props.contains(state), "\(state) missing: \(props)")
        }
        #expect(props.contains("_NET_WM_DESKTOP(CARDINAL) = 4294967295"), "on every workspace: \(props)")
        let info = s.run(xwininfo, ["-id", window]).stdout
        #expect(info.contains("Absolute upper-left X:  540") && info.contains("Absolute upper-left Y:  64"), "\(info)")
        #expect(info.contains("Width: 676") && info.contains("Height: 708"), "\(info)")
        #expect(info.contains("Override Redirect State: yes"), "\(info)")
        // It draws with Cairo alone: GDK's GLX probe would map Mesa and libLLVM (29 MB PSS).
        let maps = FileManagerFree.read("/proc/\(desktop.pid)/maps") ?? ""
        #expect(!maps.isEmpty && !maps.contains("libLLVM") && !maps.contains("_dri.so"), "GL libraries mapped: \(maps.split(separator: "\n").filter { $0.contains("LLVM") || $0.contains("dri") }.prefix(3))")

        // Stale: dimmed with a mark; the others unchanged.
        s.writeState(Self.clocky, stale: true)
        s.expectShows(frames, dimmed: [Self.clocky], within: Self.patience, shot: shot, log: desktop)

        // A foreign file and a torn PNG (renamed into place, as a careless writer would) keep the
        // last good pictures. Clocky back to fresh afterwards: once the surface shows that, it has
        // read the two bad files before (inotify reports in order).
        s.putFile(Self.habit + ".png", Array("not a picture\n".utf8))
        let whole = try #require(readBytes(DesktopScene.picture(Self.clocky)))
        s.putFile(Self.stats + ".png", Array(whole.prefix(whole.count / 3)))
        s.writeState(Self.clocky, stale: false)
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)

        // The host goes: every widget dimmed and marked at once (a pidfd, no polling).
        host.signal(SIGKILL)
        s.expectShows(frames, dimmed: [Self.habit, Self.stats, Self.clocky], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("no host is writing \(s.out): widgets are shown as not running"), "\(desktop.stderr)")

        // The X server goes: a clear line and status 1 (GDK alone exits 1 without a word).
        screen.stop()
        #expect(desktop.waitForExit(timeout: Self.patience) == 1, "\(desktop.stderr)")
        #expect(desktop.stderr.contains("widgethost-desktop: the display went away; stopping"), "\(desktop.stderr)")
    }

    /// Under i3 (no desktop windows in its `_NET_SUPPORTED`; it floats a desktop-type window over
    /// the tiled ones): the surface stays below a tiled window that covers the screen, and shows
    /// again when that window goes.
    @Test func x11SurfaceStaysBelowWindowsUnderI3() throws {
        guard let i3 = requireProgram("i3", package: "i3-wm"),
              let capture = requireProgram("import", package: "imagemagick"),
              let xmessage = requireProgram("xmessage", package: "x11-utils"),
              let xwininfo = requireProgram("xwininfo", package: "x11-utils"),
              let screen = try XServer.start(width: Self.screen.width, height: Self.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let s = try DesktopScene(display: screen.display, anchor: "top-right")
        defer { s.stop() }
        _ = try s.fakeHost()
        try s.putAllPictures()
        FileManagerFree.write(s.dir.path + "/i3.conf", "# i3 config file (v4)\nfont pango:DejaVu Sans Mono 11\n")
        let wm = try s.start(i3, ["-c", s.dir.path + "/i3.conf"], name: "i3")
        #expect(eventually(timeout: Self.patience) { s.run(xwininfo, ["-root", "-children"]).stdout.contains("i3-frame") }, "i3:\n\(wm.stderr)")
        let desktop = try s.startDesktop()
        let frames = Self.frames(origin: Self.topRightOrigin)
        let shot = { s.rootShot(capture) }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("the window manager has no desktop windows"), "\(desktop.stderr)")

        // A tiled window takes the whole workspace, over the surface: no widget shows through.
        let other = try s.start(xmessage, ["-bg", "#ff00ff", "a window over the desktop"], name: "xmessage")
        #expect(eventually(timeout: Self.patience) {
            guard let image = shot() else { return false }
            return frames.allSatisfy { id, f in s.differing(image, frame: f, id: id, dimmed: false) > f.w * f.h / 2 }
        }, "the surface shows through a tiled window:\n\(s.run(xwininfo, ["-root", "-children"]).stdout)\ndesktop:\n\(desktop.stderr)")
        // Stacking order (xwininfo lists the root's children top first): the surface is last.
        let children = s.run(xwininfo, ["-root", "-children"]).stdout.split(separator: "\n").filter { $0.contains("0x") }
        let surface = children.lastIndex { $0.contains("\"widgethost-desktop\"") && $0.contains("676x708") }
        let covering = children.firstIndex { $0.contains("i3 con") && $0.contains("container around") }
        #expect(surface != nil && covering != nil && surface! > covering!, "stacking:\n\(children.joined(separator: "\n"))")
        other.signal(SIGTERM)
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
    }

    /// Under openbox, a window manager with desktop windows (as GNOME's, KDE's and Xfce's are):
    /// a managed desktop-type window, undecorated at the grid's place, at the bottom of the
    /// stacking order below a normal window, and kept there when something raises it.
    @Test func x11SurfaceIsAManagedDesktopWindowUnderOpenbox() throws {
        guard let openbox = requireProgram("openbox", package: "openbox"),
              let capture = requireProgram("import", package: "imagemagick"),
              let xmessage = requireProgram("xmessage", package: "x11-utils"),
              let xprop = requireProgram("xprop", package: "x11-utils"),
              let xwininfo = requireProgram("xwininfo", package: "x11-utils"),
              let xdotool = requireProgram("xdotool", package: "xdotool"),
              let screen = try XServer.start(width: Self.screen.width, height: Self.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let s = try DesktopScene(display: screen.display, anchor: "top-right")
        defer { s.stop() }
        _ = try s.fakeHost()
        try s.putAllPictures()
        let wm = try s.start(openbox, [], name: "openbox")
        #expect(eventually(timeout: Self.patience) {
            s.run(xprop, ["-root", "_NET_SUPPORTED"]).stdout.contains("_NET_WM_WINDOW_TYPE_DESKTOP")
        }, "openbox:\n\(wm.stderr)")
        let desktop = try s.startDesktop()
        let frames = Self.frames(origin: Self.topRightOrigin)
        let shot = { s.rootShot(capture) }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("on a desktop window"), "\(desktop.stderr)")
        let window = s.desktopWindow(xdotool)
        #expect(s.run(xwininfo, ["-id", window]).stdout.contains("Override Redirect State: no"))

        // A normal window over the Habit widget: on top of it; the surface stays at the bottom
        // of the stacking order (first in the list), also after it asks to be raised.
        let other = try s.start(xmessage, ["-bg", "#ff00ff", "-geometry", "400x300+600+100", "a window over the desktop"], name: "xmessage")
        func stacking() -> [Int] {
            let line = s.run(xprop, ["-root", "_NET_CLIENT_LIST_STACKING"]).stdout
            return line.split(separator: "#").last.map { $0.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2), radix: 16) } } ?? []
        }
        func magentaOverHabit() -> Bool {
            guard let image = shot() else { return false }
            return image.pixels[250 * image.width + 800] & 0xFF_FFFF == 0xFF_00FF
        }
        #expect(eventually(timeout: Self.patience) { stacking().count == 2 && stacking().first == Int(window) && magentaOverHabit() },
                "stacking \(stacking()), surface \(window); xmessage: \(other.stderr)")
        _ = s.run(xdotool, ["windowraise", window])
        #expect(eventually(timeout: Self.patience) { stacking().first == Int(window) && magentaOverHabit() }, "stacking \(stacking())")
    }

    /// sway 1.7's headless backend, as an unprivileged user: a layer-shell surface on the
    /// background layer at the bottom-left corner, the pictures over sway's own background; the
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
        let desktop = try s.startDesktop(extraEnvironment: wayland)
        let frames = Self.frames(origin: Self.bottomLeftOrigin)
        let shot = { s.shot { path in
            let grab = try? BarProcess(grim, [path], dir: s.dir.path, name: "grim", environment: s.session.environment + wayland)
            return grab?.waitForExit(timeout: Self.patience) == 0 ? () : nil
        } }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("on a layer-shell background surface"), "\(desktop.stderr)")
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
        let desktop = try s.startDesktop()
        let grid = DesktopGrid(widgets: [(Self.habit, .systemSmall)])
        let frame = (x: Self.screen.width - 64 - Int(grid.width * 2), y: 64, w: 316, h: 316)
        s.expectShows([Self.habit: frame], dimmed: [], within: Self.patience, shot: { s.rootShot(capture) }, log: desktop)
        #expect(desktop.stderr.contains("1 widget(s) from \(s.out)"), "\(desktop.stderr)")
        #expect(desktop.stderr.contains("\(Self.clocky) has no \"png\" among its outputs (files)"), "\(desktop.stderr)")
        #expect(desktop.stderr.contains("\(Self.clocky) is not shown: no picture \(Self.clocky).png yet"), "\(desktop.stderr)")
    }

    /// `--version`, as every command of the project has it: the SDK, the lean surface's drawing
    /// libraries and the GTK the Wayland surface still runs on, with no display needed.
    @Test func versionNamesTheSDKTheLeanSurfaceAndGTK() {
        let r = run("/usr/bin/env", ["-u", "DISPLAY", "-u", "WAYLAND_DISPLAY", TestPaths.products + "/widgethost-desktop", "--version"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("widgethost-desktop \(openWidgetKitVersion)\nlean surface (X11): Xlib, Cairo 1."), "\(r.stdout)")
        #expect(r.stdout.contains(", Pango 1."), "\(r.stdout)")
        #expect(r.stdout.contains("GTK surface (Wayland until the lean one has a Wayland backend): GTK 3."), "\(r.stdout)")
        #expect(r.stdout.contains(", gtk-layer-shell "), "\(r.stdout)")
    }

    /// The real host draws the Habit widget (`png` output, scale 2) and the surface shows it; a
    /// real click (xdotool) on its Log button, found in the host's `regions.json`, runs the
    /// button's intent through the control socket: the count goes up in the text output and in
    /// the picture on screen. A click on MyAppWidget, which has no control but a `widgetURL`,
    /// opens that URL with the host's opener. Then the host is killed: the widgets are dimmed as
    /// not running.
    @Test func x11ClickOnTheHabitButtonLogsTheHabit() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let xdotool = requireProgram("xdotool", package: "xdotool"),
              let screen = try XServer.start(width: Self.screen.width, height: Self.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let s = try DesktopScene(display: screen.display, anchor: "top-right", plugins: ["HabitWidget"])
        defer { s.stop() }
        let myApp = "MyAppWidget-systemSmall", opened = s.dir.path + "/opened.log", opener = s.session.bin + "/opener"
        FileManagerFree.write(opener, "#!/bin/sh\necho \"$@\" >> \(opened)\n")
        chmod(opener, 0o755)
        s.writeConfig("""
            {"widgets": [{"kind": "InteractiveHabit", "family": "systemSmall", "outputs": ["files", "png"]},
                         {"kind": "MyAppWidget", "family": "systemSmall", "outputs": ["files", "png"]}],
             "defaults": {"picture": {"scale": 2}, "opener": "\(opener)", "openSchemes": ["myapp"]},
             "desktop": {"widgets": ["\(Self.habit)", "\(myApp)"], "scale": 2}}
            """)
        s.picturePath = { [out = s.out] in out + "/\($0).png" }
        let host = try s.session.startHost()
        let regionsFile = s.out + "/" + PictureRegions.fileName(for: Self.habit)
        #expect(eventually(timeout: Self.patience) {
            s.session.text(Self.habit)?.contains("Habit 0/8") == true && FileManagerFree.exists(s.out + "/\(Self.habit).png")
                && FileManagerFree.exists(regionsFile)
        }, "host:\n\(host.stderr.suffix(3000))")
        #expect(eventually(timeout: Self.patience) { FileManagerFree.exists(s.out + "/\(myApp).png") }, "host:\n\(host.stderr.suffix(3000))")
        let before = try #require(readBytes(s.out + "/\(Self.habit).png"))
        let desktop = try s.startDesktop()
        // Two small widgets side by side, 676 px wide, at the top-right corner.
        let frame = (x: Self.screen.width - 64 - 676, y: 64, w: 316, h: 316)
        let frames = [Self.habit: frame, myApp: (x: frame.x + 360, y: 64, w: 316, h: 316)]
        let shot = { s.rootShot(capture) }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)

        let regions = try #require(readBytes(regionsFile).flatMap { PictureRegions.decode(Data($0)) })
        #expect(regions.scale == 2 && regions.width == 316)
        let button = try #require(regions.regions.first { $0.kind == "button" }, "no button in \(regions)")
        let x = frame.x + Int(button.x + button.width / 2), y = frame.y + Int(button.y + button.height / 2)
        #expect(s.run(xdotool, ["mousemove", "\(x)", "\(y)", "click", "1"]).status == 0)
        #expect(eventually(timeout: Self.patience) { s.session.text(Self.habit)?.contains("Habit 1/8") == true },
                "desktop:\n\(desktop.stderr)\nhost:\n\(host.stderr.suffix(3000))")
        #expect(desktop.stderr.contains("click on \(Self.habit) at \(Int(button.x + button.width / 2)),"), "\(desktop.stderr)")
        #expect(eventually(timeout: Self.patience) { readBytes(s.out + "/\(Self.habit).png").map { $0 != before } == true },
                "the picture was not redrawn after the click")
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)

        #expect(s.run(xdotool, ["mousemove", "\(frame.x + 360 + 40)", "\(frame.y + 40)", "click", "1"]).status == 0)
        #expect(eventually(timeout: Self.patience) { FileManagerFree.read(opened) == "myapp://habit/drink-water\n" },
                "opened: \(FileManagerFree.read(opened) ?? "nothing")\ndesktop:\n\(desktop.stderr)\nhost:\n\(host.stderr.suffix(3000))")

        host.signal(SIGKILL)
        s.expectShows(frames, dimmed: [Self.habit, myApp], within: Self.patience, shot: shot, log: desktop)
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
        let desktop = try s.startDesktop()
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
        let desktop = TestPaths.products + "/widgethost-desktop"
        if unprivileged {
            try #require(run("/bin/cp", [desktop, session.bin + "/widgethost-desktop"]).status == 0)
        } else {
            symlink(desktop, session.bin + "/widgethost-desktop")
        }
    }

    func stop() { session.stop() }

    /// Replaces the session's `config.json`.
    func writeConfig(_ json: String) { FileManagerFree.write(session.home + "/.config/widgethost/config.json", json) }

    func start(_ program: String, _ args: [String], name: String, extraEnvironment: [String] = [], asUser: Bool = false) throws -> BarProcess {
        try session.start(program, args, name: name, extraEnvironment: extraEnvironment, asUser: asUser)
    }

    func run(_ program: String, _ args: [String]) -> ProcessResult { session.run(program, args) }

    /// `widgethost-desktop` as the README starts it: no arguments, the session's default config.
    func startDesktop(extraEnvironment: [String] = []) throws -> BarProcess {
        try start(session.bin + "/widgethost-desktop", [], name: "desktop", extraEnvironment: extraEnvironment, asUser: session.unprivileged)
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
    /// behind the surface there), at 45 % when `dimmed`, the mark's corner (100 × 30 pt) left
    /// out then. Left of the frame, or right of it when the frame starts at the screen's edge.
    func differing(_ image: PixelImage, frame f: (x: Int, y: Int, w: Int, h: Int), id: String, dimmed: Bool) -> Int {
        guard let picture = readBytes(picturePath(id)).flatMap(PixelImage.decodePNG),
              picture.width == f.w, picture.height == f.h,
              f.x >= 0, f.y >= 0, f.x + f.w + 4 < image.width, f.y + f.h <= image.height else { return Int.max }
        let behind = f.x >= 4 ? f.x - 4 : f.x + f.w + 4
        let background = image.pixels[(f.y + f.h / 2) * image.width + behind]
        let k = dimmed ? 0.45 : 1
        var expected = picture, got = picture
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
                got.pixels[i] = dimmed && x < 200 && y < 60 ? c : image.pixels[(f.y + y) * image.width + f.x + x] | 0xFF00_0000
            }
        }
        return got.differingPixels(from: expected, threshold: PictureGoldenTests.threshold)
    }

    /// Whether the dimmed widget at `frame` carries its mark: white text in the top-left corner
    /// (the dimmed picture itself has nothing near white).
    func hasMark(_ image: PixelImage, frame f: (x: Int, y: Int, w: Int, h: Int)) -> Bool {
        var white = 0
        for y in f.y..<min(image.height, f.y + 60) {
            for x in f.x..<min(image.width, f.x + 200) {
                let p = image.pixels[y * image.width + x]
                let channels = [(p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF]
                if channels.allSatisfy({ $0 > 230 }) { white += 1 }
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
                if dimmed.contains(id) && !hasMark(image, frame: f) { report += "\(id): no mark; " }
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
