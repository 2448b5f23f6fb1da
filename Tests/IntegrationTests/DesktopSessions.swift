import FoundationEssentials
import Synchronization
import Testing
import WidgetGraphics
#if canImport(Glibc)
import Glibc
#endif

/// A rectangle of a session's screen, in screen pixels.
struct ScreenRect: CustomStringConvertible {
    var x: Int, y: Int, width: Int, height: Int
    var center: (x: Int, y: Int) { (x + width / 2, y + height / 2) }
    var description: String { "\(width)×\(height) at (\(x), \(y))" }
}

/// What a desktop's own surfaces know of a program's windows: whether its task bar (Xfce's
/// panel, Plasma's task manager, sway's window tree and foreign-toplevel list) would list one,
/// and the facts read, for messages.
struct SurfaceFacts {
    var listedInTaskbar: Bool
    /// Whether the desktop has any window of the process; nil where it cannot tell (sway lists no
    /// layer-shell surface).
    var seen: Bool?
    var evidence: String
}

/// A real desktop session, started headless the way the desktop really starts (its compositor or
/// window manager, its wallpaper, its shell), as an unprivileged user with a private HOME,
/// XDG_RUNTIME_DIR and session bus, on a display number or socket picked free at run time.
/// Every process it started is killed on `stop()` (each was started in a session of its own and
/// is found by that session id, whatever process group it moved to).
///
/// Threading: one test at a time (the suites using a session are serialized).
protocol DesktopSession: AnyObject {
    /// The desktop and its version, as the docs' table names it.
    var name: String { get }
    var width: Int { get }
    var height: Int { get }
    /// The corner (`desktop.anchor`) no panel of this desktop covers, where the grid goes.
    var freeCorner: String { get }
    /// The variables a client of the session needs (`WAYLAND_DISPLAY`, `DISPLAY`, `GDK_BACKEND`).
    var clientEnvironment: [String: String] { get }
    /// The whole screen as the user sees it.
    func screenshot(into path: String) -> PixelImage?
    /// A normal application window (magenta, `coverColor`) over `rect`; it closes when the
    /// returned process is stopped.
    func openWindow(over rect: ScreenRect) throws -> SessionProcess
    /// A real left click at a point of the screen (the desktop's own input path).
    func click(x: Int, y: Int) -> Bool
    /// What the desktop's task bar and window list know of the windows of process `pid` (on X11
    /// also of the windows named `name`, for a client that does not set `_NET_WM_PID`).
    func facts(ofProcess pid: pid_t, named name: String) -> SurfaceFacts
    /// Restarts the wallpaper the way the desktop does (its own command or a new process);
    /// returns what was done, for messages.
    func restartWallpaper() throws -> String
    func stop()
}

/// The colour of the windows `openWindow(over:)` opens.
let coverColor: UInt32 = 0xFF_00FF

extension DesktopSession {
    /// Whether the wallpaper shows at `rect` of `image`: not one flat colour (a compositor
    /// without a wallpaper paints one) and not black.
    func wallpaperShows(_ image: PixelImage, in rect: ScreenRect) -> Bool {
        var seen = Set<UInt32>(), brightness = 0
        for y in stride(from: rect.y, to: rect.y + rect.height, by: 4) {
            for x in stride(from: rect.x, to: rect.x + rect.width, by: 4) {
                let p = image.pixels[y * image.width + x] & 0xFF_FFFF
                seen.insert(p)
                brightness += Int(p >> 16) + Int((p >> 8) & 0xFF) + Int(p & 0xFF)
            }
        }
        return seen.count > 3 && brightness / max(1, (rect.width / 4) * (rect.height / 4)) > 60
    }
}

extension PixelImage {
    /// How many pixels of `rect`, outside `hole`, differ from `other`'s (the picture goldens'
    /// threshold).
    func differingPixels(in rect: ScreenRect, from other: PixelImage, except hole: ScreenRect) -> Int {
        var count = 0
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) where !(hole.x..<(hole.x + hole.width)).contains(x) || !(hole.y..<(hole.y + hole.height)).contains(y) {
                let a = pixels[y * width + x], b = other.pixels[y * other.width + x]
                if [0, 8, 16].contains(where: { (shift: UInt32) in abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)) > PictureGoldenTests.threshold }) {
                    count += 1
                }
            }
        }
        return count
    }
}

// MARK: - Processes of a session

/// A process started in a session of its own (`setsid`), optionally as the unprivileged user:
/// `stop()` kills every process still in that session — the program and whatever it started,
/// in any process group — then reaps the leader. The session id stays reserved while any
/// process of the session lives, so it names no other process.
final class SessionProcess {
    let process: BarProcess
    var pid: pid_t { process.pid }
    var stderr: String { process.stderr }
    var stdout: String { process.stdout }

    init(_ program: String, _ args: [String], dir: String, name: String, environment: [String], asUser: Bool) throws {
        let user = asUser ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []
        process = try BarProcess("/usr/bin/setsid", user + [program] + args, dir: dir, name: name, stdin: .file("/dev/null"),
                                 environment: environment)
    }

    private var stopped = false

    deinit { stop() }

    /// The pids of the processes whose session is this one's.
    var members: [pid_t] {
        FileManagerFree.names(in: "/proc").compactMap { pid_t($0) }.filter { p in
            guard let stat = FileManagerFree.read("/proc/\(p)/stat"), let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 3 && pid_t(fields[3]) == pid
        }
    }

    func signal(_ s: Int32) { kill(pid, s) }

    func stop() {
        guard !stopped else { return }
        stopped = true
        for p in members { kill(p, SIGTERM) }
        eventually(timeout: 3) { members.allSatisfy { $0 == pid } }
        for p in members { kill(p, SIGKILL) }
        process.signal(SIGKILL)
        _ = process.waitForExit(timeout: 10)
    }
}

/// The folders of a session's unprivileged user (`nobody`): HOME, XDG_RUNTIME_DIR (0700) and a
/// session bus of its own, and the processes started in it (stopped in reverse order).
final class SessionHome {
    let dir = TempDir()
    var home: String { dir.path + "/home" }
    var runtime: String { dir.path + "/run" }
    var busAddress: String { "unix:path=" + runtime + "/bus" }
    private(set) var processes: [SessionProcess] = []
    private var bus: SessionProcess?

    init() throws {
        chmod(dir.path, 0o755)
        for d in [home, runtime, home + "/.config"] { mkdir(d, 0o700) }
        try #require(run("/bin/chown", ["-R", "65534:65534", home, runtime]).status == 0)
        bus = try start("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=" + busAddress], name: "dbus")
        try #require(eventually(timeout: RealBarTests.patience) { FileManagerFree.exists(runtime + "/bus") },
                     "the session bus did not start: \(bus?.stderr ?? "")")
    }

    /// The user's environment: a clean one, as a login gives it.
    var environment: [String] {
        ["HOME=\(home)", "XDG_RUNTIME_DIR=\(runtime)", "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "USER=nobody",
         "DBUS_SESSION_BUS_ADDRESS=\(busAddress)"]
    }

    /// Starts `program` as the session's user, in a session of its own.
    @discardableResult
    func start(_ program: String, _ args: [String], name: String, extraEnvironment: [String] = []) throws -> SessionProcess {
        let p = try SessionProcess(program, args, dir: dir.path, name: name, environment: environment + extraEnvironment, asUser: true)
        processes.append(p)
        return p
    }

    /// Runs a program to completion as the session's user (its session bus admits no one else).
    func runAsUser(_ program: String, _ args: [String], extraEnvironment: [String: String] = [:]) -> ProcessResult {
        var env: [String: String] = [:]
        for e in environment { let kv = e.split(separator: "=", maxSplits: 1); env[String(kv[0])] = String(kv[1]) }
        env.merge(extraEnvironment) { $1 }
        return run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--", "/usr/bin/env", "-i"]
                   + env.map { "\($0.key)=\($0.value)" } + [program] + args)
    }

    /// `Fixtures/cover_window.c`: a normal magenta window titled `title` asking for `rect`.
    func openCoverWindow(title: String, over rect: ScreenRect, extraEnvironment: [String]) throws -> SessionProcess {
        let program = try compileFixture("cover_window", libraries: pkgConfig(["--cflags", "--libs", "gtk+-3.0"]))
        return try start(program, [title, "\(rect.x)", "\(rect.y)", "\(rect.width)", "\(rect.height)"], name: "cover",
                         extraEnvironment: extraEnvironment)
    }

    /// Writes a file of the user's (owned by it).
    func write(_ path: String, _ text: String) {
        _ = run("/bin/mkdir", ["-p", String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])])
        FileManagerFree.write(path, text)
        _ = run("/bin/chown", ["-R", "65534:65534", home])
    }

    /// Stops every process started in the session, then whatever else carries its HOME (the
    /// services its session bus activated, which leave the session they were started from).
    func stop() {
        processes.reversed().forEach { $0.stop() }
        processes.removeAll()
        let marker = Array("HOME=\(home)\0".utf8)
        for p in FileManagerFree.names(in: "/proc").compactMap({ pid_t($0) }) {
            guard let env = FileManagerFree.bytes("/proc/\(p)/environ"), env.count >= marker.count else { continue }
            if (0...(env.count - marker.count)).contains(where: { i in (i == 0 || env[i - 1] == 0) && env[i..<(i + marker.count)].elementsEqual(marker) }) {
                kill(p, SIGKILL)
            }
        }
        dir.remove()
    }
}

/// What a test process started for the tests of a desktop and shares between them (its session,
/// host and surface): stopped when the process exits, since no test owns it.
enum AtExit {
    private static let stops = Mutex<[@Sendable () -> Void]>([])

    /// Runs `stop` when the test process exits, after the ones registered later.
    static func stop(_ stop: @escaping @Sendable () -> Void) {
        stops.withLock { list in
            if list.isEmpty { atexit { AtExit.runAll() } }
            list.append(stop)
        }
    }

    private static func runAll() {
        let all = stops.withLock { list in defer { list.removeAll() }; return list }
        all.reversed().forEach { $0() }
    }
}

/// A screenshot of an X screen (`import -window root`).
func xScreenshot(display: String, into path: String) -> PixelImage? {
    guard run("/usr/bin/import", ["-window", "root", path], environment: ["DISPLAY": display]).status == 0 else { return nil }
    return readBytes(path).flatMap(PixelImage.decodePNG)
}

/// An Xvfb of the session's user on a display number it picks itself (`-displayfd`).
func startXvfb(in home: SessionHome, width: Int, height: Int) throws -> (process: SessionProcess, display: String) {
    let p = try home.start("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp", "-noreset"],
                           name: "xvfb")
    return (p, try DisplayFD.display(printed: { p.stdout }, timeout: RealBarTests.patience, server: "Xvfb") { p.stderr })
}

/// X11 facts of a program's windows: each window of `pid` (`_NET_WM_PID`) or named `name` that
/// the window manager manages (`_NET_CLIENT_LIST`) is listed by a task bar unless its state has
/// `_NET_WM_STATE_SKIP_TASKBAR` or its type is a desktop or dock (libwnck's rule, which Xfce's
/// and GNOME's task lists follow).
func x11Facts(display: String, pid: pid_t, name: String) -> SurfaceFacts {
    let env = ["DISPLAY": display]
    let managed = run("/usr/bin/xprop", ["-root", "_NET_CLIENT_LIST"], environment: env).stdout
        .split(separator: "#").last.map { $0.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2), radix: 16) } } ?? []
    let windows = Set([["--pid", "\(pid)"], ["--name", "^\(name)$"]].flatMap { how in
        run("/usr/bin/xdotool", ["search"] + how, environment: env).stdout.split(separator: "\n").compactMap { Int($0) }
    }).sorted()
    var evidence = "managed: \(managed.map { String($0, radix: 16) }); windows of \(pid) or named \(name): \(windows.map { String($0, radix: 16) })"
    var listed = false
    let mine = windows.filter { managed.contains($0) }
    for w in mine {
        let props = run("/usr/bin/xprop", ["-id", "\(w)", "_NET_WM_STATE", "_NET_WM_WINDOW_TYPE"], environment: env).stdout
        evidence += "\n0x\(String(w, radix: 16)): \(props)"
        let special = props.contains("_NET_WM_WINDOW_TYPE_DESKTOP") || props.contains("_NET_WM_WINDOW_TYPE_DOCK")
        if !props.contains("_NET_WM_STATE_SKIP_TASKBAR") && !special { listed = true }
    }
    return SurfaceFacts(listedInTaskbar: listed, seen: !mine.isEmpty, evidence: evidence)
}

// MARK: - sway

/// sway 1.7 as users run it: the stock `/etc/sway/config` (a `swaybg` wallpaper, swaybar) with
/// one output line, on the headless backend with pixman rendering. Clicks through a virtual
/// pointer (`Fixtures/virtual_pointer_click.c`: headless sway has no pointer of its own).
final class SwaySession: DesktopSession, @unchecked Sendable {
    let name = "sway 1.7"
    let width = 1280, height = 800
    let freeCorner = "bottom-left"   // swaybar is at the top
    let home: SessionHome
    let socket: String
    let ipc: String
    private let wallpaper = "/usr/share/backgrounds/sway/Sway_Wallpaper_Blue_1920x1080.png"
    /// The session's pointer (`Fixtures/virtual_pointer_click.c`), alive as long as the session.
    private var pointer: BarProcess?
    private var shots = 0

    init() throws {
        let home = try SessionHome()
        self.home = home
        let config = home.home + "/.config/sway/config"
        home.write(config, "include /etc/sway/config\noutput HEADLESS-1 resolution \(width)x\(height)\n")
        let sway = try home.start("/usr/bin/sway", ["-c", config], name: "sway",
                                  extraEnvironment: ["WLR_BACKENDS=headless", "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman"])
        var socket = "", ipc = ""
        try #require(eventually(timeout: RealBarTests.patience) {
            let names = FileManagerFree.names(in: home.runtime)
            socket = names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") } ?? ""
            ipc = names.first { $0.hasPrefix("sway-ipc.") } ?? ""
            return !socket.isEmpty && !ipc.isEmpty
        }, "sway did not start:\n\(sway.stderr.suffix(3000))")
        self.socket = home.runtime + "/" + socket
        self.ipc = home.runtime + "/" + ipc
        try #require(eventually(timeout: RealBarTests.patience) { self.wallpaperUp() }, "swaybg drew no wallpaper:\n\(sway.stderr.suffix(3000))")
        let clicker = try compileFixture("virtual_pointer_click", libraries: ["-lwayland-client"])
        var env = currentEnvironment()
        for (k, v) in clientEnvironment { env.removeAll { $0.hasPrefix(k + "=") }; env.append("\(k)=\(v)") }
        let pointer = try BarProcess(clicker, ["\(width)", "\(height)"], dir: home.dir.path, name: "pointer", stdoutPipe: true,
                                     environment: env, ownGroup: true)
        try #require(pointer.readLine(timeout: RealBarTests.patience) == "ready", "no virtual pointer: \(pointer.stderr)")
        self.pointer = pointer
    }

    var clientEnvironment: [String: String] { ["WAYLAND_DISPLAY": socket, "GDK_BACKEND": "wayland", "XDG_RUNTIME_DIR": home.runtime] }

    func wallpaperUp() -> Bool {
        shots += 1
        return screenshot(into: home.dir.path + "/probe-\(shots).png").map { wallpaperShows($0, in: ScreenRect(x: 900, y: 100, width: 200, height: 200)) } ?? false
    }

    func screenshot(into path: String) -> PixelImage? {
        guard run("/usr/bin/grim", [path], environment: clientEnvironment).status == 0 else { return nil }
        return readBytes(path).flatMap(PixelImage.decodePNG)
    }

    func swaymsg(_ args: [String]) -> ProcessResult { run("/usr/bin/swaymsg", ["-s", ipc] + args) }

    /// A normal window (`xdg_toplevel`), floated and moved over `rect` by sway's own commands.
    func openWindow(over rect: ScreenRect) throws -> SessionProcess {
        let title = "widgethost-cover-\(UInt32.random(in: 0...UInt32.max))"
        let p = try home.openCoverWindow(title: title, over: rect, extraEnvironment: ["WAYLAND_DISPLAY=\(socket)", "GDK_BACKEND=wayland"])
        try #require(eventually(timeout: RealBarTests.patience) { swaymsg(["-t", "get_tree"]).stdout.contains(title) },
                     "the window did not open: \(p.stderr)")
        // sway's `move position` counts from the workspace's corner, below swaybar.
        let workspace = swaymsg(["-t", "get_workspaces"]).stdout
        let top = workspace.range(of: "\"y\": ").flatMap { Int(workspace[$0.upperBound...].prefix { $0.isNumber }) } ?? 0
        let placed = swaymsg(["[title=\"\(title)\"] floating enable, border none, resize set \(rect.width) \(rect.height), move position \(rect.x) \(rect.y - top)"])
        try #require(placed.status == 0 && !placed.stdout.contains("\"success\": false"), "swaymsg: \(placed.stdout)\(placed.stderr)")
        return p
    }

    func click(x: Int, y: Int) -> Bool {
        pointer?.send("\(x) \(y)\n")
        return pointer?.readLine(timeout: RealBarTests.patience) == "clicked"
    }

    /// sway lists every window it manages (`xdg_toplevel` or Xwayland) in its tree, which its
    /// foreign-toplevel list and swaybar's task list follow: a window of `pid` there is listed.
    func facts(ofProcess pid: pid_t, named name: String) -> SurfaceFacts {
        let tree = swaymsg(["-t", "get_tree"]).stdout
        let listed = tree.contains("\"pid\": \(pid),")
        return SurfaceFacts(listedInTaskbar: listed, seen: listed ? true : nil,
                            evidence: listed ? "sway's tree has a window of pid \(pid)" : "no window of pid \(pid) in sway's tree")
    }

    /// Kills swaybg; sway 1.7 does not start it again, so the wallpaper comes back through sway's
    /// own `output * bg` command (a new swaybg), as a user or a theme switcher does.
    func restartWallpaper() throws -> String {
        let swaybg = home.processes.flatMap(\.members).filter { (FileManagerFree.read("/proc/\($0)/comm") ?? "") == "swaybg\n" }
        try #require(!swaybg.isEmpty, "no swaybg runs")
        swaybg.forEach { kill($0, SIGTERM) }
        let restarted = eventually(timeout: 3) {
            home.processes.flatMap(\.members).contains { !swaybg.contains($0) && FileManagerFree.read("/proc/\($0)/comm") == "swaybg\n" }
        }
        if !restarted {
            let r = swaymsg(["output", "*", "bg", wallpaper, "fill"])
            try #require(r.status == 0, "swaymsg output * bg: \(r.stdout)\(r.stderr)")
        }
        try #require(eventually(timeout: RealBarTests.patience) { wallpaperUp() }, "the wallpaper did not come back")
        return restarted ? "sway restarted swaybg" : "swaybg killed; `swaymsg output * bg … fill` started a new one"
    }

    func stop() {
        pointer = nil
        home.stop()
    }
}

// MARK: - Xfce

/// Xfce 4.18 as its session starts the desktop: Xvfb, xfwm4 (the window manager, with its
/// compositor) and xfdesktop (the desktop window with the wallpaper). Clicks with xdotool.
final class XfceSession: DesktopSession, @unchecked Sendable {
    let name = "Xfce 4.18 (xfwm4 + xfdesktop)"
    let width = 1280, height = 800
    let freeCorner = "bottom-left"
    let home: SessionHome
    let display: String
    private var shots = 0

    init() throws {
        home = try SessionHome()
        let x = try startXvfb(in: home, width: width, height: height)
        display = x.display
        let env = ["DISPLAY=\(display)", "XDG_CURRENT_DESKTOP=XFCE", "XDG_SESSION_TYPE=x11"]
        let wm = try home.start("/usr/bin/xfwm4", ["--replace"], name: "xfwm4", extraEnvironment: env)
        try #require(eventually(timeout: RealBarTests.patience) {
            run("/usr/bin/xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"], environment: ["DISPLAY": display]).stdout.contains("window id")
        }, "xfwm4 did not start:\n\(wm.stderr)")
        let desktop = try home.start("/usr/bin/xfdesktop", [], name: "xfdesktop", extraEnvironment: env)
        try #require(eventually(timeout: RealBarTests.patience) { self.wallpaperUp() }, "xfdesktop drew no wallpaper:\n\(desktop.stderr)")
    }

    var clientEnvironment: [String: String] { ["DISPLAY": display, "GDK_BACKEND": "x11"] }

    func wallpaperUp() -> Bool {
        shots += 1
        return screenshot(into: home.dir.path + "/probe-\(shots).png").map { wallpaperShows($0, in: ScreenRect(x: 900, y: 100, width: 200, height: 200)) } ?? false
    }

    func screenshot(into path: String) -> PixelImage? { xScreenshot(display: display, into: path) }

    /// A normal window, placed by xfwm4 where it asks to be.
    func openWindow(over rect: ScreenRect) throws -> SessionProcess {
        try home.openCoverWindow(title: "widgethost-cover", over: rect, extraEnvironment: ["DISPLAY=\(display)", "GDK_BACKEND=x11"])
    }

    func click(x: Int, y: Int) -> Bool {
        run("/usr/bin/xdotool", ["mousemove", "\(x)", "\(y)", "click", "1"], environment: ["DISPLAY": display]).status == 0
    }

    func facts(ofProcess pid: pid_t, named name: String) -> SurfaceFacts { x11Facts(display: display, pid: pid, name: name) }

    func restartWallpaper() throws -> String {
        let r = home.runAsUser("/usr/bin/xfdesktop", ["--reload"], extraEnvironment: ["DISPLAY": display])
        try #require(r.status == 0, "xfdesktop --reload: \(r.stderr)")
        try #require(eventually(timeout: RealBarTests.patience) { wallpaperUp() }, "the wallpaper did not come back")
        return "xfdesktop --reload"
    }

    func stop() { home.stop() }
}

/// Compiles `Fixtures/<name>.c` once per test process into the build folder (renamed into
/// place, so parallel test processes never run a half-written file); returns its path.
func compileFixture(_ name: String, libraries: [String]) throws -> String {
    try CompiledFixtures.built.withLock { built in
        if let path = built[name] { return path }
        let dir = TestPaths.products + "/test-fixtures"
        mkdir(dir, 0o755)
        let out = dir + "/" + name, temp = out + ".\(getpid()).tmp"
        let r = run("/usr/bin/cc", ["-O2", "-o", temp, TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/\(name).c"] + libraries)
        try #require(r.status == 0 && rename(temp, out) == 0, "cc \(name).c: \(r.stderr)")
        chmod(out, 0o755)
        built[name] = out
        return out
    }
}

private enum CompiledFixtures {
    static let built = Mutex<[String: String]>([:])
}

/// `pkg-config ARGS`, split into arguments.
func pkgConfig(_ args: [String]) -> [String] {
    run("/usr/bin/pkg-config", args).stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
}

// MARK: - KDE Plasma

/// KDE Plasma 5.27 as its session starts it, headless: kwin_wayland windowed inside a private
/// Xvfb (a copy of the binary without Debian's `cap_sys_resource` file capability, which this
/// sandbox refuses; QPainter compositing, since its OpenGL one cannot bind pixmaps here), then
/// kactivitymanagerd and plasmashell (the desktop with its wallpaper, the panel with its task
/// manager) as its Wayland clients. Clicks with xdotool on the Xvfb, which KWin's window passes
/// on as its pointer; screenshots of the Xvfb show KWin's output. KWin's own facts (window list,
/// placement) through its scripting D-Bus interface.
final class PlasmaSession: DesktopSession, @unchecked Sendable {
    let name = "KDE Plasma 5.27 (kwin_wayland + plasmashell)"
    let width = 1280, height = 800
    let freeCorner = "top-right"   // Plasma's default panel is at the bottom
    let home: SessionHome
    let display: String
    let socket: String
    private let kwin: SessionProcess
    private var shots = 0, scripts = 0

    init() throws {
        home = try SessionHome()
        let x = try startXvfb(in: home, width: width, height: height)
        display = x.display
        let binary = home.dir.path + "/kwin_wayland"
        try #require(run("/bin/cp", ["/usr/bin/kwin_wayland", binary]).status == 0)   // cp drops the file capability
        chmod(binary, 0o755)
        kwin = try home.start(binary, ["--x11-display", display, "--width", "\(width)", "--height", "\(height)",
                                       "--socket", "wayland-0", "--no-lockscreen"], name: "kwin",
                              extraEnvironment: ["KWIN_COMPOSE=Q", "KWIN_WAYLAND_NO_PERMISSION_CHECKS=1", "XDG_CURRENT_DESKTOP=KDE",
                                                 "LIBGL_ALWAYS_SOFTWARE=1", "QT_LOGGING_RULES=js.debug=true"])
        socket = home.runtime + "/wayland-0"
        try #require(eventually(timeout: RealBarTests.patience) { FileManagerFree.exists(self.socket) }, "kwin_wayland did not start:\n\(kwin.stderr.suffix(3000))")
        try home.start("/usr/lib/x86_64-linux-gnu/libexec/kactivitymanagerd", [], name: "kactivitymanagerd", extraEnvironment: shellEnvironment)
        try startShell()
    }

    private var shellEnvironment: [String] {
        ["WAYLAND_DISPLAY=wayland-0", "QT_QPA_PLATFORM=wayland", "XDG_CURRENT_DESKTOP=KDE", "XDG_SESSION_TYPE=wayland",
         "KDE_FULL_SESSION=true", "LIBGL_ALWAYS_SOFTWARE=1"]
    }

    private func startShell() throws {
        let shell = try home.start("/usr/bin/plasmashell", ["--no-respawn"], name: "plasmashell", extraEnvironment: shellEnvironment)
        try #require(eventually(timeout: RealBarTests.patience * 2) { self.wallpaperUp() }, "plasmashell drew no wallpaper:\n\(shell.stderr.suffix(3000))")
    }

    var clientEnvironment: [String: String] { ["WAYLAND_DISPLAY": socket, "GDK_BACKEND": "wayland", "XDG_RUNTIME_DIR": home.runtime] }

    func wallpaperUp() -> Bool {
        shots += 1
        return screenshot(into: home.dir.path + "/probe-\(shots).png").map { wallpaperShows($0, in: ScreenRect(x: 100, y: 300, width: 200, height: 200)) } ?? false
    }

    func screenshot(into path: String) -> PixelImage? { xScreenshot(display: display, into: path) }

    /// Runs a KWin script (JavaScript; `KEY` in it stands for a marker of this run, which must
    /// print "KEY end" last) and returns the other lines it printed, without the marker.
    func kwinScript(_ body: String) -> [String] {
        scripts += 1
        let name = "widgethost-test-\(scripts)", key = "widgethost-script-\(scripts):"
        let file = home.dir.path + "/\(name).js"
        FileManagerFree.write(file, body.replacingOccurrences(of: "KEY", with: key))
        chmod(file, 0o644)
        func scripting(_ method: String, _ args: [String]) -> ProcessResult {
            home.runAsUser("/usr/bin/gdbus", ["call", "--session", "--dest", "org.kde.KWin", "--object-path", "/Scripting",
                                              "--method", "org.kde.kwin.Scripting." + method] + args)
        }
        _ = scripting("loadScript", [file, name])
        _ = scripting("start", [])   // runs the scripts loaded and not yet running
        var lines: [String] = []
        eventually(timeout: 10) {
            lines = kwin.stderr.split(separator: "\n").compactMap { line in line.range(of: key).map { String(line[$0.upperBound...]) } }
            return lines.contains(" end")
        }
        _ = scripting("unloadScript", [name])
        return lines.filter { $0 != " end" }
    }

    /// A normal window (`xdg_toplevel`), then moved over `rect` by KWin (a script).
    func openWindow(over rect: ScreenRect) throws -> SessionProcess {
        let title = "widgethost-cover-\(UInt32.random(in: 0...UInt32.max))"
        let p = try home.openCoverWindow(title: title, over: rect, extraEnvironment: ["WAYLAND_DISPLAY=wayland-0", "GDK_BACKEND=wayland"])
        var placed: [String] = []
        try #require(eventually(timeout: RealBarTests.patience) {
            placed = kwinScript("""
                for (const w of workspace.clientList()) {
                    if (w.caption == "\(title)") {
                        w.frameGeometry = {x: \(rect.x), y: \(rect.y), width: \(rect.width), height: \(rect.height)};
                        print("KEY placed");
                    }
                }
                print("KEY end");
                """)
            return !placed.isEmpty
        }, "the window did not open: \(p.stderr)\nkwin:\n\(kwin.stderr.suffix(2000))")
        return p
    }

    func click(x: Int, y: Int) -> Bool {
        run("/usr/bin/xdotool", ["mousemove", "\(x)", "\(y)", "click", "1"], environment: ["DISPLAY": display]).status == 0
    }

    /// KWin's window list, which Plasma's task manager and Alt-Tab read: a window of `pid` not
    /// marked skipTaskbar or not marked skipSwitcher is listed.
    func facts(ofProcess pid: pid_t, named name: String) -> SurfaceFacts {
        let windows = kwinScript("""
            for (const w of workspace.clientList()) {
                print("KEY " + w.pid + " skipTaskbar=" + w.skipTaskbar + " skipSwitcher=" + w.skipSwitcher + " class=" + w.resourceClass
                      + " desktopWindow=" + w.desktopWindow + " layer=" + w.layer);
            }
            print("KEY end");
            """)
        let mine = windows.filter { $0.hasPrefix(" \(pid) ") }
        return SurfaceFacts(listedInTaskbar: mine.contains { $0.contains("skipTaskbar=false") || $0.contains("skipSwitcher=false") },
                            seen: !mine.isEmpty, evidence: "KWin's windows:\n" + windows.joined(separator: "\n"))
    }

    /// plasmashell ended and started again, as after a crash or `plasmashell --replace`.
    func restartWallpaper() throws -> String {
        let old = try #require(home.processes.last { $0.process.errPath.hasSuffix("/plasmashell.err") })
        old.stop()
        try startShell()
        return "plasmashell stopped and started again"
    }

    func stop() { home.stop() }
}
