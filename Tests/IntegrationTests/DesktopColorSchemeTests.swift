import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetGraphics
#if canImport(Glibc)
import Glibc
#endif

/// Issue 24 item 6, light/dark follows the desktop: on Xvfb, a private session bus
/// (`dbus-daemon --session`) that starts the REAL `xdg-desktop-portal` and
/// `xdg-desktop-portal-gtk` (GSettings in a keyfile under a private XDG_CONFIG_HOME), a real host
/// serving the Apple-style fixture's AppearanceWidget (`picture.colorScheme` "system"), and the
/// lean surface. The desktop's scheme is flipped as a person does it (`gsettings set
/// org.gnome.desktop.interface color-scheme`); the portal relays it as `org.freedesktop.appearance`
/// `color-scheme`, the widget's area on the screen turns dark and the widget's views take their
/// dark branch (its text output says "dark"), then both go light again. Every wait is for a condition.
@Suite(.serialized) struct DesktopColorSchemeTests {
    static let widget = "appearance"

    /// The private session: its folders, the portal's configuration (the GTK backend, whatever the
    /// desktop), and a bus whose activated services get this environment.
    final class PortalSession {
        let dir = TempDir()
        let environment: [String]
        /// The variables this session sets (gsettings gets them over ours).
        let variables: [String: String]
        let bus: BarProcess
        let address: String

        init(display: String) throws {
            let config = dir.path + "/config", runtime = dir.path + "/run"
            for d in [config + "/xdg-desktop-portal", runtime] { _ = run("/bin/mkdir", ["-p", d]) }
            chmod(runtime, 0o700)
            FileManagerFree.write(config + "/xdg-desktop-portal/portals.conf", "[preferred]\ndefault=gtk\n")
            let variables = ["DISPLAY": display, "XDG_CONFIG_HOME": config, "XDG_RUNTIME_DIR": runtime, "GSETTINGS_BACKEND": "keyfile",
                             "XDG_CURRENT_DESKTOP": "GNOME", "GIO_USE_VFS": "local"]
            environment = currentEnvironment().filter { e in
                !(["WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"] + variables.keys).contains { e.hasPrefix($0 + "=") }
            } + variables.map { "\($0)=\($1)" }
            let process = try BarProcess("/usr/bin/dbus-daemon", ["--session", "--nofork", "--print-address=1"], dir: dir.path, name: "bus",
                                         stdin: .file("/dev/null"), environment: environment, ownGroup: true)
            bus = process
            var printed = ""
            try #require(eventually(timeout: RealBarTests.patience) { printed = process.stdout; return printed.hasSuffix("\n") },
                         "dbus-daemon did not start:\n\(process.stderr)")
            address = String(printed.dropLast())
            self.variables = variables.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 }
        }

        var sessionEnvironment: [String] { environment + ["DBUS_SESSION_BUS_ADDRESS=\(address)"] }

        /// `gsettings set org.gnome.desktop.interface color-scheme <value>` in this session.
        func setColorScheme(_ value: String) -> ProcessResult {
            run("/usr/bin/gsettings", ["set", "org.gnome.desktop.interface", "color-scheme", value], environment: variables)
        }

        func stop() {
            bus.signal(SIGTERM)
            _ = bus.waitForExit(timeout: RealBarTests.patience)
            dir.remove()
        }
    }

    /// The share of the widget's body (its 316 × 316 px area at the grid's top-left place, margin
    /// 32 pt at scale 2, less a 20 px border for the rounded corners) that is light (every channel
    /// above 200) and that is dark (every channel below 60).
    static func shares(_ image: PixelImage) -> (light: Double, dark: Double) {
        var light = 0, dark = 0, all = 0
        for y in 84..<360 where y < image.height {
            for x in 84..<360 where x < image.width {
                let p = image.pixels[y * image.width + x]
                let channels = [(p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF]
                if channels.allSatisfy({ $0 > 200 }) { light += 1 }
                if channels.allSatisfy({ $0 < 60 }) { dark += 1 }
                all += 1
            }
        }
        return all == 0 ? (0, 0) : (Double(light) / Double(all), Double(dark) / Double(all))
    }

    /// Whether `/usr/libexec/<name>` (the bus starts it) is installed; when not, `requireProgram`
    /// says so (and fails the test under CI).
    static func requirePortal(_ name: String) -> Bool {
        access("/usr/libexec/" + name, X_OK) == 0 || requireProgram(name, package: name) != nil
    }

    @Test func theSurfaceTurnsDarkAndLightWithTheDesktop() throws {
        guard requireProgram("dbus-daemon", package: "dbus-daemon") != nil,
              requireProgram("gsettings", package: "libglib2.0-bin") != nil,
              requireProgram("import", package: "imagemagick") != nil,
              Self.requirePortal("xdg-desktop-portal"), Self.requirePortal("xdg-desktop-portal-gtk"),
              let x = try XServer.start(width: 800, height: 600) else { return }
        let session = try PortalSession(display: x.display)
        defer { session.stop() }
        let socketDir = TempDir()
        defer { socketDir.remove() }
        let config = """
        {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "\(socketDir.path)/control.sock"},
         "defaults": {"picture": {"colorScheme": "system"}},
         "widgets": [{"id": "\(Self.widget)", "kind": "AppearanceWidget", "family": "systemSmall", "outputs": ["files", "png"]}],
         "desktop": {"widgets": ["\(Self.widget)"], "anchor": "top-left", "margin": 32, "scale": 2}}
        """
        let d = try RunningDaemon(config: config) { dir in
            _ = run("/bin/cp", [TestPaths.plugin(TestPaths.appleStyleProduct), dir + "/Plugins/AppleStyleWidget.so"])
        }
        try #require(eventually { d.text(Self.widget) == "light" }, "stderr:\n\(d.stderr)")
        let surface = try BarProcess(TestPaths.products + "/widgethost-desktop", ["--config", d.dir.path + "/config.json"],
                                     dir: session.dir.path, name: "desktop", stdin: .file("/dev/null"),
                                     environment: session.sessionEnvironment, ownGroup: true)
        // Each failure that involves the display says what became of it (a flake once: "cannot
        // open a display" on this test's own Xvfb, the portal without it too).
        func said() -> String { "\(surface.stderr)\n\(x.diagnosis())" }
        let shotPath = session.dir.path + "/shot.png"
        var last = (light: 0.0, dark: 0.0)
        var step = 0
        // `WIDGETHOST_DESKTOP_SHOTS=DIR` keeps each screenshot that passed (scheme-N-light/dark.png).
        let keep = getenv("WIDGETHOST_DESKTOP_SHOTS").map { String(cString: $0) }
        func shows(dark: Bool) -> Bool {
            let passed = eventually(timeout: RealBarTests.patience) {
                guard let image = xScreenshot(display: x.display, into: shotPath) else { return false }
                last = Self.shares(image)
                return dark ? last.dark > 0.9 : last.light > 0.9
            }
            if passed, let keep { _ = run("/bin/cp", [shotPath, keep + "/scheme-\(step)-\(dark ? "dark" : "light").png"]) }
            step += 1
            return passed
        }

        // The portal answers "no preference" at first: light.
        #expect(eventually(timeout: RealBarTests.patience) { surface.stderr.contains("colour scheme: light (the desktop portal, read)") },
                "\(said())")
        #expect(shows(dark: false), "not light at start: \(last)\n\(said())")

        let toDark = session.setColorScheme("prefer-dark")
        try #require(toDark.status == 0, "\(toDark.stderr)")
        #expect(shows(dark: true), "not dark after prefer-dark: \(last)\n\(said())")
        #expect(eventually { d.text(Self.widget) == "dark" }, "the views did not take their dark branch: \(d.text(Self.widget) ?? "nil")\n\(d.stderr)")
        #expect(surface.stderr.contains("colour scheme: dark (the desktop portal, changed)"), "\(said())")

        let toLight = session.setColorScheme("prefer-light")
        try #require(toLight.status == 0, "\(toLight.stderr)")
        #expect(shows(dark: false), "not light after prefer-light: \(last)\n\(said())")
        #expect(eventually { d.text(Self.widget) == "light" }, "the views stayed dark: \(d.text(Self.widget) ?? "nil")\n\(d.stderr)")
        #expect(surface.stderr.contains("colour scheme: light (the desktop portal, changed)"), "\(said())")
        let lines = surface.stderr.split(separator: "\n").filter { $0.contains("colour scheme") }
        #expect(lines.count == 3, "one line per change: \(lines)")
    }

    /// The host's side alone, on exact values: a watch saying "dark" re-evaluates the widget whose
    /// `picture.colorScheme` is "system" (its text output takes the dark branch) and no other; one
    /// saying "light" brings it back; one saying anything else is refused with the reason, and the
    /// host goes on as it was.
    @Test func aWatchSaysTheSchemeAndOnlySystemWidgetsAreReEvaluated() throws {
        let config = """
        {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "state/control.sock"},
         "widgets": [{"id": "follows", "kind": "AppearanceWidget", "family": "accessoryInline", "outputs": ["files"], "picture": {"colorScheme": "system"}},
                     {"id": "day", "kind": "AppearanceWidget", "family": "accessoryInline", "outputs": ["files"]},
                     {"id": "night", "kind": "AppearanceWidget", "family": "accessoryInline", "outputs": ["files"], "picture": {"colorScheme": "dark"}}]}
        """
        let d = try RunningDaemon(config: config) { dir in
            _ = run("/bin/cp", [TestPaths.plugin(TestPaths.appleStyleProduct), dir + "/Plugins/AppleStyleWidget.so"])
        }
        let socket = d.dir.path + "/state/control.sock"
        func texts() -> [String?] { ["follows", "day", "night"].map { d.text($0) } }
        try #require(eventually { texts() == ["light", "light", "dark"] }, "\(texts())\n\(d.stderr)")

        let dark = try #require(ViewStreamSubscriber(socket: socket, request: #"{"op":"watch","colorScheme":"dark"}"#))
        #expect(eventually { texts() == ["dark", "light", "dark"] }, "\(texts())\n\(d.stderr)")
        #expect(dark.wait { $0.first?.snapshot == true }, "the watch is served as ever")

        let bad = try #require(ViewStreamSubscriber(socket: socket, request: #"{"op":"watch","colorScheme":"system"}"#))
        #expect(bad.wait { _ in bad.ended }, "a refused watch is closed")
        #expect(bad.failure?.contains(#"unknown colour scheme "system" (one of: light, dark)"#) == true, "\(bad.failure ?? "nil")")
        #expect(texts() == ["dark", "light", "dark"], "a refused watch changes nothing")

        let light = try #require(ViewStreamSubscriber(socket: socket, request: #"{"op":"watch","colorScheme":"light"}"#))
        #expect(eventually { texts() == ["light", "light", "dark"] }, "\(texts())\n\(d.stderr)")
        withExtendedLifetime((dark, light)) {}
        #expect(d.stderr.contains("watch refused: unknown colour scheme"), "\(d.stderr)")
    }

    /// A session bus with no portal (no service files for it): one line, light, and the surface runs.
    @Test func noPortalIsOneLineAndLight() throws {
        guard requireProgram("dbus-run-session", package: "dbus-daemon") != nil,
              let x = try XServer.start(width: 800, height: 600) else { return }
        let services = TempDir()
        defer { services.remove() }
        let busConfig = bareSessionBusConfig(in: services.path)
        let socketDir = TempDir()
        defer { socketDir.remove() }
        let d = try SurfaceAccessibilityTests.startHost(["HabitWidget"], socketDir: socketDir)
        let environment = currentEnvironment().filter { e in !["DISPLAY=", "WAYLAND_DISPLAY=", "DBUS_SESSION_BUS_ADDRESS=", "AT_SPI_BUS_ADDRESS="].contains { e.hasPrefix($0) } }
            + ["DISPLAY=\(x.display)"]
        let surface = try BarProcess("/usr/bin/dbus-run-session", ["--config-file=\(busConfig)", "--", TestPaths.products + "/widgethost-desktop", "--config", d.dir.path + "/config.json"],
                                     dir: services.path, name: "desktop", stdin: .file("/dev/null"), environment: environment, ownGroup: true)
        #expect(eventually { surface.stderr.contains("1 widget(s) from") && surface.stderr.contains("colour scheme") }, "\(surface.stderr)")
        let lines = surface.stderr.split(separator: "\n").filter { $0.contains("colour scheme") }
        #expect(lines.count == 1 && lines[0].contains("colour scheme: light (the desktop portal does not say: ")
                && lines[0].contains("org.freedesktop.DBus.Error.ServiceUnknown"), "\(surface.stderr)")
    }
}

/// A session bus configuration for `dbus-run-session --config-file` whose only service folder is
/// `dir` (empty: nothing can be started on it — no accessibility bus, no portal); its path.
func bareSessionBusConfig(in dir: String) -> String {
    let path = dir + "/session.conf"
    FileManagerFree.write(path, """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig><type>session</type><listen>unix:dir=\(dir)</listen><servicedir>\(dir)</servicedir>
    <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy></busconfig>
    """)
    return path
}
