import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Issue 5 end to end: the real `widgethost run --stdout i3bar` with the Habit example behind a
/// fake bar (clicks on stdin), the control socket and its CLI, `follow`, and real bars
/// (i3blocks, conky) fed the host's output when they are installed.
@Suite(.serialized) struct StatusBarIntegrationTests {
    let habit = "InteractiveHabit-systemSmall"

    /// A temp dir with Plugins/HabitWidget.so and a config listing the interactive Habit widget
    /// and the clock-like MyAppWidget inline, with the socket in the dir.
    func setUp() -> TempDir {
        let dir = TempDir()
        mkdir(dir.path + "/Plugins", 0o755)
        _ = run("/bin/cp", [TestPaths.plugin("HabitWidget"), dir.path + "/Plugins/HabitWidget.so"])
        FileManagerFree.write(dir.path + "/config.json", """
        {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "state/control.sock"},
         "widgets": [{"kind": "InteractiveHabit", "family": "systemSmall"}, {"kind": "MyAppWidget", "family": "accessoryInline"}]}
        """)
        return dir
    }

    func host(_ dir: TempDir, _ extra: [String] = [], stdin: BarProcess.Stdin = .pipe) throws -> BarProcess {
        try BarProcess(TestPaths.widgethost, ["run", "--config", dir.path + "/config.json", "--log-level", "debug"] + extra,
                       dir: dir.path, name: "host", stdin: stdin)
    }

    /// What systemd (`StandardInput=null`), a launcher or a shell redirect gives the status
    /// command: stdin on /dev/null, on a regular file, or closed. The host serves the bar all the
    /// same (clicks are simply not read) and stops cleanly. It used to abort inside libuv within
    /// 0.14 s on /dev/null, leaving the control socket behind.
    @Test(arguments: ["dev-null", "file", "closed"])
    func i3barRunsWhenStdinIsNotAPipe(stdin: String) throws {
        let dir = setUp(); defer { dir.remove() }
        FileManagerFree.write(dir.path + "/clicks.txt", "[\n{\"name\":\"\(habit)\",\"button\":1}\n")
        let kind: BarProcess.Stdin = switch stdin {
        case "dev-null": .file("/dev/null")
        case "file": .file(dir.path + "/clicks.txt")
        default: .closed
        }
        let h = try host(dir, ["--stdout", "i3bar"], stdin: kind)
        #expect(eventually { h.stdout.contains("Habit 0/8") }, "stderr:\n\(h.stderr)")
        #expect(h.stdout.hasPrefix(#"{"version":1,"click_events":true,"stop_signal":0}"#))
        // Still serving: a click through the control socket lands.
        #expect(cli(dir, ["click", habit, "--target", "Log"]).status == 0)
        #expect(eventually { text(dir, habit)?.contains("Habit 1/8") == true }, "stderr:\n\(h.stderr)")
        #expect(h.stderr.contains("click events are not read"), "says why clicks are not read")
        h.signal(SIGTERM)
        #expect(h.waitForExit() == 0, "stderr:\n\(h.stderr)")
        #expect(!FileManagerFree.exists(dir.path + "/state/control.sock"))
    }

    func text(_ dir: TempDir, _ id: String) -> String? { FileManagerFree.read(dir.path + "/out/\(id).txt") }

    func cli(_ dir: TempDir, _ args: [String]) -> ProcessResult {
        run(TestPaths.widgethost, args + ["--config", dir.path + "/config.json"])
    }

    @Test func i3barProtocolAndAClickOnTheLogButtonChangesTheCount() throws {
        let dir = setUp(); defer { dir.remove() }
        let h = try host(dir, ["--stdout", "i3bar"])
        #expect(eventually { h.stdout.contains("Habit 0/8") }, "stderr:\n\(h.stderr)")
        let lines = h.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == #"{"version":1,"click_events":true,"stop_signal":0}"#)
        #expect(lines[1] == "[")
        let last = try #require(lines.last)
        #expect(last.hasPrefix(","))
        let blocks = try #require(try? WireCodec.decode([[String: JSONValue]].self, from: Data(last.dropFirst().utf8)))
        #expect(blocks.contains { $0["name"] == .string(habit) && $0["instance"] == .string("InteractiveHabit") })
        #expect(blocks.allSatisfy { $0["full_text"]?.stringValue != nil })
        #expect(blocks.contains { $0["markup"] == .string("pango") }, "the Habit views use styled text")
        // i3bar's click stream: `[`, then objects separated by commas.
        h.send("[\n{\"name\":\"\(habit)\",\"instance\":\"InteractiveHabit\",\"button\":1,\"x\":5,\"y\":5}\n")
        #expect(eventually { text(dir, habit)?.contains("Habit 1/8") == true }, "stderr:\n\(h.stderr)")
        #expect(eventually { h.stdout.split(separator: "\n").last?.contains("1/8") == true })
        h.send(",{\"name\":\"\(habit)\",\"button\":1}\n")
        #expect(eventually { text(dir, habit)?.contains("Habit 2/8") == true }, "stderr:\n\(h.stderr)")
        #expect(h.stderr.contains("interaction: Log Habit on \(habit)"))
        h.signal(SIGTERM)
        #expect(h.waitForExit() == 0)
    }

    @Test func controlSocketReloadClickStatusAndCleanup() throws {
        let dir = setUp(); defer { dir.remove() }
        let h = try host(dir)
        let sock = dir.path + "/state/control.sock"
        #expect(eventually { text(dir, habit) != nil && FileManagerFree.exists(sock) }, "stderr:\n\(h.stderr)")
        var st = stat()
        #expect(lstat(sock, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600, "the control socket is private")
        // click --target by title, by label and by id; a wrong target lists the controls.
        let start = monotonicNow()
        let c = cli(dir, ["click", habit, "--target", "Log"])
        #expect(c.status == 0, "\(c.stderr)")
        #expect(eventually { text(dir, habit)?.contains("Habit 1/8") == true })
        print("click → new count in the output file: \(Int((monotonicNow() - start) * 1000)) ms (CLI start included; polled every 20 ms)")
        #expect(cli(dir, ["click", habit, "--target", "0"]).status == 0)
        #expect(eventually { text(dir, habit)?.contains("Habit 2/8") == true })
        let bad = cli(dir, ["click", habit, "--target", "nope"])
        #expect(bad.status == 1 && bad.stderr.contains("Log Habit"), "\(bad.stderr)")
        #expect(cli(dir, ["click", "no-such-widget"]).status == 1)
        // The toggle: its isOn flips in status.
        #expect(cli(dir, ["click", habit, "--target", "Toggle Habit"]).status == 0)
        func habitStatus() -> (widget: [String: JSONValue], top: [String: JSONValue])? {
            let s = cli(dir, ["status", "--json"])
            guard s.status == 0, let obj = try? WireCodec.decode([String: JSONValue].self, from: Data(s.stdout.utf8)),
                  case .array(let widgets)? = obj["widgets"],
                  let w = widgets.compactMap(\.objectValue).first(where: { $0["id"] == .string(habit) }) else { return nil }
            return (w, obj)
        }
        #expect(eventually {
            guard case .array(let controls)? = habitStatus()?.widget["controls"] else { return false }
            return controls.count == 2 && controls.contains { $0.objectValue?["isOn"] == .bool(true) }
        }, "stderr:\n\(h.stderr)")
        // reload [kind]
        let before = h.stderr.components(separatedBy: "reloadTimelines(ofKind: MyAppWidget)").count
        let r = cli(dir, ["reload", "MyAppWidget"])
        #expect(r.status == 0 && r.stdout.contains("MyAppWidget-accessoryInline"), "\(r.stderr)")
        #expect(eventually { h.stderr.components(separatedBy: "reloadTimelines(ofKind: MyAppWidget)").count > before })
        #expect(cli(dir, ["reload", "NoSuchKind"]).status == 1)
        #expect(cli(dir, ["reload"]).status == 0)
        // status --json: bundles, instances, last reload and reason, controls. The toggle's
        // perform wrote the shared defaults, so a reload for that container change may still
        // land after ours and take its place as the last reason: ask again until ours is last
        // (no sleep that assumes how long the container's reloads take).
        #expect(eventually {
            guard cli(dir, ["reload"]).status == 0, let (w, top) = habitStatus() else { return false }
            return w["lastReloadReason"] == .string("reloadAllTimelines()") && w["lastReload"]?.stringValue != nil && top["bundles"] != nil
        }, "stderr:\n\(h.stderr)")
        let human = cli(dir, ["status"])
        #expect(human.stdout.contains("control 0: button \"Log Habit\"") && human.stdout.contains("last reload"), "\(human.stdout)")
        h.signal(SIGTERM)
        #expect(h.waitForExit() == 0)
        #expect(!FileManagerFree.exists(sock), "the socket is removed on SIGTERM")
        let gone = cli(dir, ["status"])
        #expect(gone.status == 1 && gone.stderr.contains("cannot connect"))
    }

    @Test func clickWithNoControlOpensTheWidgetURLWithTheConfiguredOpener() throws {
        let dir = TempDir(); defer { dir.remove() }
        mkdir(dir.path + "/Plugins", 0o755)
        _ = run("/bin/cp", [TestPaths.plugin("HabitWidget"), dir.path + "/Plugins/HabitWidget.so"])
        let opener = dir.path + "/opener.sh"
        FileManagerFree.write(opener, "#!/bin/sh\necho \"$1\" > '\(dir.path)/opened'\n")
        chmod(opener, 0o755)
        FileManagerFree.write(dir.path + "/config.json", """
        {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "state/control.sock"},
         "widgets": [{"kind": "MyAppWidget", "family": "systemSmall", "id": "habit"}],
         "defaults": {"opener": "\(opener)", "openSchemes": ["myapp"]}}
        """)
        let h = try host(dir)
        #expect(eventually { text(dir, "habit") != nil }, "stderr:\n\(h.stderr)")
        let c = cli(dir, ["click", "habit"])
        #expect(c.status == 0 && c.stdout.contains("myapp://habit/drink-water"), "\(c.stderr)")
        #expect(eventually { FileManagerFree.read(dir.path + "/opened") == "myapp://habit/drink-water\n" }, "stderr:\n\(h.stderr)")
    }

    @Test func followPrintsEachChangeAndExitsWhenTheBarCloses() throws {
        let dir = setUp(); defer { dir.remove() }
        let h = try host(dir)
        #expect(eventually { text(dir, habit) != nil }, "stderr:\n\(h.stderr)")
        let f = try BarProcess(TestPaths.widgethost, ["follow", habit, "--config", dir.path + "/config.json", "--format", "waybar"],
                               dir: dir.path, name: "follow", stdoutPipe: true)
        let first = try #require(f.readLine(), "stderr:\n\(f.stderr)")
        let obj = try WireCodec.decode([String: JSONValue].self, from: Data(first.utf8))
        #expect(obj["text"]?.stringValue?.contains("Habit 0/8") == true)
        #expect(obj["tooltip"] != nil && obj["class"] != nil)
        let start = monotonicNow()
        #expect(cli(dir, ["click", habit, "--target", "Log"]).status == 0)
        let second = try #require(f.readLine())
        print("click → follow line: \(Int((monotonicNow() - start) * 1000)) ms (CLI start included)")
        #expect(second.contains("Habit 1/8"))
        // The bar goes away: follow notices the closed pipe and exits cleanly, with no change needed.
        f.closeStdout()
        #expect(f.waitForExit(timeout: 5) == 0, "stderr:\n\(f.stderr)")
    }

    /// `click --at x,y` turns a point of the widget's picture into the control there, through
    /// `out/<id>.regions.json`; a point outside every control is not taken as the first control.
    @Test func clickAtAPointRunsTheControlThere() throws {
        let dir = setUp(); defer { dir.remove() }
        let h = try host(dir)
        #expect(eventually { text(dir, habit)?.contains("Habit 0/8") == true }, "stderr:\n\(h.stderr)")
        let regions = PictureRegions(width: 316, height: 316, scale: 2, regions: [
            .init(kind: "button", x: 20, y: 220, width: 180, height: 70, target: "0", title: "Log Habit"),
        ])
        FileManagerFree.write(dir.path + "/out/" + PictureRegions.fileName(for: habit), String(decoding: regions.encoded(), as: UTF8.self))
        #expect(cli(dir, ["click", habit, "--at", "30,230"]).status == 0)
        #expect(eventually { text(dir, habit)?.contains("Habit 1/8") == true }, "stderr:\n\(h.stderr)")
        let outside = cli(dir, ["click", habit, "--at", "300,10"])
        // Outside the button: the widget's URL is asked for (the Habit widget has none), not its
        // first control.
        #expect(outside.status == 1 && outside.stderr.contains("no URL"), "\(outside.stdout)\(outside.stderr)")
        #expect(text(dir, habit)?.contains("Habit 1/8") == true)
        #expect(cli(dir, ["click", habit, "--at", "nope"]).status != 0)
        let missing = cli(dir, ["click", "MyAppWidget-accessoryInline", "--at", "1,1"])
        #expect(missing.status == 1 && missing.stderr.contains("no picture regions"), "\(missing.stderr)")
    }

    /// A host killed with -9 (or stopped) must not leave the bar showing a clock frozen at its
    /// last second: `follow` sees the process end (pidfd) and prints the widget as stale; a new
    /// host on the same directory brings it back.
    @Test func followMarksTheWidgetStaleWhileNoHostRuns() throws {
        let dir = setUp(); defer { dir.remove() }
        let h = try host(dir)
        #expect(eventually { text(dir, habit) != nil }, "stderr:\n\(h.stderr)")
        let f = try BarProcess(TestPaths.widgethost, ["follow", habit, "--config", dir.path + "/config.json", "--format", "waybar"],
                               dir: dir.path, name: "follow", stdoutPipe: true)
        let first = try #require(f.readLine(), "stderr:\n\(f.stderr)")
        #expect(!first.contains("stale"), "\(first)")
        h.signal(SIGKILL)
        _ = h.waitForExit()
        let gone = try #require(f.readLine(), "stderr:\n\(f.stderr)")
        let obj = try WireCodec.decode([String: JSONValue].self, from: Data(gone.utf8))
        #expect(obj["class"]?.arrayValue?.contains(.string("stale")) == true, "\(gone)")
        #expect(obj["text"]?.stringValue?.contains("Habit 0/8") == true, "the last output stays, marked")
        #expect(f.stderr.contains("no host is writing"), "\(f.stderr)")
        let again = try host(dir)
        let back = try #require(f.readLine(), "stderr:\n\(f.stderr)\nhost:\n\(again.stderr)")
        #expect(!back.contains("stale"), "\(back)")
        #expect(eventually { again.stderr.contains("widgethost running") }, "signal handlers installed")
        again.signal(SIGTERM)
        #expect(again.waitForExit() == 0)
    }

    /// A widget id that is not there: say which directory was read and what is there, exit 1;
    /// with --wait, wait for it (a bar that starts before the host).
    @Test func followNamesTheDirectoryWhenTheWidgetIsNotThere() throws {
        let dir = setUp(); defer { dir.remove() }
        let r = cli(dir, ["follow", "no-such-widget"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("no widget \"no-such-widget\" in \(dir.path)/out") && r.stderr.contains("--wait"), "\(r.stderr)")
        let f = try BarProcess(TestPaths.widgethost, ["follow", habit, "--config", dir.path + "/config.json", "--wait"],
                               dir: dir.path, name: "follow", stdoutPipe: true)
        #expect(eventually { f.stderr.contains("waiting for the widget") }, "\(f.stderr)")
        let h = try host(dir)
        let line = try #require(f.readLine(), "follow:\n\(f.stderr)\nhost:\n\(h.stderr)")
        #expect(line.contains("Habit 0/8"), "\(line)")
        #expect(eventually { h.stderr.contains("widgethost running") }, "signal handlers installed")
        h.signal(SIGTERM)
        #expect(h.waitForExit() == 0)
    }

    /// `--nerd-font` on `run` (the host renders Nerd Font glyphs) and on `follow` (the plain
    /// glyphs of a host that renders Unicode are swapped), as `preview` has it.
    @Test func nerdFontForRunAndFollow() throws {
        let inline = "MyAppWidget-accessoryInline", flame = "\u{F06D}"
        let dir = setUp(); defer { dir.remove() }
        let h = try host(dir)
        #expect(eventually { text(dir, inline)?.hasPrefix("♨") == true }, "stderr:\n\(h.stderr)")
        let f = try BarProcess(TestPaths.widgethost, ["follow", inline, "--config", dir.path + "/config.json", "--nerd-font"],
                               dir: dir.path, name: "follow", stdoutPipe: true)
        let line = try #require(f.readLine(), "stderr:\n\(f.stderr)")
        #expect(line.hasPrefix(flame + " Habit"), "\(line)")
        #expect(eventually { h.stderr.contains("widgethost running") })
        h.signal(SIGTERM)
        #expect(h.waitForExit() == 0)
        let nerd = try host(dir, ["--nerd-font"])
        #expect(eventually { text(dir, inline)?.hasPrefix(flame) == true }, "stderr:\n\(nerd.stderr)")
        #expect(eventually { nerd.stderr.contains("widgethost running") })
        nerd.signal(SIGTERM)
        #expect(nerd.waitForExit() == 0)
    }

    @Test func i3blocksShowsTheHostOutputThroughAPersistBlock() throws {
        guard let i3blocks = requireProgram("i3blocks", package: "i3blocks") else { return }
        let dir = setUp(); defer { dir.remove() }
        let h = try host(dir)
        #expect(eventually { text(dir, habit) != nil }, "stderr:\n\(h.stderr)")
        FileManagerFree.write(dir.path + "/i3blocks.conf", """
        [\(habit)]
        command=\(TestPaths.widgethost) follow \(habit) --config \(dir.path)/config.json --format text
        interval=persist

        """)
        let bar = try BarProcess(i3blocks, ["-c", dir.path + "/i3blocks.conf"], dir: dir.path, name: "i3blocks")
        #expect(eventually { bar.stdout.contains("Habit 0/8") }, "i3blocks stdout:\n\(bar.stdout)\nstderr:\n\(bar.stderr)")
        #expect(cli(dir, ["click", habit, "--target", "Log"]).status == 0)
        #expect(eventually { bar.stdout.contains("Habit 1/8") }, "i3blocks stdout:\n\(bar.stdout)")
        // deinit SIGKILLs i3blocks; its `follow` child then sees the closed pipe and exits.
    }

    @Test func conkyShowsTheHostOutputFile() throws {
        guard let conky = requireProgram("conky", package: "conky-std") else { return }
        let dir = setUp(); defer { dir.remove() }
        let h = try host(dir)
        #expect(eventually { text(dir, habit) != nil }, "stderr:\n\(h.stderr)")
        FileManagerFree.write(dir.path + "/conky.conf", """
        conky.config = { out_to_console = true, out_to_x = false, background = false, update_interval = 0.2, total_run_times = 3 }
        conky.text = [[${cat \(dir.path)/out/\(habit).txt}]]
        """)
        let r = run(conky, ["-c", dir.path + "/conky.conf"])
        #expect(r.stdout.contains("Habit 0/8"), "conky stdout:\n\(r.stdout)\nstderr:\n\(r.stderr)")
    }
}

/// DESIGN §5 with the real host: a `Text(date, style: .timer)` ticks once a second from the
/// host's own timer with no plugin call, and stops when the entry on screen has no live date.
@Suite(.serialized) struct LiveDateIntegrationTests {
    @Test func timerTextTicksWithNoPluginCallOnlyWhileOnScreen() throws {
        let d = try RunningDaemon()
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_TIMER", "PROBE_STEP=4"]), as: "probe.so")
        let id = "probe-systemSmall"
        let f = try BarProcess(TestPaths.widgethost, ["follow", id, "--out", d.dir.path + "/out", "--format", "text", "--wait"],
                               dir: d.dir.path, name: "follow", stdoutPipe: true)
        var lines: [String] = []
        let start = monotonicNow()
        while monotonicNow() - start < 7, let l = f.readLine(timeout: 7 - (monotonicNow() - start)) { lines.append(l) }
        let ticks = lines.filter { $0.hasPrefix("v1 none") && !$0.contains("#1") }
        #expect(ticks.count >= 3, "one line per second while the timer is on screen: \(lines)")
        #expect(Set(ticks).count == ticks.count, "every tick shows a new time: \(ticks)")
        #expect(lines.last == "v1 none #1", "\(lines)")
        #expect(lines.filter { $0 == "v1 none #1" }.count == 1, "no ticks once the timer is off screen: \(lines)")
        #expect(d.stderr.components(separatedBy: "reload \(id)").count == 2, "one timeline request; ticks need no plugin call")
        print("timer ticks in 4 s on screen: \(ticks.count); lines after it left the screen (3 s): \(lines.count - ticks.count - 1)")
    }
}
