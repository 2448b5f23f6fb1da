import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetGraphics
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// GNOME Shell 43 on Wayland (no layer-shell) with the shipped extension
/// (dist/gnome-shell/widgethost-desktop@widgethost.github.io), for real: one headless GNOME
/// session for the whole suite (`GnomeSession`), as an unprivileged user, WidgetHost installed
/// into that user's home by scripts/install.sh and the extension enabled before the Shell starts;
/// the real host draws the Habit widgets (`png`, scale 1; nothing in them ticks) and the extension
/// starts `widgethost-desktop` itself. The desktop's background is GNOME's own, set to a plain
/// colour: a widget's picture is compared composed over the colour beside it, and Debian's
/// wallpaper changes under the widgets' rounded corners. Notification banners are off: the
/// Shell's start-up banner ("Screen Lock disabled") stays over the grid while no user input
/// comes. The Shell is asked through its own D-Bus interfaces
/// (Screenshot, RemoteDesktop, Extensions) and the extension's test-only interface, with gjs
/// (Fixtures/gnome-session-client.js). Every wait is for a condition.
///
/// A program that is not installed skips the suite, except under `CI=true` (scripts/install-deps.sh
/// installs them all).
@Suite(.serialized, GnomeSessionScope()) struct GnomeDesktopTests {
    static let patience = RealBarTests.patience
    static let habit = DesktopSurfaceTests.habit
    static let myApp = "MyAppWidget-systemSmall"

    /// The surface launched by the extension: the two widgets at the grid's place (top-right of
    /// the work area, margin 64 px), matching the host's pictures; below a normal window opened
    /// over it; on every workspace; never focused; absent from Alt-Tab, the dash and the Overview
    /// (which show that normal window); a click on Habit's button through a RemoteDesktop virtual
    /// pointer logs the habit and the new picture shows.
    @Test func theExtensionKeepsTheSurfaceOnTheDesktopAndItTakesClicks() throws {
        guard let g = try GnomeSession.require() else { return }
        try g.enableExtension()
        let surface = try g.surfaceWindow()
        let state = try g.state()
        let frames = g.frames(workArea: state.workArea)
        let habitFrame = try #require(frames[Self.habit])
        #expect(surface.x == habitFrame.x && surface.y == habitFrame.y && surface.width == 338 && surface.height == 158,
                "the surface's window is at \(surface), the grid at \(habitFrame) (338 × 158)")
        g.scene.expectShows(frames, dimmed: [], within: Self.patience, shot: g.screenshot, log: g.shell)
        #expect(surface.onAllWorkspaces && surface.skipTaskbar && !surface.inAltTab && !surface.inDash && !surface.focused,
                "\(surface)")
        #expect(surface.clientType == "wayland", "\(surface)")

        // A normal window over the Habit widget (Xwayland's xmessage): on top; the surface stays
        // below it, out of Alt-Tab and the Overview, which list that window.
        let xmessage = try #require(requireProgram("xmessage", package: "x11-utils"))
        let other = try g.scene.start(xmessage, ["-bg", "#ff00ff", "-geometry", "500x300+\(habitFrame.x - 100)+\(habitFrame.y + 50)",
                                                  "a window over the desktop"],
                                      name: "xmessage", extraEnvironment: g.xEnvironment(state), asUser: true)
        defer { other.signal(SIGTERM) }
        var window: GnomeSession.Window?
        #expect(eventually(timeout: Self.patience) {
            window = (try? g.state())?.windows.first { $0.title == "xmessage" && $0.width > 1 }
            return window != nil
        }, "no xmessage window:\n\(other.stderr)")
        let normal = try #require(window)
        let overlap = (x: max(normal.x, habitFrame.x), y: max(normal.y, habitFrame.y),
                       right: min(normal.x + normal.width, habitFrame.x + habitFrame.w), bottom: min(normal.y + normal.height, habitFrame.y + habitFrame.h))
        try #require(overlap.right - overlap.x > 20 && overlap.bottom - overlap.y > 20, "mutter put xmessage at \(normal), not over Habit at \(habitFrame)")
        #expect(eventually(timeout: Self.patience) {
            guard let image = g.screenshot() else { return false }
            // Near the overlap's bottom middle: in xmessage's client area, below mutter's title bar.
            return image.pixels[(overlap.bottom - 10) * image.width + (overlap.x + overlap.right) / 2] & 0xFF_FFFF == 0xFF_00FF
        }, "the surface shows through the window over it")
        let now = try g.state()
        let below = try #require(now.windows.first { $0.ours }), above = try #require(now.windows.first { $0.title == "xmessage" })
        #expect(below.stackIndex < above.stackIndex, "stacking: \(now.windows.map { "\($0.stackIndex) \($0.title)" })")
        #expect(above.inAltTab && !below.inAltTab && !below.focused, "\(now.windows)")
        let overview = try g.overviewWindows()
        #expect(overview.contains("xmessage") && !overview.contains(below.title), "the Overview shows \(overview)")
        // A click on the uncovered widget reaches the surface, which is not raised over the
        // window nor keeps the focus.
        let myApp = try #require(frames[Self.myApp])
        // A point of the widget the window over Habit leaves uncovered (at scale 1 it may reach
        // into MyApp's frame).
        let corners = [(myApp.x + myApp.w - 20, myApp.y + myApp.h - 20), (myApp.x + myApp.w - 20, myApp.y + 20)]
        let point = try #require(corners.first { p in
            !(p.0 >= normal.x - 4 && p.0 < normal.x + normal.width + 4 && p.1 >= normal.y - 4 && p.1 < normal.y + normal.height + 4)
        }, "the window over Habit, at \(normal), covers MyApp at \(myApp)")
        try g.click(x: point.0, y: point.1)
        #expect(eventually(timeout: Self.patience) { g.shell.stderr.contains("click on \(Self.myApp) at") }, "\(g.shell.stderr.suffix(2000))")
        #expect(eventually(timeout: Self.patience) {
            guard let after = try? g.state(), let s = after.windows.first(where: { $0.ours }), let w = after.windows.first(where: { $0.title == "xmessage" }),
                  let image = g.screenshot() else { return false }
            return s.stackIndex < w.stackIndex && w.focused && !s.focused
                && image.pixels[(overlap.bottom - 10) * image.width + (overlap.x + overlap.right) / 2] & 0xFF_FFFF == 0xFF_00FF
        }, "the click raised or focused the surface: \(String(describing: try? g.state().windows))")
        other.signal(SIGTERM)
        g.scene.expectShows(frames, dimmed: [], within: Self.patience, shot: g.screenshot, log: g.shell)

        // A click on Habit's Log button, found in the host's regions file: the habit is logged.
        let regions = try #require(readBytes(g.scene.out + "/" + PictureRegions.fileName(for: Self.habit)).flatMap { PictureRegions.decode(Data($0)) })
        let button = try #require(regions.regions.first { $0.kind == "button" }, "no button in \(regions)")
        let before = try #require(readBytes(g.scene.out + "/\(Self.habit).png"))
        let count = g.scene.session.text(Self.habit) ?? ""
        try g.click(x: habitFrame.x + Int(button.x + button.width / 2), y: habitFrame.y + Int(button.y + button.height / 2))
        #expect(eventually(timeout: Self.patience) { g.scene.session.text(Self.habit) != count },
                "the habit was not logged (\(count))\nshell:\n\(g.shell.stderr.suffix(3000))")
        #expect(eventually(timeout: Self.patience) { readBytes(g.scene.out + "/\(Self.habit).png").map { $0 != before } == true },
                "the picture was not redrawn after the click")
        g.scene.expectShows(frames, dimmed: [], within: Self.patience, shot: g.screenshot, log: g.shell)
    }

    /// The extension starts the surface again after it is killed (a new process, its window back
    /// in place), and stops it when the extension is disabled.
    @Test func theExtensionRestartsACrashedSurfaceAndStopsItWhenDisabled() throws {
        guard let g = try GnomeSession.require() else { return }
        try g.enableExtension()
        _ = try g.surfaceWindow()
        let first = try #require(try g.state().surfacePid)
        kill(pid_t(first), SIGKILL)
        var second: Int?
        #expect(eventually(timeout: Self.patience) {
            second = (try? g.state())?.surfacePid
            return second != nil && second != first
        }, "not restarted\nshell:\n\(g.shell.stderr.suffix(3000))")
        #expect(g.shell.stderr.contains("widgethost-desktop was killed by signal 9; starting it again in 1 s"), "\(g.shell.stderr.suffix(3000))")
        _ = try g.surfaceWindow()
        g.scene.expectShows(g.frames(workArea: try g.state().workArea), dimmed: [], within: Self.patience, shot: g.screenshot, log: g.shell)

        try g.disableExtension()
        #expect(eventually(timeout: Self.patience) { kill(pid_t(second ?? 0), 0) != 0 }, "the surface still runs after disable")
    }

    /// Without the extension: the surface says it is an Xwayland desktop window and how to get a
    /// native one, and it is one (`_NET_WM_WINDOW_TYPE_DESKTOP` on the Shell's Xwayland display),
    /// showing the widgets at the grid's place.
    @Test func withoutTheExtensionTheSurfaceIsAnXwaylandDesktopWindow() throws {
        guard let g = try GnomeSession.require() else { return }
        try g.enableExtension()
        let state = try g.state()
        try g.disableExtension()
        guard let xprop = requireProgram("xprop", package: "x11-utils"),
              let xdotool = requireProgram("xdotool", package: "xdotool") else { return }
        let desktop = try g.scene.start(g.scene.session.home + "/.local/bin/widgethost-desktop", [], name: "desktop-alone",
                                        extraEnvironment: g.sessionEnvironment(state), asUser: true)
        defer { desktop.signal(SIGTERM) }
        #expect(eventually(timeout: Self.patience) { desktop.stderr.contains("widget(s) from") }, "\(desktop.stderr)")
        #expect(desktop.stderr.contains("widgethost-desktop: GNOME Wayland without the WidgetHost GNOME Shell extension: an Xwayland desktop window "
                                        + "(for a native Wayland one kept on the desktop: scripts/install.sh --user, log out and in, then gnome-extensions enable widgethost-desktop@widgethost.github.io"),
                "\(desktop.stderr)")
        let x = g.xEnvironment(state)
        var window = ""
        #expect(eventually(timeout: Self.patience) {
            window = g.scene.session.run("/usr/bin/env", x + [xdotool, "search", "--onlyvisible", "--name", "^widgethost-desktop$"]).stdout
                .split(separator: "\n").first.map(String.init) ?? ""
            return !window.isEmpty
        }, "no X11 window of the surface on \(state.display ?? "?")\n\(desktop.stderr)")
        let props = g.scene.session.run("/usr/bin/env", x + [xprop, "-id", window, "_NET_WM_WINDOW_TYPE", "_NET_WM_STATE"]).stdout
        #expect(props.contains("_NET_WM_WINDOW_TYPE(ATOM) = _NET_WM_WINDOW_TYPE_DESKTOP"), "\(props)")
        #expect(props.contains("_NET_WM_STATE_BELOW") && props.contains("_NET_WM_STATE_SKIP_TASKBAR"), "\(props)")
        g.scene.expectShows(g.frames(workArea: state.workArea), dimmed: [], within: Self.patience, shot: g.screenshot, log: desktop)
        desktop.signal(SIGTERM)
        #expect(desktop.waitForExit(timeout: Self.patience) == 0, "\(desktop.stderr)")
    }
}

/// Starts the suite's GNOME session before its first test and stops it after its last.
struct GnomeSessionScope: SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let session = Result { try GnomeSession() }
        try await GnomeSession.$current.withValue(session) { try await function() }
        if case .success(let s?) = session { s.stop() }
    }
}

/// A headless GNOME Shell 43 (`--headless --wayland --virtual-monitor 1280x800`) as user
/// `nobody` in a `DesktopScene` of its own: a private system bus (a `dbus-daemon` on a socket of
/// the session), its session bus from `dbus-run-session`, WidgetHost installed by
/// scripts/install.sh (binaries, example bundles, the extension), the extension enabled with
/// `gsettings` before the Shell starts, and the real host running with the session's config.
///
/// Threading: used by one test at a time (the suite is serialized).
final class GnomeSession: @unchecked Sendable {
    /// nil when a program is missing outside CI (the tests then skip).
    @TaskLocal static var current: Result<GnomeSession?, any Error> = .success(nil)

    static let uuid = "widgethost-desktop@widgethost.github.io"
    static let user = "65534"
    let scene: DesktopScene
    let shell: BarProcess
    let host: BarProcess
    private let systemBus: BarProcess
    let waylandDisplay: String
    private let sessionBus: String
    private let gjs: String
    private let client: String

    /// The suite's session; nil when a program it needs is not installed (outside CI: the test
    /// returns); throws why it could not start.
    static func require() throws -> GnomeSession? { try current.get() }

    convenience init?() throws {
        guard let gnomeShell = requireProgram("gnome-shell", package: "gnome-shell"),
              let gjs = requireProgram("gjs", package: "gjs"),
              requireProgram("Xwayland", package: "xwayland") != nil,
              let runSession = requireProgram("dbus-run-session", package: "dbus-daemon"),
              let dbusDaemon = requireProgram("dbus-daemon", package: "dbus-daemon") else { return nil }
        try self.init(gnomeShell: gnomeShell, gjs: gjs, runSession: runSession, dbusDaemon: dbusDaemon)
    }

    private init(gnomeShell: String, gjs: String, runSession: String, dbusDaemon: String) throws {
        let scene = try DesktopScene(display: nil, anchor: "top-right", unprivileged: true, plugins: ["HabitWidget"])
        self.scene = scene
        self.gjs = gjs
        let session = scene.session
        scene.writeConfig("""
            {"widgets": [{"kind": "InteractiveHabit", "family": "systemSmall", "outputs": ["files", "png"]},
                         {"kind": "MyAppWidget", "family": "systemSmall", "outputs": ["files", "png"]}],
             "defaults": {"picture": {"scale": 1}},
             "desktop": {"widgets": ["\(GnomeDesktopTests.habit)", "\(GnomeDesktopTests.myApp)"], "anchor": "top-right", "margin": 32, "scale": 1}}
            """)
        scene.picturePath = { [out = scene.out] in out + "/\($0).png" }
        // WidgetHost as a user installs it: binaries, bundles and the GNOME extension.
        let install = run("/bin/bash", [TestPaths.repoRoot + "/scripts/install.sh", "--user", "--from", TestPaths.products, "--no-systemctl"],
                          environment: ["HOME": session.home, "XDG_CONFIG_HOME": session.home + "/.config", "XDG_DATA_HOME": session.home + "/.local/share"])
        try #require(install.status == 0, "install.sh: \(install.stderr)")
        try #require(install.stderr.contains("gnome-extensions enable \(Self.uuid)"), "install.sh did not install the extension: \(install.stderr)")
        client = session.dir.path + "/gnome-session-client.js"
        try #require(run("/bin/cp", [TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/gnome-session-client.js", client]).status == 0)
        let systemBusSocket = session.dir.path + "/system_bus", busConfig = session.dir.path + "/system-bus.conf"
        FileManagerFree.write(busConfig, """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig><type>system</type><listen>unix:path=\(systemBusSocket)</listen><auth>EXTERNAL</auth>
            <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
            """)
        session.handOver()
        let clean = ["/usr/bin/env", "-i", "HOME=\(session.home)", "XDG_RUNTIME_DIR=\(session.runtime)", "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"]
        systemBus = try scene.start(clean[0], Array(clean.dropFirst()) + [dbusDaemon, "--config-file=\(busConfig)", "--nofork", "--nopidfile"],
                            name: "system-bus", asUser: true)
        try #require(eventually(timeout: 10) { FileManagerFree.exists(systemBusSocket) }, "no private system bus")
        host = try scene.start(session.home + "/.local/bin/widgethost", ["run", "--log-level", "debug"], name: "host", asUser: true)
        waylandDisplay = "widgethost-gnome-\(getpid())"
        sessionBus = session.dir.path + "/session-bus"
        let script = "echo \"$DBUS_SESSION_BUS_ADDRESS\" > \(sessionBus).tmp && mv \(sessionBus).tmp \(sessionBus) && "
            + "gsettings set org.gnome.shell enabled-extensions \"['\(Self.uuid)']\" && "
            + "gsettings set org.gnome.desktop.background picture-options none && "
            + "gsettings set org.gnome.desktop.background primary-color '#204a87' && "
            + "gsettings set org.gnome.desktop.notifications show-banners false && "
            + "exec \(gnomeShell) --headless --wayland --virtual-monitor 1280x800 --wayland-display \(waylandDisplay)"
        shell = try scene.start(clean[0], Array(clean.dropFirst()) + [
            "DBUS_SYSTEM_BUS_ADDRESS=unix:path=\(systemBusSocket)", "XDG_SESSION_TYPE=wayland", "XDG_CURRENT_DESKTOP=GNOME",
            "LIBGL_ALWAYS_SOFTWARE=1", "WIDGETHOST_GNOME_TEST=1", runSession, "--", "/bin/sh", "-c", script,
        ], name: "gnome-shell", asUser: true)
        try #require(eventually(timeout: 180) { (try? self.state()) != nil }, "GNOME Shell did not start:\n\(shell.stderr.suffix(4000))")
        // The Shell starts in the Overview (once its start-up animation is over): Escape, as a
        // user would, to see the desktop.
        eventually(timeout: GnomeDesktopTests.patience) { (try? self.state())?.overview == true }
        try showDesktop()
    }

    /// Leaves the Overview (Escape on a virtual keyboard) if it is up.
    func showDesktop() throws {
        try #require(eventually(timeout: GnomeDesktopTests.patience) {
            if (try? self.state())?.overview == false { return true }
            _ = try? self.gjsRun(["key", "0xff1b"])
            return eventually(timeout: 3) { (try? self.state())?.overview == false }
        }, "the Overview stays up")
    }

    /// Ends the Shell with everything it and its session bus started (one process group: the
    /// surface, Xwayland, the services the bus activated), then the rest of the scene.
    func stop() {
        for p in [shell, systemBus] {
            kill(-p.pid, SIGTERM)
            if p.waitForExit(timeout: 10) == nil { kill(-p.pid, SIGKILL); _ = p.waitForExit(timeout: 10) }
            kill(-p.pid, SIGKILL)
        }
        // The document portal the session started mounts a FUSE file system in the runtime folder.
        if FileManagerFree.read("/proc/mounts")?.contains(scene.session.runtime + "/doc") == true {
            _ = run("/bin/umount", ["-l", scene.session.runtime + "/doc"])
        }
        scene.stop()
    }

    // MARK: - Asking the Shell

    struct Window: Decodable, CustomStringConvertible {
        var title: String, pid: Int?, ours: Bool, stackIndex: Int
        var x: Int, y: Int, width: Int, height: Int
        var clientType: String, type: String?, onAllWorkspaces: Bool, skipTaskbar: Bool, inAltTab: Bool, inDash: Bool, focused: Bool
        var description: String { "\(title) (pid \(pid ?? 0), \(clientType) \(type ?? "?")) at \(x),\(y) \(width)×\(height), stack \(stackIndex)"
            + "\(onAllWorkspaces ? ", sticky" : "")\(skipTaskbar ? ", skip-taskbar" : "")\(inAltTab ? ", in Alt-Tab" : "")\(inDash ? ", in the dash" : "")\(focused ? ", focused" : "")" }
    }
    struct Rect: Decodable { var x: Int, y: Int, width: Int, height: Int }
    struct State: Decodable {
        var display: String?, xauthority: String?, workArea: Rect, surfacePid: Int?, surfaceStarts: Int, overview: Bool
        var windows: [Window]
    }

    /// Runs the gjs client as the session's user on its session bus.
    @discardableResult
    func gjsRun(_ args: [String]) throws -> String {
        let bus = FileManagerFree.read(sessionBus)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let r = run("/usr/bin/setpriv", ["--reuid=\(Self.user)", "--regid=\(Self.user)", "--clear-groups", "/usr/bin/env", "-i",
                                         "HOME=\(scene.session.home)", "XDG_RUNTIME_DIR=\(scene.session.runtime)", "DBUS_SESSION_BUS_ADDRESS=\(bus)",
                                         gjs, client] + args)
        guard r.status == 0 else { throw GnomeAskFailed(description: "gjs \(args.joined(separator: " ")): \(r.stderr)") }
        return r.stdout
    }
    struct GnomeAskFailed: Error, CustomStringConvertible { var description: String }

    func state() throws -> State { try WireCodec.decode(State.self, from: Data(try gjsRun(["state"]).utf8)) }

    func overviewWindows() throws -> [String] { try WireCodec.decode([String].self, from: Data(try gjsRun(["overview"]).utf8)) }

    /// A screenshot through org.gnome.Shell.Screenshot, decoded; nil when it failed.
    var screenshot: () -> PixelImage? {
        { [self] in scene.shot { path in (try? gjsRun(["screenshot", path])).map { _ in () } } }
    }

    func click(x: Int, y: Int) throws { try gjsRun(["click", "\(x)", "\(y)", "1280", "800"]) }

    /// The surface's window once the extension has it in place (shown, sized).
    func surfaceWindow() throws -> Window {
        var found: Window?
        try #require(eventually(timeout: GnomeDesktopTests.patience) {
            found = (try? state())?.windows.first { $0.ours && $0.width > 1 }
            return found != nil && found!.width == 338
        }, "no surface window kept by the extension: \(String(describing: found))\nshell:\n\(shell.stderr.suffix(4000))\nhost:\n\(host.stderr.suffix(2000))")
        return found!
    }

    /// Enables the extension (if it is not) and leaves the Overview.
    func enableExtension() throws {
        let r = run("/usr/bin/setpriv", extensionsCommand("enable"))
        try #require(r.status == 0, "gnome-extensions enable: \(r.stderr)")
        try #require(eventually(timeout: GnomeDesktopTests.patience) { (try? state()) != nil }, "the extension did not come up")
        try showDesktop()
    }

    func disableExtension() throws {
        let r = run("/usr/bin/setpriv", extensionsCommand("disable"))
        try #require(r.status == 0, "gnome-extensions disable: \(r.stderr)")
        try #require(eventually(timeout: GnomeDesktopTests.patience) { (try? state()) == nil }, "the extension is still enabled")
    }

    private func extensionsCommand(_ verb: String) -> [String] {
        let bus = FileManagerFree.read(sessionBus)?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return ["--reuid=\(Self.user)", "--regid=\(Self.user)", "--clear-groups", "/usr/bin/env", "-i", "HOME=\(scene.session.home)",
                "XDG_RUNTIME_DIR=\(scene.session.runtime)", "DBUS_SESSION_BUS_ADDRESS=\(bus)", "/usr/bin/gnome-extensions", verb, Self.uuid]
    }

    /// What an X11 client of the Shell's Xwayland needs.
    func xEnvironment(_ state: State) -> [String] {
        ["DISPLAY=\(state.display ?? "")", "XAUTHORITY=\(state.xauthority ?? "")"]
    }

    /// What a program started in the GNOME session has (gnome-session sets these).
    func sessionEnvironment(_ state: State) -> [String] {
        xEnvironment(state) + ["WAYLAND_DISPLAY=\(waylandDisplay)", "XDG_CURRENT_DESKTOP=GNOME", "XDG_SESSION_TYPE=wayland"]
    }

    /// The two widgets' places on screen: the grid (338 × 158 px at the monitor's scale 1) at the
    /// top-right corner of the work area, 32 px in.
    func frames(workArea a: Rect) -> [String: (x: Int, y: Int, w: Int, h: Int)] {
        let x = a.x + a.width - 32 - 338, y = a.y + 32
        return [GnomeDesktopTests.habit: (x, y, 158, 158), GnomeDesktopTests.myApp: (x + 180, y, 158, 158)]
    }
}
