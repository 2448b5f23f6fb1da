import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetDesktopScene
import WidgetGraphics
import WidgetHostCore
import WidgetLayout
#if canImport(Glibc)
import Glibc
#endif

/// The lean `widgethost-desktop` (Xlib, no GTK, no render process) under Xvfb — no window
/// manager, i3, openbox — fed by a fake host (`FakeViewHost`) that serves fixed trees on the view
/// stream. Each widget's area on screen must match a direct `PictureRenderer` render of the same
/// tree at scale 2 (the picture goldens' tolerance), at the docs' grid place worked out by hand
/// (`DesktopSurfaceTests.frames`). Every wait is for a condition.
@Suite(.serialized) struct LeanDesktopSurfaceTests {
    static let patience = RealBarTests.patience
    typealias T = DesktopSurfaceTests

    /// Bare Xvfb: the window's type, state and place, the three widgets on the grid; a stale
    /// widget dimmed and marked; a changed tree redrawn; a malformed line skipped; the host gone
    /// dims everything as not running, the host back restores it (a new watch); the X server
    /// gone ends the process with its message and status 1.
    @Test func x11LeanSurfaceShowsTheStreamedGrid() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let xprop = requireProgram("xprop", package: "x11-utils"),
              let xwininfo = requireProgram("xwininfo", package: "x11-utils"),
              let xdotool = requireProgram("xdotool", package: "xdotool"),
              let screen = try XServer.start(width: T.screen.width, height: T.screen.height) else { return }
        let lean = try LeanScene(display: screen.display, anchor: "top-right")
        defer { lean.stop() }
        let s = lean.scene
        let desktop = try lean.startDesktop()
        let frames = T.frames(origin: T.topRightOrigin)
        let shot = { s.rootShot(capture) }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("widgethost-desktop: lean surface (Xlib, no GTK) on an X11 window below all others"), "\(desktop.stderr)")
        #expect(desktop.stderr.contains("3 widget(s) from \(lean.host.path)"), "\(desktop.stderr)")

        // The window: desktop type, below, sticky, out of task bar and pager, on every
        // workspace; with no window manager an override-redirect one at the grid's place.
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
        // No toolkit and no GL: neither GTK nor Mesa is mapped.
        let maps = FileManagerFree.read("/proc/\(desktop.pid)/maps") ?? ""
        #expect(!maps.isEmpty && !maps.contains("libgtk") && !maps.contains("libgdk") && !maps.contains("libLLVM") && !maps.contains("_dri.so"),
                "\(maps.split(separator: "\n").filter { $0.contains("gtk") || $0.contains("gdk") || $0.contains("LLVM") || $0.contains("dri") }.prefix(3))")

        // Stale: dimmed with a mark; the others unchanged.
        lean.send(T.clocky, stale: true)
        s.expectShows(frames, dimmed: [T.clocky], within: Self.patience, shot: shot, log: desktop)

        // A malformed line is skipped with a line saying so; the next change shows.
        lean.host.sendRaw(Array(#"{"snapshot": "yes"}"#.utf8) + [0x0A])
        lean.send(T.clocky, stale: false)
        lean.send(T.habit, view: LeanTrees.habit(count: 3))
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("view stream: not a view stream message"), "\(desktop.stderr)")

        // The host goes: every widget dimmed and marked at once.
        lean.hostGoesAway()
        s.expectShows(frames, dimmed: [T.habit, T.stats, T.clocky], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("the host closed the view stream: widgets are shown as not running"), "\(desktop.stderr)")
        // ... and comes back: the surface watches again and shows the widgets as they are.
        try lean.hostComesBack()
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(lean.host.watches == 2)

        // The X server goes: a clear line and status 1.
        screen.stop()
        #expect(desktop.waitForExit(timeout: Self.patience) == 1, "\(desktop.stderr)")
        #expect(desktop.stderr.contains("widgethost-desktop: the display went away; stopping"), "\(desktop.stderr)")
    }

    /// Under i3 (it floats a desktop-type window over tiled ones): the override-redirect window
    /// stays below a tiled window that covers the screen, and shows again when that window goes.
    @Test func x11LeanSurfaceStaysBelowWindowsUnderI3() throws {
        guard let i3 = requireProgram("i3", package: "i3-wm"),
              let capture = requireProgram("import", package: "imagemagick"),
              let xmessage = requireProgram("xmessage", package: "x11-utils"),
              let xwininfo = requireProgram("xwininfo", package: "x11-utils"),
              let screen = try XServer.start(width: T.screen.width, height: T.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let lean = try LeanScene(display: screen.display, anchor: "top-right")
        defer { lean.stop() }
        let s = lean.scene
        FileManagerFree.write(s.dir.path + "/i3.conf", "# i3 config file (v4)\nfont pango:DejaVu Sans Mono 11\n")
        let wm = try s.start(i3, ["-c", s.dir.path + "/i3.conf"], name: "i3")
        #expect(eventually(timeout: Self.patience) { s.run(xwininfo, ["-root", "-children"]).stdout.contains("i3-frame") }, "i3:\n\(wm.stderr)")
        let desktop = try lean.startDesktop()
        let frames = T.frames(origin: T.topRightOrigin)
        let shot = { s.rootShot(capture) }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("the window manager has no desktop windows"), "\(desktop.stderr)")

        let other = try s.start(xmessage, ["-bg", "#ff00ff", "a window over the desktop"], name: "xmessage")
        #expect(eventually(timeout: Self.patience) {
            guard let image = shot() else { return false }
            return frames.allSatisfy { id, f in s.differing(image, frame: f, id: id, dimmed: false) > f.w * f.h / 2 }
        }, "the surface shows through a tiled window:\n\(s.run(xwininfo, ["-root", "-children"]).stdout)\ndesktop:\n\(desktop.stderr)")
        let children = s.run(xwininfo, ["-root", "-children"]).stdout.split(separator: "\n").filter { $0.contains("0x") }
        let surface = children.lastIndex { $0.contains("\"widgethost-desktop\"") && $0.contains("676x708") }
        let covering = children.firstIndex { $0.contains("i3 con") && $0.contains("container around") }
        #expect(surface != nil && covering != nil && surface! > covering!, "stacking:\n\(children.joined(separator: "\n"))")
        other.signal(SIGTERM)
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
    }

    /// Under openbox (a window manager with desktop windows): a managed, undecorated desktop
    /// window at the grid's place, at the bottom of the stacking order below a normal window,
    /// and kept there when something raises it.
    @Test func x11LeanSurfaceIsAManagedDesktopWindowUnderOpenbox() throws {
        guard let openbox = requireProgram("openbox", package: "openbox"),
              let capture = requireProgram("import", package: "imagemagick"),
              let xmessage = requireProgram("xmessage", package: "x11-utils"),
              let xprop = requireProgram("xprop", package: "x11-utils"),
              let xwininfo = requireProgram("xwininfo", package: "x11-utils"),
              let xdotool = requireProgram("xdotool", package: "xdotool"),
              let screen = try XServer.start(width: T.screen.width, height: T.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let lean = try LeanScene(display: screen.display, anchor: "top-right")
        defer { lean.stop() }
        let s = lean.scene
        let wm = try s.start(openbox, [], name: "openbox")
        #expect(eventually(timeout: Self.patience) {
            s.run(xprop, ["-root", "_NET_SUPPORTED"]).stdout.contains("_NET_WM_WINDOW_TYPE_DESKTOP")
        }, "openbox:\n\(wm.stderr)")
        let desktop = try lean.startDesktop()
        let frames = T.frames(origin: T.topRightOrigin)
        let shot = { s.rootShot(capture) }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("on an X11 desktop window under Openbox"), "\(desktop.stderr)")
        let window = s.desktopWindow(xdotool)
        #expect(s.run(xwininfo, ["-id", window]).stdout.contains("Override Redirect State: no"))

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
        other.signal(SIGTERM)
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
    }

    /// A real click (xdotool) on Habit's Log button sends the control socket's `click` with the
    /// button's target; the host's new tree (the count up) is on screen next. A click on a
    /// widget where no control is asks for its URL (button 3), as the GTK surface did. A click in
    /// the grid's gap reaches the root window beneath (the input region is the widgets only).
    @Test func x11LeanClickOnTheHabitButtonSendsItsTarget() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let xdotool = requireProgram("xdotool", package: "xdotool"),
              let screen = try XServer.start(width: T.screen.width, height: T.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let lean = try LeanScene(display: screen.display, anchor: "top-right")
        defer { lean.stop() }
        let s = lean.scene
        let desktop = try lean.startDesktop()
        let frames = T.frames(origin: T.topRightOrigin)
        let shot = { s.rootShot(capture) }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)

        let habit = try #require(frames[T.habit])
        let button = try #require(LeanTrees.buttonFrame(LeanTrees.habit(count: 0), family: .systemSmall), "no button in the Habit tree")
        let x = habit.x + Int(button.midX * 2), y = habit.y + Int(button.midY * 2)
        #expect(s.run(xdotool, ["mousemove", "\(x)", "\(y)", "click", "1"]).status == 0)
        #expect(eventually(timeout: Self.patience) { lean.host.requests.contains { $0.contains(#""op":"click""#) && $0.contains(#""target":"0""#) && $0.contains(T.habit) } },
                "requests: \(lean.host.requests)\ndesktop:\n\(desktop.stderr)")
        #expect(eventually(timeout: Self.patience) { desktop.stderr.contains("click on \(T.habit) at \(Int(button.midX * 2)),\(Int(button.midY * 2)): done") },
                "\(desktop.stderr)")
        lean.send(T.habit, view: LeanTrees.habit(count: 1))
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)

        // Stats has no control: a click asks for its URL.
        let stats = try #require(frames[T.stats])
        let before = lean.host.requests.count
        #expect(s.run(xdotool, ["mousemove", "\(stats.x + 40)", "\(stats.y + 40)", "click", "1"]).status == 0)
        #expect(eventually(timeout: Self.patience) {
            lean.host.requests.count > before && lean.host.requests.last?.contains(#""button":3"#) == true && lean.host.requests.last?.contains(T.stats) == true
        }, "requests: \(lean.host.requests)")
        // The gap between Habit and Stats is not the surface's: a click there sends nothing.
        let clicks = lean.host.requests.count
        #expect(s.run(xdotool, ["mousemove", "\(habit.x + 316 + 20)", "\(habit.y + 100)", "click", "1"]).status == 0)
        #expect(s.run(xdotool, ["mousemove", "\(stats.x + 50)", "\(stats.y + 50)", "click", "1"]).status == 0)
        #expect(eventually(timeout: Self.patience) { lean.host.requests.count == clicks + 1 }, "requests: \(lean.host.requests)")
        #expect(lean.host.requests.count == clicks + 1, "the click in the gap reached the surface: \(lean.host.requests)")
    }

    /// With no compositor (a transparent pixel would show black), the desktop shows between the
    /// widgets: the window's shape is the widgets' rectangles.
    @Test func x11LeanSurfaceShowsTheDesktopBetweenWidgetsWithoutACompositor() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let xsetroot = requireProgram("xsetroot", package: "x11-xserver-utils"),
              let screen = try XServer.start(width: T.screen.width, height: T.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let lean = try LeanScene(display: screen.display, anchor: "top-right")
        defer { lean.stop() }
        let s = lean.scene
        #expect(s.run(xsetroot, ["-solid", "#336699"]).status == 0)
        let desktop = try lean.startDesktop()
        let habit = T.frames(origin: T.topRightOrigin)[T.habit]!
        func pixel(_ image: PixelImage, _ x: Int, _ y: Int) -> UInt32 { image.pixels[y * image.width + x] & 0xFF_FFFF }
        #expect(eventually(timeout: Self.patience) {
            guard let image = s.rootShot(capture) else { return false }
            // Habit drawn (its blue background), the gap beside it and the row gap below it the desktop's colour.
            return pixel(image, habit.x + 158, habit.y + 250) != 0x33_6699 && pixel(image, habit.x + 316 + 22, habit.y + 150) == 0x33_6699
                && pixel(image, habit.x + 150, habit.y + 316 + 38) == 0x33_6699
        }, "desktop:\n\(desktop.stderr)")
    }

    /// `Xft.dpi` (192: scale 2) wins over the layout's scale (1): the grid is drawn at scale 2.
    @Test func x11LeanSurfaceTakesItsScaleFromXftDPI() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let xrdb = requireProgram("xrdb", package: "x11-xserver-utils"),
              let screen = try XServer.start(width: T.screen.width, height: T.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let lean = try LeanScene(display: screen.display, anchor: "top-right", scale: 1)
        defer { lean.stop() }
        let s = lean.scene
        FileManagerFree.write(s.dir.path + "/Xresources", "Xft.dpi: 192\n")
        #expect(s.run(xrdb, ["-merge", s.dir.path + "/Xresources"]).status == 0)
        let desktop = try lean.startDesktop()
        s.expectShows(T.frames(origin: T.topRightOrigin), dimmed: [], within: Self.patience, shot: { s.rootShot(capture) }, log: desktop)
    }

    /// The surface's own menu (button 3): "Edit Widget" starts the editor (`widgethost-edit`
    /// beside the surface; here a script standing in for it, by `WIDGETHOST_EDIT_EXECUTABLE`) with
    /// `--edit ID --config FILE` (the surface's config); "Remove Widget" takes the widget out of `config.json` through the config-edit
    /// library, as `widgethost remove`; "Edit Home Screen" and a drag move a widget in the grid
    /// order, as `widgethost move`.
    @Test func x11LeanMenuEditsAndRemovesAWidget() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let xdotool = requireProgram("xdotool", package: "xdotool"),
              let screen = try XServer.start(width: T.screen.width, height: T.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let lean = try LeanScene(display: screen.display, anchor: "top-right")
        defer { lean.stop() }
        let s = lean.scene
        let editor = s.dir.path + "/editor", edited = s.dir.path + "/edited.log"
        FileManagerFree.write(editor, "#!/bin/sh\necho \"$@\" >> \(edited)\n")
        chmod(editor, 0o755)
        let desktop = try lean.startDesktop(extraEnvironment: ["WIDGETHOST_EDIT_EXECUTABLE=\(editor)"])
        let frames = T.frames(origin: T.topRightOrigin)
        let shot = { s.rootShot(capture) }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        let origin = T.topRightOrigin, area = (width: 676.0 / 2, height: 708.0 / 2)
        /// Opens the menu at screen pixel (`x`, `y`) and clicks its row `command`.
        func choose(_ command: ContextMenu.Command, atX x: Int, y: Int) {
            #expect(s.run(xdotool, ["mousemove", "\(x)", "\(y)", "click", "3"]).status == 0)
            let menu = ContextMenu(widgetID: "", x: Double(x - origin.0) / 2, y: Double(y - origin.1) / 2,
                                   areaWidth: area.width, areaHeight: area.height)
            let row = menu.rowFrame(ContextMenu.Command.allCases.firstIndex(of: command)!)
            let (rx, ry) = (origin.0 + Int((row.x + row.width / 2) * 2), origin.1 + Int((row.y + row.height / 2) * 2))
            // The menu is drawn: the row's middle is no longer the widget's picture.
            #expect(eventually(timeout: Self.patience) {
                guard let image = shot() else { return false }
                return s.differing(image, frame: frames[T.stats]!, id: T.stats, dimmed: false) > 316 * 316 / 50
                    || s.differing(image, frame: frames[T.habit]!, id: T.habit, dimmed: false) > 316 * 316 / 50
            }, "no menu drawn")
            #expect(s.run(xdotool, ["mousemove", "\(rx)", "\(ry)", "click", "1"]).status == 0)
        }
        let config = s.session.home + "/.config/widgethost/config.json"
        choose(.editWidget, atX: origin.0 + 60, y: origin.1 + 60)
        #expect(eventually(timeout: Self.patience) { FileManagerFree.read(edited) == "--edit \(T.habit) --config \(config)\n" },
                "edited: \(FileManagerFree.read(edited) ?? "nothing")\n\(desktop.stderr)")
        #expect(desktop.stderr.contains("started \(editor) --edit \(T.habit) --config \(config)"), "\(desktop.stderr)")
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        choose(.removeWidget, atX: origin.0 + 360 + 40, y: origin.1 + 40)
        #expect(eventually(timeout: Self.patience) { desktop.stderr.contains("remove \(T.stats): done") }, "\(desktop.stderr)")
        let text = FileManagerFree.read(config) ?? ""
        #expect(!text.contains(T.stats) && !text.contains("StatsWidget"), "\(text)")
        #expect(text.contains(T.habit) && text.contains(T.clocky), "\(text)")

        // Edit Home Screen, then Clocky dragged to Habit's place: the grid order in config.json
        // changes as `widgethost move` changes it.
        choose(.editHomeScreen, atX: origin.0 + 60, y: origin.1 + 60)
        let clocky = frames[T.clocky]!
        #expect(s.run(xdotool, ["mousemove", "\(clocky.x + 300)", "\(clocky.y + 150)", "mousedown", "1"]).status == 0)
        for step in 1...8 {
            _ = s.run(xdotool, ["mousemove", "\(clocky.x + 300 - step * 30)", "\(clocky.y + 150 - step * 45)"])
        }
        #expect(s.run(xdotool, ["mouseup", "1"]).status == 0)
        #expect(eventually(timeout: Self.patience) { desktop.stderr.contains("move \(T.clocky): done") }, "\(desktop.stderr)")
        let moved = FileManagerFree.read(config) ?? ""
        let order = moved.components(separatedBy: "\"desktop\"").last ?? ""
        #expect((order.range(of: T.clocky)?.lowerBound).map { $0 < order.range(of: T.habit)!.lowerBound } == true, "\(moved)")
    }

    /// Hostile streams: trees with 10 000 nodes, a 1 MB string, NaN / infinite / negative
    /// frames, a line of garbage, a widget of an unknown id, an empty snapshot then a new one:
    /// each is drawn or refused with a line saying why, the surface keeps answering (a change
    /// afterwards shows) and stays small.
    @Test func x11LeanSurfaceSurvivesAHostileStream() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let screen = try XServer.start(width: T.screen.width, height: T.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let lean = try LeanScene(display: screen.display, anchor: "top-right")
        defer { lean.stop() }
        let s = lean.scene
        let desktop = try lean.startDesktop()
        let frames = T.frames(origin: T.topRightOrigin)
        let shot = { s.rootShot(capture) }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)

        lean.host.sendRaw(Array("\u{1}\u{2}not json at all\n".utf8))
        lean.send(T.habit, view: LeanTrees.hostile(nodes: 10_000), check: false)
        lean.send(T.stats, view: LeanTrees.hostileFrames(), check: false)
        lean.send(T.clocky, view: LeanTrees.hostileText(), check: false)
        lean.host.send(DesktopViewMessage(snapshot: false, layout: nil,
                                          widgets: [LeanTrees.widget("Nope-systemSmall", view: LeanTrees.stats)], removed: ["Gone-systemSmall"]))
        // Then the fixed trees again, and a stale mark: shown only if the surface still reads and draws.
        lean.send(T.habit, view: LeanTrees.habit(count: 0))
        lean.send(T.stats, view: LeanTrees.stats)
        lean.send(T.clocky, stale: true)
        s.expectShows(frames, dimmed: [T.clocky], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.waitForExit(timeout: 0) == nil, "the surface ended: \(desktop.stderr)")
        #expect(desktop.stderr.contains("view stream: not a view stream message"), "\(desktop.stderr)")
        let rss = FileManagerFree.read("/proc/\(desktop.pid)/status")?.split(separator: "\n")
            .first { $0.hasPrefix("VmHWM:") }.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? Int.max
        #expect(rss < 200_000, "the surface's peak RSS was \(rss) kB")
    }

    /// The real host streams the Habit widget and MyAppWidget (their `png` outputs only give the
    /// test the host's own pictures to compare the screen with; the surface draws the streamed
    /// trees). A real click (xdotool) on Habit's Log button, found in the host's `regions.json`,
    /// runs the button's intent through the control socket: the count goes up in the text output
    /// and on screen. A click on MyAppWidget, which has no control but a `widgetURL`, opens that
    /// URL with the host's opener. Then the host is killed: the widgets are dimmed as not running.
    @Test func x11ClickOnTheHabitButtonLogsTheHabit() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let xdotool = requireProgram("xdotool", package: "xdotool"),
              let screen = try XServer.start(width: T.screen.width, height: T.screen.height) else { return }
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
             "desktop": {"widgets": ["\(T.habit)", "\(myApp)"], "scale": 2}}
            """)
        s.picturePath = { [out = s.out] in out + "/\($0).png" }
        s.markAreas = { _ in LeanScene.markCorners(.notRunning, family: .systemSmall) }
        let host = try s.session.startHost()
        let regionsFile = s.out + "/" + PictureRegions.fileName(for: T.habit)
        #expect(eventually(timeout: Self.patience) {
            s.session.text(T.habit)?.contains("Habit 0/8") == true && FileManagerFree.exists(s.out + "/\(T.habit).png")
                && FileManagerFree.exists(regionsFile) && FileManagerFree.exists(s.out + "/\(myApp).png")
        }, "host:\n\(host.stderr.suffix(3000))")
        let before = try #require(readBytes(s.out + "/\(T.habit).png"))
        let desktop = try s.startDesktop()
        let frame = (x: T.screen.width - 64 - 676, y: 64, w: 316, h: 316)
        let frames = [T.habit: frame, myApp: (x: frame.x + 360, y: 64, w: 316, h: 316)]
        let shot = { s.rootShot(capture) }
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("widgethost-desktop: lean surface (Xlib, no GTK)"), "the lean surface is the default on X11: \(desktop.stderr)")

        let regions = try #require(readBytes(regionsFile).flatMap { PictureRegions.decode(Data($0)) })
        let button = try #require(regions.regions.first { $0.kind == "button" }, "no button in \(regions)")
        let x = frame.x + Int(button.x + button.width / 2), y = frame.y + Int(button.y + button.height / 2)
        #expect(s.run(xdotool, ["mousemove", "\(x)", "\(y)", "click", "1"]).status == 0)
        #expect(eventually(timeout: Self.patience) { s.session.text(T.habit)?.contains("Habit 1/8") == true },
                "desktop:\n\(desktop.stderr)\nhost:\n\(host.stderr.suffix(3000))")
        #expect(desktop.stderr.contains("click on \(T.habit) at \(Int(button.x + button.width / 2)),"), "\(desktop.stderr)")
        #expect(eventually(timeout: Self.patience) { readBytes(s.out + "/\(T.habit).png").map { $0 != before } == true },
                "the picture was not redrawn after the click")
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)

        #expect(s.run(xdotool, ["mousemove", "\(frame.x + 360 + 40)", "\(frame.y + 40)", "click", "1"]).status == 0)
        #expect(eventually(timeout: Self.patience) { FileManagerFree.read(opened) == "myapp://habit/drink-water\n" },
                "opened: \(FileManagerFree.read(opened) ?? "nothing")\ndesktop:\n\(desktop.stderr)\nhost:\n\(host.stderr.suffix(3000))")

        host.signal(SIGKILL)
        s.expectShows(frames, dimmed: [T.habit, myApp], within: Self.patience, shot: shot, log: desktop)
    }

    /// A widget with no entry yet (`view` nil) keeps its grid place, empty (the desktop shows
    /// through); its picture appears there when its first entry comes.
    @Test func x11LeanSurfaceShowsAWidgetOnceItHasAnEntry() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let screen = try XServer.start(width: T.screen.width, height: T.screen.height) else { return }
        defer { withExtendedLifetime(screen) {} }
        let lean = try LeanScene(display: screen.display, anchor: "top-right", withoutViews: [T.stats, T.clocky])
        defer { lean.stop() }
        let s = lean.scene
        let desktop = try lean.startDesktop()
        let shot = { s.rootShot(capture) }
        let frames = T.frames(origin: T.topRightOrigin)
        s.expectShows([T.habit: frames[T.habit]!], dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(desktop.stderr.contains("3 widget(s) from"), "\(desktop.stderr)")
        let image = try #require(shot())
        #expect(s.differing(image, frame: frames[T.stats]!, id: T.stats, dimmed: false) > 316 * 316 / 2, "Stats drawn before its entry")
        lean.send(T.stats, view: LeanTrees.stats)
        lean.send(T.clocky, view: LeanTrees.clocky)
        s.expectShows(frames, dimmed: [], within: Self.patience, shot: shot, log: desktop)
    }
}

// MARK: - Support

/// `DesktopScene` (the session, config, screenshots) with a `FakeViewHost` as the host: the
/// config's `paths.socket` names it, the lean surface is started, and each widget's expected
/// picture is rendered from the tree the host serves.
final class LeanScene {
    let scene: DesktopScene
    let host: FakeViewHost
    private var widgets: [String: DesktopViewMessage.Widget] = [:]
    private let renderer = PictureRenderer()
    private let pictureScale: Double

    /// `scale`: the layout's (`desktop.scale`), which `Xft.dpi` overrides.
    /// `outputs`: `desktop.outputs` (widget id → monitor), none by default.
    /// `pictureScale`: the scale the screen is expected to show the widgets at.
    init(display: String, anchor: String, withoutViews: Set<String> = [], scale: Double = 2, outputs: [String: String]? = nil,
         pictureScale: Double = 2) throws {
        self.pictureScale = pictureScale
        scene = try DesktopScene(display: display, anchor: anchor)
        let socket = scene.dir.path + "/ctl.sock"
        scene.writeConfig("""
            {"paths": {"socket": "\(socket)"},
             "widgets": [\(DesktopScene.widgets.map { id in "{\"kind\": \"\(id.dropLast(id.split(separator: "-").last!.count + 1))\", \"family\": \"\(id.split(separator: "-").last!)\"}" }.joined(separator: ", "))],
             "desktop": {"widgets": [\(DesktopScene.widgets.map { "\"\($0)\"" }.joined(separator: ", "))],
                         "anchor": "\(anchor)", "margin": 32, "gap": 22, "columns": 2, "scale": \(scale)\(outputs.map { o in
                             ", \"outputs\": {" + o.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }.joined(separator: ", ") + "}" } ?? "")}}
            """)
        let trees = [DesktopSurfaceTests.habit: LeanTrees.habit(count: 0), DesktopSurfaceTests.stats: LeanTrees.stats,
                     DesktopSurfaceTests.clocky: LeanTrees.clocky]
        let served = DesktopScene.widgets.map { LeanTrees.widget($0, view: withoutViews.contains($0) ? nil : trees[$0]) }
        let snapshot = DesktopViewMessage(
            snapshot: true,
            layout: .init(widgets: DesktopScene.widgets, anchor: anchor, margin: 32, gap: 22, columns: 2, scale: scale, dark: false, outputs: outputs),
            widgets: served, removed: [])
        host = try FakeViewHost(path: socket, snapshot: snapshot)
        for w in served { widgets[w.id] = w }
        for id in DesktopScene.widgets { try expect(id) }
        scene.picturePath = { [dir = scene.dir.path] in dir + "/expected-\($0).png" }
        scene.markAreas = { [unowned self] id in markArea(id).map { [$0] } ?? [] }
    }

    /// Whether the fake host is away (every widget "not running"); set by `hostGoesAway`/`hostComesBack`.
    private(set) var hostAway = false

    func hostGoesAway() { hostAway = true; host.goAway() }
    func hostComesBack() throws { hostAway = false; try host.comeBack() }

    /// Where the scene puts `id`'s mark (`WidgetMark`), in picture pixels at scale 2, widened by
    /// 2 px for anti-aliasing; nil when it has none.
    private func markArea(_ id: String) -> (x: Int, y: Int, w: Int, h: Int)? {
        guard let w = widgets[id], let mark = WidgetMark(stale: w.stale, running: w.running && !hostAway) else { return nil }
        let size = w.family.nominalSize
        let placed = w.view.map { renderer.layout($0, family: w.family, now: LeanTrees.date) }
        let r = WidgetMark.frame(textWidth: Self.markTextWidth(mark, renderer), width: size.width, height: size.height, placed: placed)
        return Self.pixels(r)
    }

    /// Every corner a mark may take on a widget of `family` (for a tree the test does not
    /// know: the real host's), in picture pixels at scale 2.
    static func markCorners(_ mark: WidgetMark, family: WidgetFamily) -> [(x: Int, y: Int, w: Int, h: Int)] {
        let size = family.nominalSize
        let w = markTextWidth(mark, PictureRenderer()) + 2 * WidgetMark.padding, h = WidgetMark.height, i = WidgetMark.inset
        return [(size.width - i - w, i), (size.width - i - w, size.height - i - h), (i, size.height - i - h), (i, i)]
            .map { pixels(Rect(x: $0.0, y: $0.1, width: w, height: h)) }
    }

    static func markTextWidth(_ mark: WidgetMark, _ renderer: PictureRenderer) -> Double {
        renderer.text.measure(mark.text, font: WidgetMark.font, width: nil, maxLines: 1).width
    }

    static func pixels(_ r: Rect) -> (x: Int, y: Int, w: Int, h: Int) {
        (Int(r.x * 2) - 2, Int(r.y * 2) - 2, Int(r.width * 2) + 4, Int(r.height * 2) + 4)
    }

    func stop() { host.stop(); scene.stop() }

    /// The lean surface, as the session starts `widgethost-desktop` (no arguments: the default on X11).
    func startDesktop(extraEnvironment: [String] = []) throws -> BarProcess { try scene.startDesktop(extraEnvironment: extraEnvironment) }

    /// Renders the picture `id` should show now (its current tree, at `pictureScale`) for `differing`.
    private func expect(_ id: String) throws {
        guard let w = widgets[id], let view = w.view else { return }
        let png = try renderer.render(view, family: w.family, format: .png, options: PictureOptions(scale: pictureScale, now: LeanTrees.date))
        FileManagerFree.write(scene.dir.path + "/.expected.tmp", "")
        let fd = open(scene.dir.path + "/.expected.tmp", O_WRONLY | O_TRUNC)
        _ = png.bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        rename(scene.dir.path + "/.expected.tmp", scene.dir.path + "/expected-\(id).png")
    }

    /// Streams a change of `id`: a new tree and/or staleness. `check`: render the expected
    /// picture (false for trees the screen is not compared with).
    func send(_ id: String, view: ViewNode? = nil, stale: Bool? = nil, check: Bool = true) {
        guard var w = widgets[id] else { return }
        if let view { w.view = view }
        if let stale { w.stale = stale }
        widgets[id] = w
        if check { try? expect(id) }
        host.send(DesktopViewMessage(snapshot: false, layout: nil, widgets: [w], removed: []))
    }
}

/// Fixed trees the fake host serves: a Habit-like widget with a Log button (an intent control,
/// target "0"), a Stats-like one without controls, a Clocky-like medium one; and hostile ones.
enum LeanTrees {
    static let date = Date(timeIntervalSince1970: 1_773_569_400)  // 2026-03-15 10:10:00 UTC

    struct LogHabit: AppIntent {
        static let title: LocalizedStringResource = "Log"
        init() {}
        func perform() async throws -> some IntentResult { .result() }
    }

    static func evaluate<V: View>(_ view: V, family: WidgetFamily) -> ViewNode {
        var environment = EnvironmentValues()
        environment.widgetFamily = family
        return ViewEvaluator.evaluate(view, environment: environment)
    }

    static func habit(count: Int) -> ViewNode {
        evaluate(VStack(alignment: .leading, spacing: 6) {
            Text("Drink water").font(.headline).foregroundColor(.white)
            Text("Habit \(count)/8").font(.system(size: 28, weight: .bold)).foregroundColor(.white)
            Spacer()
            Button(intent: LogHabit()) { Text("Log").font(.headline) }
        }
        .padding(16)
        .containerBackground(Color.blue, for: .widget), family: .systemSmall)
    }

    static let stats = evaluate(VStack(spacing: 4) {
        Text("CPU").font(.caption).foregroundColor(.secondary)
        Text("42 %").font(.system(size: 40, weight: .semibold))
        Text("load 0.42").font(.footnote)
    }
    .padding(16)
    .containerBackground(Color.orange, for: .widget), family: .systemSmall)

    static let clocky = evaluate(HStack {
        VStack(alignment: .leading) {
            Text("Sunday").font(.headline).foregroundColor(.red)
            Text("10:10").font(.system(size: 44, weight: .bold))
        }
        Spacer()
        Text("15 March").font(.title3)
    }.padding(16), family: .systemMedium)

    static func widget(_ id: String, view: ViewNode?) -> DesktopViewMessage.Widget {
        let family = WidgetFamily(rawValue: String(id.split(separator: "-").last!)) ?? .systemSmall
        return DesktopViewMessage.Widget(id: id, kind: String(id.dropLast(family.rawValue.count + 1)), family: family,
                                         view: view, entryDate: date, stale: false, running: true)
    }

    /// The frame (points) of the first intent control in `tree` laid out in `family`.
    static func buttonFrame(_ tree: ViewNode, family: WidgetFamily) -> (midX: Double, midY: Double)? {
        let placed = PictureRenderer().layout(tree, family: family, now: date)
        var found: (midX: Double, midY: Double)?
        placed.walk { p in
            if found == nil, p.node.kind == .button, p.node.action != nil {
                found = (p.frame.x + p.frame.width / 2, p.frame.y + p.frame.height / 2)
            }
        }
        return found
    }

    static func hostile(nodes: Int) -> ViewNode {
        var leaf = ViewNode(kind: .text)
        leaf.text = "x"
        return ViewNode(kind: .vstack, children: Array(repeating: leaf, count: nodes))
    }

    static func hostileFrames() -> ViewNode {
        var n = ViewNode(kind: .text)
        n.text = "frames"
        var m = Modifiers()
        m.frame = FrameSpec(width: .nan, height: -.infinity, minWidth: -5, maxWidth: .infinity)
        n.modifiers = m
        return ViewNode(kind: .vstack, children: [n])
    }

    static func hostileText() -> ViewNode {
        var n = ViewNode(kind: .text)
        n.text = String(repeating: "wide \u{202E}עברית 🙂 ", count: 60_000)
        return n
    }
}
