import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetGraphics
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Monitors plugged in and out while the lean surface runs (issue 24 item 3): `desktop.output`
/// and `desktop.outputs` followed live, every widget back at its grid place within a second, and
/// a monitor known by its identity (EDID make, model, serial) wherever it is plugged.
///
/// X11: Xorg with the dummy driver (`xserver-xorg-video-dummy`), whose sixteen outputs
/// (DUMMY0…DUMMY15) are switched on and off with `xrandr` — real RandR output and CRTC changes,
/// with the events a monitor plugged in sends. (Xvfb's RandR has one fixed output, and a monitor
/// it is given with `xrandr --setmonitor` is announced by no event at all.) Monitors get an EDID
/// from `Fixtures/x11_edid.c`. The screen is read back with `import -window root` and each
/// widget compared with a direct render of its tree at scale 1, as `LeanDesktopSurfaceTests` do.
@Suite(.serialized) struct MonitorTests {
    static let patience = RealBarTests.patience
    typealias T = DesktopSurfaceTests

    /// Habit and Clocky on the primary monitor, Stats on "DUMMY1" (`desktop.outputs`): Stats
    /// waits while DUMMY1 is off, shows when a Dell is plugged into it, goes when it is unplugged,
    /// does not go onto an LG plugged into DUMMY1 after it, and follows the Dell to DUMMY2; the
    /// primary moved to the Dell takes Habit and Clocky there. Each change within a second.
    @Test func x11MonitorsComingAndGoingKeepEveryWidgetInPlace() throws {
        guard let capture = requireProgram("import", package: "imagemagick"),
              let xrandr = requireProgram("xrandr", package: "x11-xserver-utils"),
              let xdotool = requireProgram("xdotool", package: "xdotool"),
              let server = try XServer.startDummy() else { return }
        defer { server.stop() }
        let lean = try LeanScene(display: server.display, anchor: "top-right", scale: 1, outputs: [T.stats: "DUMMY1"], pictureScale: 1)
        defer { lean.stop() }
        let s = lean.scene
        let edid = s.dir.path + "/x11_edid"
        let built = run("/usr/bin/cc", ["-o", edid, TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/x11_edid.c", "-lX11", "-lXrandr"])
        try #require(built.status == 0, "x11_edid.c: \(built.stderr)")
        func randr(_ args: [String]) {
            let r = s.run(xrandr, args)
            #expect(r.status == 0, "xrandr \(args.joined(separator: " ")): \(r.stderr)")
        }
        func monitor(_ output: String, _ make: String, _ name: String, _ serial: String) {
            let r = s.run(edid, [output, make, name, serial])
            #expect(r.status == 0, "x11_edid: \(r.stderr)")
        }
        func plug(_ output: String, rightOf: String) {
            _ = s.run(xrandr, ["--addmode", output, "640x480"])   // a second time: "already there", harmless
            randr(["--output", output, "--mode", "640x480", "--right-of", rightOf])
        }
        func windows() -> Int {
            s.run(xdotool, ["search", "--onlyvisible", "--name", "^widgethost-desktop$"]).stdout.split(separator: "\n").count
        }
        // Scale 1 (the layout's: no Xft.dpi): the grid is 338 × 354 px at the top-right corner of
        // a 640 × 480 monitor, 32 px in; a lone small widget 158 px wide.
        func grid(at x: Int) -> [String: (x: Int, y: Int, w: Int, h: Int)] {
            [T.habit: (x + 640 - 32 - 338, 32, 158, 158), T.clocky: (x + 640 - 32 - 338, 228, 338, 158)]
        }
        func stats(at x: Int) -> (x: Int, y: Int, w: Int, h: Int) { (x + 640 - 32 - 158, 32, 158, 158) }
        let shot = { s.rootShot(capture) }

        randr(["--output", "DUMMY0", "--mode", "640x480", "--primary"])
        let desktop = try lean.startDesktop()
        s.expectShows(grid(at: 0), dimmed: [], within: Self.patience, shot: shot, log: desktop)
        #expect(eventually(timeout: Self.patience) { desktop.stderr.contains("\(T.stats) wait(s) for the output \"DUMMY1\" (connected: DUMMY0)") },
                "\(desktop.stderr)")

        // A Dell plugged into DUMMY1: Stats shows on it, within a second.
        monitor("DUMMY1", "DEL", "DELL U2720Q", "9XKL2")
        plug("DUMMY1", rightOf: "DUMMY0")
        var both = grid(at: 0); both[T.stats] = stats(at: 640)
        s.expectShows(both, dimmed: [], within: 1, shot: shot, log: desktop)
        #expect(windows() == 2)

        // Unplugged: Stats goes with it, the rest stays.
        randr(["--output", "DUMMY1", "--off"])
        s.expectShows(grid(at: 0), dimmed: [], within: 1, shot: shot, log: desktop)
        #expect(eventually(timeout: 1) { windows() == 1 }, "the Dell's window stayed")

        // An LG takes DUMMY1, the Dell comes back on DUMMY2: Stats follows the Dell, not the connector.
        monitor("DUMMY1", "GSM", "LG 27UK850", "77")
        plug("DUMMY1", rightOf: "DUMMY0")
        monitor("DUMMY2", "DEL", "DELL U2720Q", "9XKL2")
        plug("DUMMY2", rightOf: "DUMMY1")
        var moved = grid(at: 0); moved[T.stats] = stats(at: 1280)
        s.expectShows(moved, dimmed: [], within: 1, shot: shot, log: desktop)
        if let image = shot() {
            let f = stats(at: 640)
            #expect(s.differing(image, frame: f, id: T.stats, dimmed: false) > f.w * f.h / 2, "Stats shows on the LG in DUMMY1")
        }
        #expect(windows() == 2)

        // The Dell made primary: the primary's widgets move onto it, beside Stats.
        randr(["--output", "DUMMY2", "--primary"])
        let all = [T.habit: (1280 + 640 - 32 - 338, 32, 158, 158), T.stats: (1280 + 640 - 32 - 158, 32, 158, 158),
                   T.clocky: (1280 + 640 - 32 - 338, 228, 338, 158)]
        s.expectShows(all, dimmed: [], within: 1, shot: shot, log: desktop)
        #expect(eventually(timeout: 1) { windows() == 1 }, "DUMMY0 kept a window with no widget: \(s.run("/usr/bin/xwininfo", ["-root", "-tree"]).stdout.split(separator: "\n").filter { $0.contains("widgethost") })\n\(desktop.stderr)")
        #expect(desktop.waitForExit(timeout: 0) == nil, "the surface ended: \(desktop.stderr)")
    }

    /// Wayland: a sway 1.7 nested in a headless sway (`WLR_BACKENDS=wayland`, two outputs), whose
    /// outputs are windows of the outer one: closing such a window (`kill` in the outer sway)
    /// unplugs that output for real (a `wl_output` global removed), `create_output` plugs a new
    /// one in. (The headless backend alone cannot take an output away: `output … disable` fails
    /// there.) Habit and Clocky go on the first output (Wayland has no primary), Stats on WL-2: with
    /// WL-2 unplugged Stats waits and the rest stays; with WL-1 unplugged Habit and Clocky move to
    /// the next output within a second; the surface lives through it all.
    @Test func waylandOutputsComingAndGoingKeepEveryWidgetInPlace() throws {
        guard let sway = requireProgram("sway", package: "sway"), let grim = requireProgram("grim", package: "grim"),
              let swaymsg = requireProgram("swaymsg", package: "sway") else { return }
        let lean = try LeanScene(display: "", anchor: "top-left", scale: 1, outputs: [T.stats: "WL-2"], pictureScale: 1)
        defer { lean.stop() }
        let s = lean.scene
        // The compositors run as nobody in a runtime folder of theirs (0700, nobody's).
        let own = TempDir()
        defer { own.remove() }
        let runtime = own.path
        FileManagerFree.write(runtime + "/outer.conf", "output HEADLESS-1 resolution 1280x800\n")
        FileManagerFree.write(runtime + "/inner.conf", "output * bg #2e5a88 solid_color\n")
        _ = run("/bin/chown", ["-R", "65534:65534", runtime])
        let nobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]
        // Through env(1), which replaces the session's own XDG_RUNTIME_DIR (an environment with a
        // name twice gives a program the first).
        let base = ["XDG_RUNTIME_DIR=\(runtime)", "WLR_RENDERER=pixman", "WLR_LIBINPUT_NO_DEVICES=1"]
        func sockets(_ prefix: String) -> [String] { FileManagerFree.names(in: runtime).filter { $0.hasPrefix(prefix) && !$0.hasSuffix(".lock") && !$0.hasSuffix(".conf") }.sorted() }
        let outer = try s.start("/usr/bin/env", base + ["WLR_BACKENDS=headless", "/usr/bin/setpriv"] + nobody + [sway, "-c", runtime + "/outer.conf"],
                                name: "outer-sway")
        try #require(eventually(timeout: Self.patience) { sockets("wayland-").count == 1 && sockets("sway-ipc.").count == 1 }, "outer sway:\n\(outer.stderr.suffix(3000))")
        let outerSocket = sockets("wayland-")[0], outerIPC = runtime + "/" + sockets("sway-ipc.")[0]
        let inner = try s.start("/usr/bin/env", base + ["WLR_BACKENDS=wayland", "WLR_WL_OUTPUTS=2", "WAYLAND_DISPLAY=\(outerSocket)", "/usr/bin/setpriv"]
                                + nobody + [sway, "-c", runtime + "/inner.conf"], name: "inner-sway")
        try #require(eventually(timeout: Self.patience) { sockets("wayland-").count == 2 && sockets("sway-ipc.").count == 2 }, "inner sway:\n\(inner.stderr.suffix(3000))")
        let innerSocket = runtime + "/" + sockets("wayland-").first { $0 != outerSocket }!
        let innerIPC = runtime + "/" + sockets("sway-ipc.").first { runtime + "/" + $0 != outerIPC }!
        func msg(_ ipc: String, _ args: [String]) -> ProcessResult { s.run("/usr/bin/setpriv", nobody + [swaymsg, "-s", ipc] + args) }
        func outputs() -> [String] {
            msg(innerIPC, ["-t", "get_outputs"]).stdout.split(separator: "\n").compactMap { line in
                let t = line.trimmingCharacters(in: .whitespaces)
                return t.hasPrefix("\"name\": \"") ? String(t.dropFirst(9).prefix { $0 != "\"" }) : nil
            }
        }
        try #require(eventually(timeout: Self.patience) { outputs() == ["WL-1", "WL-2"] }, "inner outputs: \(outputs())")
        let wayland = ["WAYLAND_DISPLAY=\(innerSocket)", "XDG_RUNTIME_DIR=\(runtime)"]
        func shot(_ output: String) -> () -> PixelImage? {
            { s.shot { path in s.run("/usr/bin/env", wayland + [grim, "-o", output, path]).status == 0 ? () : nil } }
        }
        let grid: [String: (x: Int, y: Int, w: Int, h: Int)] = [T.habit: (32, 32, 158, 158), T.clocky: (32, 228, 338, 158)]
        let desktop = try lean.startDesktop(extraEnvironment: ["WAYLAND_DISPLAY=\(innerSocket)"])
        s.expectShows(grid, dimmed: [], within: Self.patience, shot: shot("WL-1"), log: desktop)
        s.expectShows([T.stats: (32, 32, 158, 158)], dimmed: [], within: Self.patience, shot: shot("WL-2"), log: desktop)

        // WL-2 unplugged: Stats waits, saying so; Habit and Clocky stay.
        #expect(msg(outerIPC, ["[title=\"wlroots - WL-2\"]", "kill"]).status == 0)
        #expect(eventually(timeout: Self.patience) { outputs() == ["WL-1"] }, "inner outputs: \(outputs())")
        #expect(eventually(timeout: 1) { desktop.stderr.contains("\(T.stats) wait(s) for the output \"WL-2\" (connected: WL-1 (wayland wayland))") },
                "\(desktop.stderr)")
        s.expectShows(grid, dimmed: [], within: 1, shot: shot("WL-1"), log: desktop)

        // A new output (WL-3), then WL-1 unplugged: the first output is WL-3 now, Habit and Clocky go there.
        #expect(msg(innerIPC, ["create_output"]).status == 0)
        #expect(eventually(timeout: Self.patience) { outputs() == ["WL-1", "WL-3"] }, "inner outputs: \(outputs())")
        #expect(msg(outerIPC, ["[title=\"wlroots - WL-1\"]", "kill"]).status == 0)
        #expect(eventually(timeout: Self.patience) { outputs() == ["WL-3"] }, "inner outputs: \(outputs())")
        s.expectShows(grid, dimmed: [], within: 1, shot: shot("WL-3"), log: desktop)
        #expect(desktop.waitForExit(timeout: 0) == nil, "the surface ended: \(desktop.stderr)")
    }
}

/// Xorg with the dummy video driver as a private display: DUMMY0 on, DUMMY1…15 off, a virtual
/// screen up to 2048 × 1200. nil (skip) when Xorg or the driver is missing outside CI.
extension XServer {
    static func startDummy() throws -> XServer? {
        let xorg = "/usr/lib/xorg/Xorg"
        for (file, package) in [(xorg, "xserver-xorg-core"), ("/usr/lib/xorg/modules/drivers/dummy_drv.so", "xserver-xorg-video-dummy")]
        where !FileManagerFree.exists(file) {
            if getenv("CI").map({ String(cString: $0) }) == "true" {
                Issue.record("\(file) is not installed (Debian package \(package); scripts/install-deps.sh installs it)")
            } else {
                print("skipped: \(file) is not installed (Debian package \(package); scripts/install-deps.sh installs it)")
            }
            return nil
        }
        let dir = TempDir()
        FileManagerFree.write(dir.path + "/xorg.conf", """
            Section "Device"
                Identifier "dummy"
                Driver "dummy"
                VideoRam 64000
            EndSection
            Section "Monitor"
                Identifier "monitor"
                HorizSync 5.0 - 1000.0
                VertRefresh 5.0 - 200.0
            EndSection
            Section "Screen"
                Identifier "screen"
                Device "dummy"
                Monitor "monitor"
                DefaultDepth 24
                SubSection "Display"
                    Depth 24
                    Virtual 2048 1200
                EndSubSection
            EndSection

            """)
        _ = run("/bin/mkdir", ["-p", dir.path + "/xorg.conf.d"])
        let p = try BarProcess(xorg, ["-displayfd", "1", "-config", dir.path + "/xorg.conf", "-configdir", dir.path + "/xorg.conf.d",
                                      "-logfile", dir.path + "/xorg.log", "-nolisten", "tcp", "-noreset", "-novtswitch", "-sharevts"],
                               dir: dir.path, name: "xorg", ownGroup: true)
        let display = try DisplayFD.display(printed: { p.stdout }, timeout: RealBarTests.patience, server: "Xorg") { String(p.stderr.suffix(3000)) }
        return XServer(display: display, process: p, dir: dir)
    }
}
