import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The pickers offer what is there now (`{"op":"entities"}`, `EntityOptionsOnDemand`): with a
/// host running, `gallery`, `configure` and the Edit Widget form have the placed bundles'
/// serving workers list their entities again before they read the cached manifests, so a music
/// player started after the host, or a calendar added after it, is offered. Real host, real
/// sandboxed workers, a real session bus with real MPRIS players.
@Suite(.serialized) struct LiveEntityOptionsTests {
    static let mpris = NowPlayingWidgetTests.enabled && sandboxTestsRun

    /// The values `gallery --json` offers for `kind`'s entity parameter `name` ([] when it fails).
    static func offered(_ kind: String, _ name: String, config file: String, environment: [String: String] = [:]) -> [EnumOption] {
        let gallery = run(TestPaths.widgethost, ["gallery", "--json", "--config", file], environment: environment)
        guard gallery.status == 0, let items = try? WireCodec.decode([[String: JSONValue]].self, from: Data(gallery.stdout.utf8)),
              let parameter = items.first(where: { $0["kind"] == .string(kind) })?["parameters"]?.arrayValue?
                  .compactMap(\.objectValue).first(where: { $0["name"] == .string(name) && $0["type"] == .string("entity") }) else { return [] }
        return (parameter["options"]?.arrayValue ?? []).compactMap { o in
            o.objectValue.flatMap { o in o["value"]?.stringValue.flatMap { v in o["title"]?.stringValue.map { EnumOption(value: v, title: $0) } } }
        }
    }

    /// One line sent on the control socket at `path` as any client could, and the answer line.
    static func exchange(_ line: String, socket path: String) -> [String: JSONValue]? {
        let fd = connectUnix(path)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        var tv = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        guard FileIO.writeAll(fd, Data((line + "\n").utf8)) else { return nil }
        var answer: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 4096)
        while !answer.contains(0x0a) {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            guard n > 0 else { return nil }
            answer += buf[0..<n]
        }
        return try? WireCodec.decode([String: JSONValue].self, from: Data(answer.prefix { $0 != 0x0a }))
    }

    /// A second MPRIS player (`Fixtures/mpris_player.py`) on `bus`, owning
    /// `org.mpris.MediaPlayer2.<name>` once this returns; its pid.
    static func startPlayer(_ name: String, on bus: TestSessionBus, calls: String) throws -> pid_t {
        let pid = spawnBackground("/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=" + bus.address, "/usr/bin/python3",
                                                   TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/mpris_player.py", name, calls])
        let owned = eventually(timeout: 20) {
            run("/usr/bin/dbus-send", ["--bus=" + bus.address, "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus.NameHasOwner", "string:org.mpris.MediaPlayer2." + name]).stdout.contains("boolean true")
        }
        if !owned { kill(pid, SIGKILL); var st: Int32 = 0; waitpid(pid, &st, 0) }
        try #require(owned, "the second MPRIS player did not take its name")
        return pid
    }

    static func nowPlayingDaemon(_ player: TestMPRISPlayer, widgets: String, extra: (String) -> Void = { _ in }) throws -> RunningDaemon {
        let config = #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"}, "widgets": ["#
            + widgets + "]}"
        return try RunningDaemon(config: config, environment: ["DBUS_SESSION_BUS_ADDRESS": player.bus.address, "TZ": "UTC"]) { dir in
            _ = run("/bin/cp", [TestPaths.plugin(NowPlayingWidgetTests.product), dir + "/Plugins/libNowPlayingWidget.so"])
            extra(dir)
        }
    }

    /// Now Playing placed with one player; a second player started later is offered by
    /// `gallery --json` next to the first (its worker resting between calls is started for the
    /// question), and `configure` accepts it.
    @Test(.enabled(if: LiveEntityOptionsTests.mpris, "no Landlock, dbus-daemon, xdg-dbus-proxy or python3-gi"))
    func aPlayerStartedAfterTheHostIsOfferedAndAccepted() throws {
        let dir = TempDir(); defer { dir.remove() }
        let player = try TestMPRISPlayer(dir: dir.path)
        let d = try Self.nowPlayingDaemon(player, widgets: #"{"kind": "nowplaying", "family": "accessoryInline", "id": "np"}"#)
        let file = d.dir.path + "/config.json"
        #expect(eventually(timeout: 30) { d.text("np")?.hasPrefix("♪ Clair de Lune") == true }, "\(d.text("np") ?? "nothing")\n\(d.stderr.suffix(3000))")
        let first = TestMPRISPlayer.name, second = "org.mpris.MediaPlayer2.laterplayer"
        #expect(eventually(timeout: 30) { Self.offered("nowplaying", "player", config: file).map(\.value).contains(first) }, "\(d.stderr.suffix(3000))")
        // Not offered yet, and `configure` refuses it: nothing on the bus owns it.
        #expect(!Self.offered("nowplaying", "player", config: file).map(\.value).contains(second))

        let pid = try Self.startPlayer("laterplayer", on: player.bus, calls: dir.path + "/later-calls")
        defer { kill(pid, SIGKILL); var st: Int32 = 0; waitpid(pid, &st, 0) }
        var values: [String] = []
        #expect(eventually(timeout: 30) { values = Self.offered("nowplaying", "player", config: file).map(\.value); return values.contains(second) },
                "\(values)\n\(d.stderr.suffix(3000))")
        #expect(values.contains(first), "\(values)")
        #expect(d.stderr.contains("control: entities of libNowPlayingWidget.so asked again of its worker"), "\(d.stderr.suffix(3000))")

        let configure = run(TestPaths.widgethost, ["configure", "np", "player=" + second, "--config", file])
        #expect(configure.status == 0, "\(configure.stderr)")
    }

    /// The request itself: only placed bundles with an entity parameter and declared access
    /// are asked (not a bundle without entities, not one installed unplaced, which still keeps
    /// no worker); a bundle just asked is not asked again at once; a request naming no loaded
    /// bundle, an unknown op and a line that is no request get a clear error, and the host
    /// goes on serving.
    @Test(.enabled(if: LiveEntityOptionsTests.mpris, "no Landlock, dbus-daemon, xdg-dbus-proxy or python3-gi"))
    func onlyPlacedBundlesWithEntitiesAreAskedAndBadRequestsAreRefused() throws {
        let dir = TempDir(); defer { dir.remove() }
        let player = try TestMPRISPlayer(dir: dir.path)
        let widgets = #"{"kind": "nowplaying", "family": "accessoryInline", "id": "np"}, {"kind": "clock", "family": "accessoryInline", "id": "clock"}"#
        let d = try Self.nowPlayingDaemon(player, widgets: widgets) { dir in
            _ = run("/bin/cp", [TestPaths.plugin("SystemWidgets"), dir + "/Plugins/SystemWidgets.so"])
            _ = run("/bin/cp", [TestPaths.plugin("CalendarWidget"), dir + "/Plugins/CalendarWidget.so"])
        }
        let socket = d.dir.path + "/control.sock"
        #expect(eventually(timeout: 30) { d.text("np")?.hasPrefix("♪ Clair de Lune") == true && d.text("clock") != nil },
                "\(d.text("np") ?? "nothing")\n\(d.stderr.suffix(3000))")

        // All three loaded (the first widget's text may come before the last bundle is described).
        #expect(eventually(timeout: 30) {
            ((try? ControlSocketClient.send(ControlRequest(op: .status), to: socket))?.status?.bundles.count ?? 0) == 3
        }, "\(d.stderr.suffix(3000))")
        let all = try ControlSocketClient.send(ControlRequest(op: .entities), to: socket)
        #expect(all.ok && all.asked == ["libNowPlayingWidget.so"], "\(all)")
        #expect(all.message?.contains("not asked (no entity parameter with declared access, not placed, or no serving worker): CalendarWidget.so, SystemWidgets.so") == true,
                "\(all)")
        // Unplaced, the calendar bundle has no worker (its `describe` came from the cache or a validation worker since stopped).
        #expect(!d.stderr.contains("entities of CalendarWidget.so asked again"), "\(d.stderr.suffix(3000))")
        let again = try ControlSocketClient.send(ControlRequest(op: .entities, bundle: "org.widgethost.nowplaying"), to: socket)
        // Asked at once after the answer it is cooled down (the 3 s themselves are tested on virtual
        // time in EntityOptionsOnDemandTests); a machine stalled past them may ask it again.
        let cooled = again.asked == [] && again.message?.contains("libNowPlayingWidget.so asked less than 3 s ago") == true
        #expect(again.ok && (cooled || again.asked == ["libNowPlayingWidget.so"]), "\(again)")
        let clock = try ControlSocketClient.send(ControlRequest(op: .entities, bundle: "SystemWidgets.so"), to: socket)
        #expect(clock.ok && clock.asked == [], "\(clock)")
        #expect(eventually { d.stderr.split(separator: "\n").filter { $0.contains("control: entities of ") }.count == (cooled ? 1 : 2) },
                "\(d.stderr.suffix(3000))")

        let unknown = try ControlSocketClient.send(ControlRequest(op: .entities, bundle: "nope.so"), to: socket)
        #expect(!unknown.ok && unknown.error == #"no bundle "nope.so" is loaded"#, "\(unknown)")
        let foreign = Self.exchange(#"{"op":"format","disk":"/dev/sda"}"#, socket: socket)
        #expect(foreign?["ok"] == .bool(false) && foreign?["error"]?.stringValue?.hasPrefix("bad request: ") == true, "\(String(describing: foreign))")
        let garbage = Self.exchange("\u{1}GET / HTTP/1.1", socket: socket)
        #expect(garbage?["ok"] == .bool(false) && garbage?["error"]?.stringValue?.hasPrefix("bad request: ") == true, "\(String(describing: garbage))")
        let status = try ControlSocketClient.send(ControlRequest(op: .status), to: socket)
        #expect(status.ok, "\(status)")
    }

    /// No host running: `gallery` reads the cache as before, without an error or a warning.
    @Test func withoutAHostTheGalleryReadsTheCacheQuietly() throws {
        let dir = TempDir(); defer { dir.remove() }
        _ = run("/bin/mkdir", ["-p", dir.path + "/Plugins"])
        _ = run("/bin/cp", [TestPaths.plugin("SystemWidgets"), dir.path + "/Plugins/SystemWidgets.so"])
        FileManagerFree.write(dir.path + "/config.json",
                              #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"}}"#)
        let gallery = run(TestPaths.widgethost, ["gallery", "--config", dir.path + "/config.json"])
        #expect(gallery.status == 0 && gallery.stdout.contains("clock"), "\(gallery.stdout) \(gallery.stderr)")
        #expect(gallery.stderr.isEmpty, "\(gallery.stderr)")
    }

    /// Up Next placed with one calendar; a calendar folder made after the host started is
    /// offered by `gallery --json`.
    @Test(.enabled(if: sandboxTestsRun, "this kernel has no Landlock"))
    func aCalendarAddedAfterTheHostIsOffered() throws {
        let home = TempDir(); defer { home.remove() }
        let calendars = home.path + "/.local/share/calendars"
        _ = run("/bin/mkdir", ["-p", calendars + "/work"])
        FileManagerFree.write(calendars + "/work/standup.ics", CalendarWidgetTests.oneEvent("standup@test", "20260302T103000", "20260302T104500", "Standup"))
        FileManagerFree.write(calendars + "/work/displayname", "Work\n")
        let environment = ["HOME": home.path]
        let d = try RunningDaemon(config: CalendarWidgetTests.upNextConfig(#"{"kind": "UpNext", "family": "accessoryInline", "id": "upnext"}"#),
                                  environment: ["HOME": home.path, "XDG_DATA_HOME": nil, "LC_ALL": "C.UTF-8"])
        d.install(TestPaths.plugin("CalendarWidget"), as: "CalendarWidget.so")
        let file = d.dir.path + "/config.json"
        // The host served it and cached the list its worker gave then (before, `gallery` would
        // describe the bundle itself).
        let cache = d.dir.path + "/state/manifests/CalendarWidget.so.json"
        #expect(eventually(timeout: 30) { FileManagerFree.read(cache)?.contains(#""title":"Work""#) == true }, "\(d.stderr.suffix(3000))")
        #expect(eventually(timeout: 30) { Self.offered("UpNext", "calendars", config: file, environment: environment).map(\.title) == ["All Calendars", "Work"] },
                "\(d.stderr.suffix(3000))")

        // Made as a sync tool makes it: under a temp name, renamed in.
        let staged = home.path + "/.local/share/.home.tmp"
        _ = run("/bin/mkdir", ["-p", staged])
        FileManagerFree.write(staged + "/dentist.ics", CalendarWidgetTests.oneEvent("dentist@test", "20260302T110000", "20260302T113000", "Dentist"))
        FileManagerFree.write(staged + "/displayname", "Home\n")
        rename(staged, calendars + "/home")
        var titles: [String] = []
        #expect(eventually(timeout: 30) { titles = Self.offered("UpNext", "calendars", config: file, environment: environment).map(\.title); return titles == ["All Calendars", "Home", "Work"] },
                "\(titles)\n\(d.stderr.suffix(3000))")
    }
}

/// The Edit Widget form (`widgethost-edit --edit`, driven as a person drives it: `EditorTests`'
/// screen) on a running host: a calendar added after the host started is an item of the form's
/// Calendar menu; chosen and applied, the widget shows only that calendar's events.
@Suite(.serialized) struct LiveEntityOptionsFormTests {
    @Test(.enabled(if: sandboxTestsRun, "this kernel has no Landlock"))
    func theFormsMenuOffersACalendarAddedAfterTheHostStarted() throws {
        guard let screen = try EditorTests.Screen.start() else { return }
        let (tz, day) = CalendarWidgetTests.morningZone()
        let home = TempDir(); defer { home.remove() }
        let calendars = home.path + "/.local/share/calendars"
        _ = run("/bin/mkdir", ["-p", calendars + "/work"])
        FileManagerFree.write(calendars + "/work/standup.ics", CalendarWidgetTests.floating("standup@test", day + "T113000", day + "T114500", "Standup"))
        FileManagerFree.write(calendars + "/work/displayname", "Work\n")
        let d = try RunningDaemon(config: CalendarWidgetTests.upNextConfig(#"{"kind": "UpNext", "family": "accessoryInline", "id": "upnext"}"#),
                                  environment: ["HOME": home.path, "XDG_DATA_HOME": nil, "TZ": tz, "LC_ALL": "C.UTF-8"])
        d.install(TestPaths.plugin("CalendarWidget"), as: "CalendarWidget.so")
        let file = d.dir.path + "/config.json"
        #expect(eventually(timeout: 30) { d.text("upnext") == "11:30 Standup" }, "\(d.text("upnext") ?? "nil") \(d.stderr.suffix(3000))")
        // The list the host's worker gave when it first served (read from the host's cache, not
        // through `gallery`, which would ask again): Work alone.
        let cache = d.dir.path + "/state/manifests/CalendarWidget.so.json"
        #expect(eventually(timeout: 30) { FileManagerFree.read(cache)?.contains(#""title":"Work""#) == true }, "\(FileManagerFree.read(cache) ?? "no cache")")
        #expect(FileManagerFree.read(cache)?.contains(#""title":"Home""#) == false)

        let staged = home.path + "/.local/share/.home.tmp"
        _ = run("/bin/mkdir", ["-p", staged])
        FileManagerFree.write(staged + "/dentist.ics", CalendarWidgetTests.floating("dentist@test", day + "T110000", day + "T113000", "Dentist"))
        FileManagerFree.write(staged + "/displayname", "Home\n")
        rename(staged, calendars + "/home")
        try #require(screen.drive(["--edit", "upnext", "--config", file], [
            "window:Edit Widget", "choose:Calendar:Home", "shot:live-entities-calendar-home", "click:Apply", "exit:0",
        ]))
        let text = FileManagerFree.read(file) ?? ""
        #expect(text.contains(#""calendars": "\#(calendars)/home""#), "\(text)")
        #expect(eventually(timeout: 30) { d.text("upnext") == "11:00 Dentist" }, "\(d.text("upnext") ?? "nil") \(d.stderr.suffix(3000))")
    }
}
