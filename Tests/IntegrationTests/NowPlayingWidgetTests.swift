import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetGraphics
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// A private session bus (`TestSessionBus`: a real `dbus-daemon --session`) with the minimal
/// MPRIS player `Fixtures/mpris_player.py` on it, owning `org.mpris.MediaPlayer2.testplayer`:
/// three fixed tracks, Position fixed at 42 s. Every method the player is called with is a
/// line of `calls`.
final class TestMPRISPlayer {
    static let name = "org.mpris.MediaPlayer2.testplayer"
    static var available: Bool {
        TestSessionBus.available && run("/usr/bin/python3", ["-c", "from gi.repository import Gio"]).status == 0
    }

    let bus: TestSessionBus
    let calls: String
    let artURL: String?
    let rate: Double
    private var pid: pid_t = 0

    /// `artURL`: its tracks' `mpris:artUrl` (default: a file that does not exist); `rate` its `Rate`.
    init(dir: String, artURL: String? = nil, rate: Double = 1) throws {
        bus = try TestSessionBus(dir: dir, names: [])
        calls = dir + "/mpris-calls"
        self.artURL = artURL
        self.rate = rate
        try start()
    }

    /// Starts the player (again), playing its first track, and waits until it owns its name.
    func start() throws {
        pid = spawnBackground("/usr/bin/env", ["DBUS_SESSION_BUS_ADDRESS=" + bus.address, "MPRIS_TEST_ART_URL=" + (artURL ?? ""), "MPRIS_TEST_RATE=\(rate)", "/usr/bin/python3",
                                               TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/mpris_player.py", "testplayer", calls])
        guard eventually(timeout: 20, { self.hasOwner }) else { throw TestSessionBus.Failure("the MPRIS player did not take its name") }
    }

    var hasOwner: Bool {
        dbus(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:" + Self.name])
            .stdout.contains("boolean true")
    }

    /// Calls `org.mpris.MediaPlayer2.Player.<method>` as another client of the bus would.
    func call(_ method: String) {
        let r = dbus(["--dest=" + Self.name, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player." + method])
        #expect(r.status == 0, "\(r.stderr)")
    }

    func dbus(_ args: [String]) -> ProcessResult {
        run("/usr/bin/dbus-send", ["--bus=" + bus.address, "--print-reply"] + args)
    }

    var calledMethods: [String] { (FileManagerFree.read(calls) ?? "").split(separator: "\n").map(String.init) }

    /// Ends the player: its name leaves the bus.
    func quit() {
        guard pid > 0 else { return }
        kill(pid, SIGKILL)
        var st: Int32 = 0
        waitpid(pid, &st, 0)
        pid = 0
    }

    func stop() {
        quit()
        bus.stop()
    }

    deinit { stop() }
}

/// The Now Playing bundle (Examples/NowPlayingWidget) against a real MPRIS player on a real
/// session bus: in a worker process (clock shifted to the fixed test instant) the metadata,
/// the progress's arithmetic, the controls and the picker; in the real host, with its
/// sandboxed worker behind its `xdg-dbus-proxy`, the signal reloads, a click on Play/Pause,
/// a player leaving.
@Suite(.serialized) struct NowPlayingWidgetTests {
    static let enabled = TestMPRISPlayer.available || getenv("CI").map { String(cString: $0) == "true" } == true
    static let product = "NowPlayingWidget"

    func worker(_ player: TestMPRISPlayer?) throws -> BlockingWorkerClient {
        let so = TestPaths.plugin(Self.product)
        try #require(FileManagerFree.exists(so), "\(so) is missing: run `swift build` first")
        var env = try shiftedClockEnvironment(at: fixedTestInstant)
        env["DBUS_SESSION_BUS_ADDRESS"] = player?.bus.address ?? ""
        return try BlockingWorkerClient(pluginPath: so, executable: TestPaths.worker, environment: env)
    }

    func timeline(_ w: BlockingWorkerClient, _ family: WidgetFamily, _ configuration: [String: JSONValue] = [:]) throws -> WireResponse {
        let r = try w.request(WireRequest(op: .timeline, kind: "nowplaying", family: family, configuration: configuration))
        #expect(r.ok, "\(r.error ?? "")")
        return r
    }

    func texts(_ e: WireEntry?) -> [String] { var t: [String] = []; e?.view.walk { if let s = $0.text { t.append(s) } }; return t }
    func nodes(_ e: WireEntry?, _ match: (ViewNode) -> Bool) -> [ViewNode] {
        var out: [ViewNode] = []
        e?.view.walk { if match($0) { out.append($0) } }
        return out
    }

    @Test(.enabled(if: NowPlayingWidgetTests.enabled, "no dbus-daemon, xdg-dbus-proxy or python3-gi"))
    func theManifestDeclaresTheMPRISNamesItsSignalsAndThePlayerParameter() throws {
        let dir = TempDir(); defer { dir.remove() }
        let player = try TestMPRISPlayer(dir: dir.path)
        let manifest = try #require(try worker(player).request(WireRequest(op: .describe)).manifest)
        #expect(manifest.bundleId == "org.widgethost.nowplaying")
        #expect(manifest.busNames == ["org.mpris.MediaPlayer2.*"])
        #expect(manifest.busSignals?.map(\.member) == ["PropertiesChanged", "Seeked"])
        #expect((manifest.permissions ?? []).isEmpty && (manifest.filesystems ?? []).isEmpty)
        let widget = try #require(manifest.widgets.first)
        #expect(widget.configuration == "AppIntentConfiguration")
        #expect(widget.families == [.systemSmall, .systemMedium, .accessoryCircular, .accessoryRectangular, .accessoryInline])
        let parameter = try #require(widget.parameters.first)
        #expect(parameter.name == "player" && parameter.type == "entity")
        // Described where the bus is reachable (unsandboxed here): the players by their Identity.
        #expect(parameter.options == [EnumOption(value: "playing", title: "Whichever Is Playing"),
                                      EnumOption(value: TestMPRISPlayer.name, title: "Test Player")])
        #expect(parameter.defaultValue == .string("playing"))
    }

    /// Title, artist, album; the progress spans the track on the wall clock from the position
    /// read at the entry's date (42 s into 5:02); Previous is dimmed on the first track.
    @Test(.enabled(if: NowPlayingWidgetTests.enabled, "no dbus-daemon, xdg-dbus-proxy or python3-gi"))
    func aPlayingTrackWithAProgressThatTicksByItself() throws {
        let dir = TempDir(); defer { dir.remove() }
        let player = try TestMPRISPlayer(dir: dir.path)
        let w = try worker(player)
        let r = try timeline(w, .systemMedium)
        #expect(r.policy?.type == "never")
        let entry = try #require(r.entries?.first)
        #expect(r.entries?.count == 1)
        #expect(abs(entry.date.timeIntervalSince(fixedTestInstant)) < 30)
        #expect(texts(entry).prefix(3) == ["Clair de Lune", "Claude Debussy", "Suite bergamasque"], "\(texts(entry))")
        let progress = try #require(nodes(entry) { $0.kind == .progress }.first?.date)
        #expect(progress.style == "progress" && progress.countsDown == false)
        let start = try #require(progress.start), end = try #require(progress.end)
        #expect(abs(start.timeIntervalSince(entry.date) + 42) < 0.001, "\(start) vs \(entry.date)")
        #expect(abs(end.timeIntervalSince(start) - 302) < 0.001)
        let timers = nodes(entry) { $0.date?.style == "timer" }.compactMap(\.date)
        #expect(timers.map(\.countsDown) == [false, true])
        // Previous is not a control on the first track; Play/Pause (showing pause) and Next are.
        let actions = nodes(entry) { $0.action != nil }.compactMap(\.action)
        #expect(actions.map(\.title) == ["Play/Pause", "Next Track"], "\(actions)")
        #expect(actions.allSatisfy { $0.parameters["player"] == .string(TestMPRISPlayer.name) })
        let symbols = nodes(entry) { $0.symbol != nil }.compactMap(\.symbol)
        #expect(symbols == ["music.note", "backward.fill", "pause.fill", "forward.fill"], "\(symbols)")

        let inline = try #require(try timeline(w, .accessoryInline).entries?.first)
        #expect(texts(inline) == ["Clair de Lune · Claude Debussy"], "\(texts(inline))")

        // At twice the speed the 5:02 track spans 2:31 of the wall clock, 21 s of it gone.
        let fastDir = dir.path + "/fast"
        mkdir(fastDir, 0o755)
        let fast = try TestMPRISPlayer(dir: fastDir, rate: 2)
        defer { fast.stop() }
        let fastEntry = try #require(try timeline(try worker(fast), .systemMedium).entries?.first)
        let span = try #require(nodes(fastEntry) { $0.kind == .progress }.first?.date)
        #expect(abs((span.start ?? .distantPast).timeIntervalSince(fastEntry.date) + 21) < 0.001)
        #expect(abs((span.end ?? .distantPast).timeIntervalSince(span.start ?? .distantFuture) - 151) < 0.001)

        // Paused: the bar and the times stand still at 0:42 of 5:02.
        player.call("Pause")
        let paused = try #require(try timeline(w, .systemMedium).entries?.first)
        let still = try #require(nodes(paused) { $0.kind == .progress }.first)
        #expect(still.date == nil && abs((still.value ?? 0) - 42.0 / 302) < 0.0001)
        #expect(texts(paused).suffix(2) == ["0:42", "-4:20"], "\(texts(paused))")
        #expect(nodes(paused) { $0.symbol != nil }.compactMap(\.symbol).contains("play.fill"))
    }

    /// A configured player that is not on the bus, and a bus with no player: "Not Playing".
    @Test(.enabled(if: NowPlayingWidgetTests.enabled, "no dbus-daemon, xdg-dbus-proxy or python3-gi"))
    func notPlayingWithoutThePlayer() throws {
        let dir = TempDir(); defer { dir.remove() }
        let player = try TestMPRISPlayer(dir: dir.path)
        let w = try worker(player)
        let other = try #require(try timeline(w, .accessoryInline, ["player": .string("org.mpris.MediaPlayer2.vlc")]).entries?.first)
        #expect(texts(other) == ["Not Playing"], "\(texts(other))")
        let chosen = try #require(try timeline(w, .accessoryInline, ["player": .string(TestMPRISPlayer.name)]).entries?.first)
        #expect(texts(chosen) == ["Clair de Lune · Claude Debussy"], "\(texts(chosen))")
        let refused = try w.request(WireRequest(op: .timeline, kind: "nowplaying", family: .accessoryInline,
                                                configuration: ["player": .string("org.example.NotAPlayer")]))
        #expect(!refused.ok)
        player.quit()
        let gone = try #require(try timeline(w, .systemMedium).entries?.first)
        #expect(texts(gone) == ["Not Playing"], "\(texts(gone))")
        let noBus = try #require(try timeline(try worker(nil), .systemSmall).entries?.first)
        #expect(texts(noBus) == ["Not Playing"], "\(texts(noBus))")
    }

    /// The real host and its sandboxed worker: the output shows the track; the player's Next
    /// (called by another client) changes it with nothing due (the declared signal reloads
    /// it); a click on Play/Pause through the host reaches the player, whose PropertiesChanged
    /// turns the widget to paused; the player leaving the bus leaves "Not Playing", and coming
    /// back shows it again. The worker's proxy lets it talk to the MPRIS names and nothing else.
    @Test(.enabled(if: NowPlayingWidgetTests.enabled && sandboxTestsRun, "no Landlock, dbus-daemon, xdg-dbus-proxy or python3-gi"))
    func theHostFollowsThePlayerAndItsButtonsWork() throws {
        let dir = TempDir(); defer { dir.remove() }
        let player = try TestMPRISPlayer(dir: dir.path)
        let config = #"""
            {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"},
             "widgets": [{"kind": "nowplaying", "family": "accessoryInline"}, {"kind": "nowplaying", "family": "systemMedium"}]}
            """#
        let d = try RunningDaemon(config: config, environment: ["DBUS_SESSION_BUS_ADDRESS": player.bus.address, "TZ": "UTC"]) { dir in
            _ = run("/bin/cp", [TestPaths.plugin(Self.product), dir + "/Plugins/libNowPlayingWidget.so"])
        }
        let inline = "nowplaying-accessoryInline", medium = "nowplaying-systemMedium"
        #expect(eventually(timeout: 30) { d.text(inline)?.hasPrefix("♪ Clair de Lune · Claude") == true }, "\(d.text(inline) ?? "nothing")\n\(d.stderr.suffix(3000))")

        let status = run(TestPaths.widgethost, ["status", "--config", d.dir.path + "/config.json"]).stdout
        #expect(status.contains("reads: bus org.mpris.MediaPlayer2.*"), "\(status)")
        // The worker's proxy (gone again once the worker rests: nothing is due) lets it talk to the MPRIS names alone.
        let proxyLines = d.stderr.split(separator: "\n").filter { $0.contains("bus proxy started: ") }
        #expect(!proxyLines.isEmpty && proxyLines.allSatisfy { $0.hasSuffix(" for org.mpris.MediaPlayer2.*") }, "\(proxyLines)")
        // The picker: the host describes the bundle without a bus, so its serving worker is asked
        // again (EntityOptionsRefresh) and the gallery, the Edit Widget form's catalog, offers the player.
        func offeredPlayers() -> [String] {
            let gallery = run(TestPaths.widgethost, ["gallery", "--json", "--config", d.dir.path + "/config.json"])
            guard gallery.status == 0, let items = try? WireCodec.decode([[String: JSONValue]].self, from: Data(gallery.stdout.utf8)),
                  let parameter = items.first(where: { $0["kind"] == .string("nowplaying") })?["parameters"]?.arrayValue?
                      .compactMap(\.objectValue).first(where: { $0["name"] == .string("player") }) else { return [] }
            return (parameter["options"]?.arrayValue ?? []).compactMap { $0.objectValue?["value"]?.stringValue }
        }
        #expect(eventually(timeout: 30) { offeredPlayers().contains(TestMPRISPlayer.name) }, "\(offeredPlayers())")

        player.call("Next")
        #expect(eventually(timeout: 30) { d.text(inline)?.hasPrefix("♪ Gymnopedie No. 1 · Erik") == true }, "\(d.text(inline) ?? "nothing")\n\(d.stderr.suffix(3000))")
        #expect(d.stderr.contains("reload \(inline) (libNowPlayingWidget.so nowplaying accessoryInline): bus signal org.freedesktop.DBus.Properties.PropertiesChanged"),
                "\(d.stderr.suffix(3000))")

        #expect(eventually(timeout: 30) { d.text(medium)?.contains("Gymnopedie No. 1") == true }, "\(d.text(medium) ?? "nothing")")
        let click = run(TestPaths.widgethost, ["click", medium, "--target", "Play/Pause", "--config", d.dir.path + "/config.json"])
        #expect(click.status == 0, "\(click.stdout) \(click.stderr)")
        #expect(eventually(timeout: 30) { player.calledMethods.contains("PlayPause") }, "\(player.calledMethods)")
        // Paused: the inline glyph turns from the note to the pause sign.
        #expect(eventually(timeout: 30) { d.text(inline)?.hasPrefix("‖ Gymnopedie No. 1") == true },
                "\(d.text(inline) ?? "nothing")\n\(d.stderr.suffix(3000))")

        player.quit()
        #expect(eventually(timeout: 30) { d.text(inline) == "♪ Not Playing" }, "\(d.text(inline) ?? "nothing")\n\(d.stderr.suffix(3000))")
        // A player appearing (its name's owner change) is shown with nothing else happening.
        try player.start()
        #expect(eventually(timeout: 30) { d.text(inline)?.hasPrefix("♪ Clair de Lune") == true }, "\(d.text(inline) ?? "nothing")\n\(d.stderr.suffix(3000))")
    }
}

/// The album art (`mpris:artUrl`, a `file://` PNG or JPEG): drawn when the worker can read it,
/// else the placeholder. The sandboxed worker reads it only from a folder the person granted the
/// bundle (`bundles.org.widgethost.nowplaying.filesystems`); without the grant it cannot.
@Suite(.serialized) struct NowPlayingArtworkTests {
    static let cover = TestPaths.repoRoot + "/Tests/SwiftFixtures/Corpus/PlantCare/Assets.xcassets/Monstera.imageset/monstera@3x.png"
    /// A 96 × 96 baseline JPEG (ImageMagick; a yellow disc on a navy-to-pink gradient), as
    /// players' cover caches hold them.
    static let jpegCover = TestPaths.repoRoot + "/Tests/WidgetGraphicsTests/Fixtures/jpeg/cover.jpg"

    /// `<dir>/art/cover.png` (a 120 × 120 PNG), `<dir>/art/cover.jpg` (a 96 × 96 JPEG) and
    /// `<dir>/art/notes.jpg` (named as a JPEG, not an image).
    func artFolder(_ dir: TempDir) -> String {
        let art = dir.path + "/art"
        mkdir(art, 0o755)
        _ = run("/bin/cp", [Self.cover, art + "/cover.png"])
        _ = run("/bin/cp", [Self.jpegCover, art + "/cover.jpg"])
        FileManagerFree.write(art + "/notes.jpg", "\u{FF}\u{D8} not an image")
        return art
    }

    func images(_ e: WireEntry?) -> [ViewNode] {
        var out: [ViewNode] = []
        e?.view.walk { if $0.kind == .image { out.append($0) } }
        return out
    }

    @Test(.enabled(if: NowPlayingWidgetTests.enabled, "no dbus-daemon, xdg-dbus-proxy or python3-gi"))
    func aReadablePNGOrJPEGIsDrawnAnythingElseIsThePlaceholder() throws {
        let dir = TempDir(); defer { dir.remove() }
        let art = artFolder(dir)
        for (i, (url, drawn)) in [("file://" + art + "/cover.png", Self.cover), ("file://" + art + "/cover.jpg", Self.jpegCover),
                                  ("file://" + art + "/notes.jpg", nil), ("https://example.com/cover.png", nil)].enumerated() {
            // A bus folder each: a killed dbus-daemon leaves its socket file behind.
            mkdir(dir.path + "/\(i)", 0o755)
            let player = try TestMPRISPlayer(dir: dir.path + "/\(i)", artURL: url)
            defer { player.stop() }
            let w = try NowPlayingWidgetTests().worker(player)
            let entry = try #require(try NowPlayingWidgetTests().timeline(w, .systemMedium).entries?.first)
            let first = try #require(images(entry).first)
            if let drawn {
                let name = String(url.split(separator: "/").last!), jpeg = name.hasSuffix(".jpg"), side = jpeg ? 96 : 120
                #expect(first.text == name && first.symbol == nil)
                let variant = try #require(first.asset?.variants.first)
                #expect(variant.width == side && variant.height == side && variant.scale == 1)
                #expect(Data(base64Encoded: (jpeg ? variant.jpeg : variant.png) ?? "") == readBytes(drawn).map { Data($0) })
                #expect((jpeg ? variant.png : variant.jpeg) == nil)
                #expect(first.modifiers?.other?["resizable"] == .bool(true))
            } else {
                #expect(first.asset == nil && first.symbol == "music.note", "\(url)")
            }
        }
    }

    /// The same player with JPEG art, the real host: with the folder granted the medium widget's
    /// text has the art's name (its alt text) and the sandboxed render process draws the cover
    /// (its yellow disc) into the widget's PNG; without, the worker cannot open the file and
    /// shows the placeholder (no yellow).
    @Test(.enabled(if: NowPlayingWidgetTests.enabled && sandboxTestsRun, "no Landlock, dbus-daemon, xdg-dbus-proxy or python3-gi"))
    func theSandboxedWorkerReadsTheArtOnlyFromAGrantedFolder() throws {
        let dir = TempDir(); defer { dir.remove() }
        let art = artFolder(dir)
        let player = try TestMPRISPlayer(dir: dir.path, artURL: "file://" + art + "/cover.jpg")
        for granted in [true, false] {
            let bundles = granted ? #", "bundles": {"org.widgethost.nowplaying": {"filesystems": [""# + art + #":ro"]}}"# : ""
            let config = #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}, "#
                + #""widgets": [{"kind": "nowplaying", "family": "systemMedium", "outputs": ["files", "png"], "picture": {"scale": 1}}]"# + bundles + "}"
            let d = try RunningDaemon(config: config, environment: ["DBUS_SESSION_BUS_ADDRESS": player.bus.address, "TZ": "UTC"]) { dir in
                _ = run("/bin/cp", [TestPaths.plugin(NowPlayingWidgetTests.product), dir + "/Plugins/libNowPlayingWidget.so"])
            }
            let id = "nowplaying-systemMedium"
            #expect(eventually(timeout: 30) { d.text(id)?.contains("Clair de Lune") == true }, "\(d.text(id) ?? "nothing")\n\(d.stderr.suffix(3000))")
            #expect(d.text(id)?.contains("cover.jpg") == granted, "granted \(granted): \(d.text(id) ?? "nothing")")
            // The cover's disc is #FFD34E; nothing else in the widget is yellow.
            func yellow() -> Int? {
                guard let image = FileManagerFree.bytes(d.dir.path + "/out/" + id + ".png").flatMap(PixelImage.decodePNG) else { return nil }
                return BundleResourceTests.count(image) { r, g, b in r > 230 && abs(g - 211) < 25 && b < 120 }
            }
            #expect(eventually(timeout: 30) { granted ? (yellow() ?? 0) > 500 : yellow() != nil }, "granted \(granted)\n\(d.stderr.suffix(3000))")
            if !granted { #expect(yellow() == 0) }
        }
    }

    /// A JPEG whose header is whole but whose data is cut short (a player still writing its
    /// cache): the worker takes it (it reads headers only), the render process's libjpeg finds
    /// it damaged, draws the placeholder, says why on stderr, and the host goes on drawing.
    @Test(.enabled(if: NowPlayingWidgetTests.enabled && sandboxTestsRun, "no Landlock, dbus-daemon, xdg-dbus-proxy or python3-gi"))
    func aJPEGCutShortDrawsThePlaceholderAndSaysWhy() throws {
        let dir = TempDir(); defer { dir.remove() }
        let art = artFolder(dir)
        let whole = try #require(readBytes(Self.jpegCover))
        _ = whole.prefix(whole.count * 2 / 3).withUnsafeBufferPointer { b in
            let f = fopen(art + "/cut.jpg", "wb"); defer { fclose(f) }
            return fwrite(b.baseAddress, 1, b.count, f)
        }
        let player = try TestMPRISPlayer(dir: dir.path, artURL: "file://" + art + "/cut.jpg")
        let config = #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}, "#
            + #""widgets": [{"kind": "nowplaying", "family": "systemMedium", "outputs": ["files", "png"], "picture": {"scale": 1}}], "#
            + #""bundles": {"org.widgethost.nowplaying": {"filesystems": [""# + art + #":ro"]}}}"#
        let d = try RunningDaemon(config: config, environment: ["DBUS_SESSION_BUS_ADDRESS": player.bus.address, "TZ": "UTC"]) { dir in
            _ = run("/bin/cp", [TestPaths.plugin(NowPlayingWidgetTests.product), dir + "/Plugins/libNowPlayingWidget.so"])
        }
        let id = "nowplaying-systemMedium"
        #expect(eventually(timeout: 30) { d.text(id)?.contains("cut.jpg") == true }, "\(d.text(id) ?? "nothing")\n\(d.stderr.suffix(3000))")
        #expect(eventually(timeout: 30) { d.stderr.contains(#"WidgetGraphics: image "cut.jpg" is not drawn (the placeholder is): libjpeg: "#) },
                "\(d.stderr.suffix(3000))")
        let path = d.dir.path + "/out/" + id + ".png"
        #expect(eventually(timeout: 30) { FileManagerFree.bytes(path).flatMap(PixelImage.decodePNG) != nil }, "\(d.stderr.suffix(3000))")
        let png = try #require(FileManagerFree.bytes(path).flatMap(PixelImage.decodePNG))
        #expect(BundleResourceTests.count(png) { r, g, b in r > 230 && abs(g - 211) < 25 && b < 120 } == 0, "no part of the cut cover is drawn")
        #expect(BundleResourceTests.count(png) { r, g, b in r < 40 && g < 40 && b < 40 } > 200, "the title is drawn")
    }
}

/// Picture goldens of every family of the Now Playing bundle: `widgethost preview --png` with
/// the test's player on the bus (the first track, 0:42 of 5:02, playing; the clock frozen), of
/// "Not Playing" with no player, and of the medium widget with the track's art. Each golden was looked at before it was committed
/// (`WIDGETHOST_UPDATE_GOLDENS=1` re-records).
@Suite(.serialized) struct NowPlayingPictureTests {
    static let goldens = PictureGoldenTests.goldenDir + "/NowPlayingWidget"

    @Test(.enabled(if: NowPlayingWidgetTests.enabled, "no dbus-daemon, xdg-dbus-proxy or python3-gi"))
    func everyFamilyMatchesItsGolden() throws {
        let dir = TempDir(); defer { dir.remove() }
        let player = try TestMPRISPlayer(dir: dir.path)
        try PictureGoldenTests.previewPNGs("NowPlayingWidget", into: dir.path + "/png", in: dir,
                                           environment: ["DBUS_SESSION_BUS_ADDRESS": player.bus.address])
        let produced = listDirectory(dir.path + "/png").filter { $0.hasSuffix("-timeline-00.png") }.sorted()
        #expect(produced.count == 5, "\(produced)")
        try PictureGoldenTests.compare(produced, in: dir.path + "/png", with: Self.goldens + "/playing")

        player.quit()
        try PictureGoldenTests.previewPNGs("NowPlayingWidget", into: dir.path + "/none", in: dir,
                                           extra: ["--family", "systemMedium"], environment: ["DBUS_SESSION_BUS_ADDRESS": player.bus.address])
        let none = listDirectory(dir.path + "/none").filter { $0.hasSuffix("-timeline-00.png") }.sorted()
        try PictureGoldenTests.compare(none, in: dir.path + "/none", with: Self.goldens + "/not-playing")

        // With its art (a 120 × 120 PNG, drawn into the art's rounded place).
        mkdir(dir.path + "/withArt", 0o755)
        let art = NowPlayingArtworkTests().artFolder(dir)
        let drawing = try TestMPRISPlayer(dir: dir.path + "/withArt", artURL: "file://" + art + "/cover.png")
        defer { drawing.stop() }
        try PictureGoldenTests.previewPNGs("NowPlayingWidget", into: dir.path + "/art", in: dir,
                                           extra: ["--family", "systemMedium"], environment: ["DBUS_SESSION_BUS_ADDRESS": drawing.bus.address])
        let withArt = listDirectory(dir.path + "/art").filter { $0.hasSuffix("-timeline-00.png") }.sorted()
        try PictureGoldenTests.compare(withArt, in: dir.path + "/art", with: Self.goldens + "/artwork")

        // With JPEG art (96 × 96, decoded by the render process's libjpeg), as most players' caches hold it.
        mkdir(dir.path + "/withJPEG", 0o755)
        let jpegPlayer = try TestMPRISPlayer(dir: dir.path + "/withJPEG", artURL: "file://" + art + "/cover.jpg")
        defer { jpegPlayer.stop() }
        try PictureGoldenTests.previewPNGs("NowPlayingWidget", into: dir.path + "/jpeg", in: dir,
                                           extra: ["--family", "systemMedium"], environment: ["DBUS_SESSION_BUS_ADDRESS": jpegPlayer.bus.address])
        let withJPEG = listDirectory(dir.path + "/jpeg").filter { $0.hasSuffix("-timeline-00.png") }.sorted()
        #expect(withJPEG.count == 1, "\(withJPEG)")
        try PictureGoldenTests.compare(withJPEG, in: dir.path + "/jpeg", with: Self.goldens + "/artwork-jpeg")
    }
}
