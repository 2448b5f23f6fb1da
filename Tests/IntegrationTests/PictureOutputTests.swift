import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetGraphics
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Issue 12, item 1: the real `widgethost run` with the real example plugins and `png` / `svg`
/// outputs, drawn by the real `widgethost-render --serve`.
@Suite(.serialized) struct PictureOutputTests {
    let habit = "InteractiveHabit-systemSmall"

    func config(outputs: String = #"["files", "png"]"#, picture: String = "{}", extraWidgets: String = "") -> String {
        """
        {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "state/control.sock"},
         "widgets": [{"kind": "InteractiveHabit", "family": "systemSmall", "outputs": \(outputs), "picture": \(picture)}\(extraWidgets)]}
        """
    }

    func habitDaemon(_ config: String, environment: [String: String?] = [:], prepare: (String) throws -> Void = { _ in }) throws -> RunningDaemon {
        try RunningDaemon(config: config, environment: environment) { dir in
            _ = run("/bin/cp", [TestPaths.plugin("HabitWidget"), dir + "/Plugins/HabitWidget.so"])
            try prepare(dir)
        }
    }

    func bytes(_ d: RunningDaemon, _ name: String) -> [UInt8]? { FileManagerFree.bytes(d.dir.path + "/out/" + name) }

    func regions(_ d: RunningDaemon, _ id: String) -> PictureRegions? {
        bytes(d, id + ".regions.json").flatMap { PictureRegions.decode(Data($0)) }
    }

    /// (inode, mtime in ns) of a file.
    func identity(_ path: String) -> (UInt, Int)? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return (UInt(st.st_ino), st.st_mtim.tv_sec * 1_000_000_000 + st.st_mtim.tv_nsec)
    }

    /// Child processes of `pid` running `widgethost-render --serve`.
    func renderProcesses(of pid: pid_t) -> [pid_t] {
        processesMentioning("widgethost-render").filter { parent(of: $0) == pid }
    }

    /// The widget's timeline requests whose answer has arrived, from `status --json`
    /// (`timelineRequests` less the one in flight), 0 when unknown.
    func timelineRequests(_ d: RunningDaemon, _ id: String) -> Double {
        let r = cli(d, ["status", "--json"])
        guard r.status == 0, let s = try? WireCodec.decode([String: JSONValue].self, from: Data(r.stdout.utf8)),
              case .array(let widgets)? = s["widgets"] else { return 0 }
        for case .object(let o) in widgets where o["id"] == .string(id) {
            if case .number(let n)? = o["timelineRequests"] { return o["reloading"] == .bool(true) ? n - 1 : n }
        }
        return 0
    }

    func cli(_ d: RunningDaemon, _ args: [String]) -> ProcessResult {
        run(TestPaths.widgethost, args + ["--config", d.dir.path + "/config.json"])
    }

    @Test func aDaemonWithTextOutputsOnlyNeverStartsTheRenderProcessNorLoadsCairo() throws {
        let d = try habitDaemon(config(outputs: #"["files"]"#))
        #expect(eventually { d.text(habit)?.contains("Habit 0/8") == true }, "stderr:\n\(d.stderr)")
        #expect(cli(d, ["click", habit, "--target", "Log"]).status == 0)
        #expect(eventually { d.text(habit)?.contains("Habit 1/8") == true })
        #expect(renderProcesses(of: d.pid).isEmpty)
        let maps = try #require(FileManagerFree.read("/proc/\(d.pid)/maps"))
        #expect(!maps.contains("libcairo") && !maps.contains("libpango"), "the host mapped Cairo or Pango")
        #expect(!maps.contains("libjpeg"), "the host mapped libjpeg (only the drawing processes decode JPEG)")
        #expect(!FileManagerFree.exists(d.dir.path + "/out/\(habit).png"))
        #expect(!d.stderr.contains("render process"))
    }

    @Test func thePictureAppearsDecodesAtTheFamilySizeTimesTheScaleAndFollowsClicksAndContainerWrites() throws {
        let d = try habitDaemon(config(outputs: #"["files", "png", "svg"]"#, picture: #"{"scale": 3, "colorScheme": "dark"}"#))
        let png = d.dir.path + "/out/\(habit).png"
        #expect(eventually { bytes(d, habit + ".png").flatMap(PixelImage.decodePNG) != nil }, "stderr:\n\(d.stderr)")
        let first = try #require(bytes(d, habit + ".png"))
        let image = try #require(PixelImage.decodePNG(first))
        #expect(image.width == 158 * 3 && image.height == 158 * 3)
        #expect(String(decoding: bytes(d, habit + ".svg") ?? [], as: UTF8.self).contains("<svg"))
        #expect(renderProcesses(of: d.pid).count == 1)

        // The regions name the Log button and the toggle, inside the picture, in pixels.
        let r = try #require(regions(d, habit))
        #expect(r.width == 474 && r.height == 474 && r.scale == 3)
        let log = try #require(r.regions.first { $0.title == "Log Habit" })
        #expect(log.kind == "button" && log.target == "0")
        #expect(r.regions.contains { $0.kind == "toggle" && $0.title == "Toggle Habit" })
        #expect(log.x > 0 && log.y > 0 && log.x + log.width <= 474 && log.y + log.height <= 474 && log.width > 30 && log.height > 30)

        // A click at the button's centre, through the regions and the control socket, logs the habit.
        let c = cli(d, ["click", habit, "--at", "\(Int(log.x + log.width / 2)),\(Int(log.y + log.height / 2))"])
        #expect(c.status == 0, "\(c.stderr)")
        #expect(eventually { d.text(habit)?.contains("Habit 1/8") == true }, "stderr:\n\(d.stderr)")
        #expect(eventually { bytes(d, habit + ".png") != first }, "the picture follows the click")
        let afterClick = try #require(bytes(d, habit + ".png"))
        #expect(PixelImage.decodePNG(afterClick) != nil)

        // A write into the shared container redraws it too.
        let w = cli(d, ["defaults", "write", "group.com.yourapp.shared", "completedCount", "6"])
        #expect(w.status == 0, "\(w.stderr)")
        #expect(eventually { d.text(habit)?.contains("Habit 6/8") == true }, "stderr:\n\(d.stderr)")
        #expect(eventually { let b = bytes(d, habit + ".png"); return b != afterClick && b != first })
        #expect(identity(png) != nil)
        #expect(!FileManagerFree.exists(png + ".tmp"))
    }

    @Test func aPictureEqualToTheFileIsNotRewrittenAfterARestart() throws {
        let d = try habitDaemon(config())
        #expect(eventually { d.stderr.contains("picture of \(habit) drawn") }, "stderr:\n\(d.stderr)")
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0)
        // A new host on a copy of the same directory and state draws the same picture, compares
        // it with the file there and leaves the file alone.
        var copied: (UInt, Int)?, regionsCopied: (UInt, Int)?
        let d2 = try habitDaemon(config()) { dir in
            for sub in ["out", "state", "containers"] where !FileManagerFree.exists(dir + "/" + sub) {
                _ = run("/bin/cp", ["-a", d.dir.path + "/" + sub, dir + "/" + sub])
            }
            copied = identity(dir + "/out/\(habit).png")
            regionsCopied = identity(dir + "/out/\(habit).regions.json")
        }
        let png2 = d2.dir.path + "/out/\(habit).png", regions2 = d2.dir.path + "/out/\(habit).regions.json"
        #expect(eventually { d2.stderr.contains("picture of \(habit) drawn") }, "stderr:\n\(d2.stderr)")
        #expect(d2.stderr.contains("µs: unchanged"), "stderr:\n\(d2.stderr)")
        let a = try #require(copied), b = try #require(identity(png2))
        #expect(a == b, "same inode and mtime: not rewritten")
        let c = try #require(regionsCopied), e = try #require(identity(regions2))
        #expect(c == e)
    }

    @Test func aKilledRenderProcessCostsOnePictureAndTheNextStartsANewOne() throws {
        let d = try habitDaemon(config())
        #expect(eventually { bytes(d, habit + ".png") != nil }, "stderr:\n\(d.stderr)")
        let first = try #require(renderProcesses(of: d.pid).first)
        kill(first, SIGKILL)
        #expect(eventually { renderProcesses(of: d.pid).isEmpty })
        let before = bytes(d, habit + ".png")
        #expect(cli(d, ["click", habit, "--target", "Log"]).status == 0)
        #expect(eventually { d.text(habit)?.contains("Habit 1/8") == true }, "the text never waits for a picture")
        #expect(eventually { bytes(d, habit + ".png") != before }, "stderr:\n\(d.stderr)")
        let second = try #require(renderProcesses(of: d.pid).first)
        #expect(second != first)
        #expect(d.stderr.contains("render process restarted"))
        let status = cli(d, ["status"])
        #expect(status.stdout.contains("pictures: render process running (started 2 times)"), "\(status.stdout)")
    }

    @Test func aHungRenderIsKilledAtItsDeadlineAndTheTextKeepsFlowing() throws {
        // A render executable that never answers stands in for a picture that takes for ever.
        let dir = TempDir(); defer { dir.remove() }
        let fake = dir.path + "/hung-render"
        FileManagerFree.write(fake, "#!/bin/sh\nsleep 30\n")
        chmod(fake, 0o755)
        let d = try habitDaemon(config(picture: #"{"timeoutSeconds": 0.5}"#), environment: ["WIDGETHOST_RENDER_EXECUTABLE": fake])
        #expect(eventually { d.text(habit)?.contains("Habit 0/8") == true })
        #expect(eventually { d.stderr.contains("missed its deadline") }, "stderr:\n\(d.stderr)")
        #expect(cli(d, ["click", habit, "--target", "Log"]).status == 0)
        #expect(eventually { d.text(habit)?.contains("Habit 1/8") == true }, "stderr:\n\(d.stderr)")
        // A clean stop ends the hung render process with it (its group is killed).
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0, "stderr:\n\(d.stderr)")
        #expect(eventually { processesMentioning(fake).isEmpty }, "the hung render process outlived the host")
    }

    @Test func aBusyRenderProcessDoesNotOutliveAHostKilledWithSIGKILL() throws {
        // A stopped render process stands in for one busy drawing: it never reads the EOF that
        // the host's death leaves on its stdin, so only the parent-death signal can end it.
        let d = try habitDaemon(config())
        #expect(eventually { bytes(d, habit + ".png") != nil }, "stderr:\n\(d.stderr)")
        let started = try #require(renderProcesses(of: d.pid).first)
        let render = innermost(started)  // the one drawing, in its own PID namespace
        kill(render, SIGSTOP)
        d.signal(SIGKILL)
        _ = d.waitForExit()
        #expect(eventually { !isAlive(render) && !isAlive(started) }, "the render process outlived its host")
    }

    @Test func aLiveTimerRedrawsThePictureOnItsOwnTicks() throws {
        let dir = TempDir(); defer { dir.remove() }
        let probe = try buildProbe(in: dir.path, name: "timer", defines: ["PROBE_TIMER", "PROBE_STEP=3600"])
        let d = try RunningDaemon(config: """
        {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"},
         "widgets": [{"kind": "probe", "family": "systemSmall", "outputs": ["png"], "picture": {"scale": 1}}]}
        """) { dir in _ = run("/bin/cp", [probe, dir + "/Plugins/probe.so"]) }
        let id = "probe-systemSmall"
        #expect(eventually { bytes(d, id + ".png") != nil }, "stderr:\n\(d.stderr)")
        var seen: Set<[UInt8]> = []
        #expect(eventually(timeout: 20) {
            if let b = bytes(d, id + ".png") { seen.insert(b) }
            return seen.count >= 3
        }, "the timer's picture changes every second with no reload")
        #expect(PixelImage.decodePNG(bytes(d, id + ".png") ?? [])?.width == 158)
    }

    @Test func theBarIsSignalledWhenThePictureChanged() throws {
        // A stand-in for waybar that counts SIGRTMIN+8, under a name of its own (so no real waybar
        // another test runs is signalled, and no other host's signal reaches it).
        let dir = TempDir(); defer { dir.remove() }
        FileManagerFree.write(dir.path + "/bar.c", """
        #include <signal.h>
        #include <stdio.h>
        #include <unistd.h>
        static volatile sig_atomic_t n;
        static void on(int s) { (void)s; n++; }
        int main(int argc, char **argv) {
            signal(SIGRTMIN + 8, on);
            sigset_t all; sigemptyset(&all); sigprocmask(SIG_SETMASK, &all, 0);  /* the test runner's mask is inherited */
            for (;;) { pause(); FILE *f = fopen(argv[1], "w"); if (f) { fprintf(f, "%d\\n", (int)n); fclose(f); } }
        }
        """)
        let bar = dir.path + "/picturebar"
        try #require(run("/usr/bin/cc", ["-o", bar, dir.path + "/bar.c"]).status == 0)
        let count = dir.path + "/count"
        let pid = spawnBackground(bar, [count])
        defer { kill(pid, SIGKILL); var st: Int32 = 0; waitpid(pid, &st, 0) }
        let d = try habitDaemon(config(picture: #"{"signal": 8, "signalProcess": "picturebar"}"#))
        #expect(eventually { FileManagerFree.read(count) == "1\n" }, "stderr:\n\(d.stderr)")
        #expect(cli(d, ["click", habit, "--target", "Log"]).status == 0)
        #expect(eventually { FileManagerFree.read(count) == "2\n" }, "stderr:\n\(d.stderr)")
        // A picture that did not change sends nothing: once the reload's timeline has arrived,
        // the count stays.
        let before = timelineRequests(d, habit)
        #expect(cli(d, ["reload"]).status == 0)
        #expect(eventually { timelineRequests(d, habit) > before }, "the reload arrived")
        usleep(300_000)  // a picture would be drawn and signalled within this after its timeline
        #expect(FileManagerFree.read(count) == "2\n")
    }

    /// Issue 23, item 3: a plugin whose every entry (a new one each second) is 63 levels of
    /// shadowed stacks holding 60 shadowed texts each (3 800 shadows), drawn as PNG and SVG at scale 3, beside a ticker whose picture changes
    /// every second. Without a fair share each of its pictures held the render process until
    /// the 5 s deadline killed it, and the ticker's picture changed 5 times in 30 s. Now its
    /// budget and backoff hold it to a small part of the render process: the ticker's picture
    /// changes at least 20 times at a rate of at least 0.6 per second, and the hostile widget's
    /// `.json` says it is stale and why.
    @Test func aWidgetWhosePicturesNeverFinishDoesNotStarveTheOthers() throws {
        let dir = TempDir(); defer { dir.remove() }
        let ticker = try buildHostile(in: dir.path, name: "ticker", defines: ["TICKER"])
        let shadows = try buildHostile(in: dir.path, name: "shadows", defines: ["MODE=11"])
        let d = try RunningDaemon(config: """
        {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"},
         "widgets": [{"kind": "hostile", "family": "systemSmall", "outputs": ["files", "png", "svg"], "picture": {"scale": 3}},
                     {"kind": "ticker", "family": "systemSmall", "outputs": ["files", "png"], "picture": {"scale": 1}}]}
        """) { dir in
            _ = run("/bin/cp", [shadows, dir + "/Plugins/hostile.so"])
            _ = run("/bin/cp", [ticker, dir + "/Plugins/ticker.so"])
        }
        let clock = "ticker-systemSmall", hostile = "hostile-systemSmall"
        #expect(eventually(timeout: 30) { bytes(d, clock + ".png") != nil && d.text(hostile)?.hasPrefix("h") == true },
                "stderr:\n\(d.stderr.suffix(3000))")
        var changes = 0, last = bytes(d, clock + ".png")
        let start = monotonicNow()
        let enough = eventually(timeout: 90) {
            if let b = bytes(d, clock + ".png"), b != last { changes += 1; last = b }
            return changes >= 20
        }
        let seconds = monotonicNow() - start
        print("ticker beside a hostile picture: \(changes) picture changes in \(seconds) s")
        #expect(enough, "the ticker's picture changed \(changes) times in \(seconds) s\n\(d.stderr.suffix(3000))")
        #expect(Double(changes) / seconds >= 0.6, "the ticker's picture changed \(changes) times in \(seconds) s")
        #expect(eventually { d.output(hostile)?["stale"] == .bool(true) }, "\(d.output(hostile) ?? [:])")
        let error = d.output(hostile)?["error"]?.stringValue ?? ""
        #expect(error.hasPrefix("picture not drawn: "), "\(error)")
        #expect(d.output(clock)?["stale"] == .bool(false), "the ticker is not stale")
    }

    /// The render process runs under a memory cap and the workers' sandbox: RLIMIT_DATA is
    /// 256 MiB, no_new_privs and the seccomp filter are set, it is in user, PID, IPC, mount and
    /// network namespaces of its own, its `/proc` shows only its namespace's processes, its root
    /// holds `out/` (at its own path) but not the daemon's config beside it, and its
    /// environment has no home, session or agent.
    @Test func theRenderProcessRunsSandboxedUnderAMemoryCap() throws {
        let d = try habitDaemon(config(), environment: ["HOME": "/root", "XDG_RUNTIME_DIR": "/run/user/0", "SSH_AUTH_SOCK": "/tmp/agent.sock"])
        #expect(eventually { bytes(d, habit + ".png") != nil }, "stderr:\n\(d.stderr)")
        let started = try #require(renderProcesses(of: d.pid).first)
        let render = innermost(started)
        let limits = FileManagerFree.read("/proc/\(render)/limits") ?? ""
        #expect(limits.split(separator: "\n").contains { $0.hasPrefix("Max data size") && $0.contains("268435456") }, "\(limits)")
        guard !d.stderr.contains("widgethost-render: runs unsandboxed") else { return }  // no Landlock on this kernel
        let status = FileManagerFree.read("/proc/\(render)/status") ?? ""
        #expect(status.contains("NoNewPrivs:\t1"), "\(status)")
        guard !d.stderr.contains("widgethost-render: runs without namespaces") else { return }  // Landlock alone
        #expect(render != started, "the render runs in a child of the process the daemon started")
        for ns in ["user", "pid", "ipc", "mnt", "net"] {
            #expect(namespace(render, ns) != namespace(getpid(), ns), "\(ns)")
        }
        #expect(status.contains("Seccomp:\t2"), "\(status)")
        let nspid = status.split(separator: "\n").first { $0.hasPrefix("NSpid:") }?.split(separator: "\t").dropFirst() ?? []
        #expect(nspid.count == 2 && nspid.last == "2", "\(status)")
        let root = "/proc/\(render)/root"
        let processes = FileManagerFree.names(in: root + "/proc").filter { Int($0) != nil }.sorted()
        #expect(processes == ["1", "2"], "its /proc shows the host's processes: \(processes)")
        #expect(FileManagerFree.exists(root + d.dir.path + "/out/" + habit + ".png"))
        #expect(!FileManagerFree.exists(root + d.dir.path + "/config.json"))
        let environment = (FileManagerFree.read("/proc/\(render)/environ") ?? "").split(separator: "\0").map(String.init)
        #expect(environment.contains { $0.hasPrefix("SWIFT_BACKTRACE=") }, "\(environment)")
        for name in ["HOME", "XDG_RUNTIME_DIR", "SSH_AUTH_SOCK", "PATH"] {
            #expect(!environment.contains { $0.hasPrefix(name + "=") }, "\(name): \(environment)")
        }
    }

    /// The deepest descendant of `pid` (its only child's only child…): the render process
    /// itself, when the process the daemon started went into namespaces and forked.
    func innermost(_ pid: pid_t) -> pid_t {
        var current = pid
        while let child = processesMentioning("widgethost-render").first(where: { parent(of: $0) == current }) { current = child }
        return current
    }

    func parent(of pid: pid_t) -> pid_t? {
        guard let s = FileManagerFree.read("/proc/\(pid)/stat"), let close = s.lastIndex(of: ")") else { return nil }
        let fields = s[s.index(after: close)...].split(separator: " ")
        return fields.count > 2 ? pid_t(fields[1]) : nil
    }

    func namespace(_ pid: pid_t, _ kind: String) -> String? {
        var buf = [CChar](repeating: 0, count: 256)
        let n = readlink("/proc/\(pid)/ns/\(kind)", &buf, buf.count - 1)
        return n > 0 ? String(decoding: buf[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
    }

    /// `widgethost-render --serve --out DIR` under its Landlock sandbox: a picture asked for
    /// inside `DIR` is written, one outside it is refused by the kernel (what a request naming
    /// another path, or a bug drawing it, could reach), and one over its size budget
    /// (`maxBytes`) is not written at all.
    @Test func theSandboxedRenderProcessWritesNothingOutsideItsOutFolderNorOverItsSizeBudget() throws {
        let dir = TempDir(); defer { dir.remove() }
        let out = dir.path + "/out", elsewhere = dir.path + "/elsewhere"
        mkdir(out, 0o755); mkdir(elsewhere, 0o755)
        let r = try serve(out: out, [(out + "/w.png", 1 << 20), (elsewhere + "/w.png", 1 << 20), (out + "/big.png", 100)], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManagerFree.exists(out + "/w.png"), "\(r.stdout)\n\(r.stderr)")
        #expect(!FileManagerFree.exists(out + "/big.png") && !FileManagerFree.exists(out + "/big.png.regions.json"))
        #expect(r.stdout.contains("over the widget's size budget of 100 (picture.maxFileKB)"), "\(r.stdout)")
        guard !r.stderr.contains("runs unsandboxed") else { return }  // no Landlock on this kernel
        #expect(!FileManagerFree.exists(elsewhere + "/w.png"))
        // Isolated, the folder is not in its filesystem; under Landlock alone, it is refused.
        let refusal = r.stderr.contains("runs without namespaces") ? "Permission denied" : "No such file or directory"
        #expect(r.stdout.contains("cannot write") && r.stdout.contains(refusal), "\(r.stdout)")
    }

    /// `widgethost-render --serve --out DIR` drawing one picture to each `(png, maxBytes)` (its
    /// regions beside it in `out`), the requests written in `dir`.
    func serve(out: String, _ pictures: [(String, Int)], in dir: TempDir) throws -> ProcessResult {
        var view = ViewNode(kind: .text); view.text = "hi"
        let viewBytes = try WireCodec.encode(view)
        var requests = Data()
        for (png, maxBytes) in pictures {
            let r = PictureRenderRequest(id: "w", family: .systemSmall, now: Date(timeIntervalSince1970: 1_800_000_000), scale: 1,
                                         dark: false, png: png, svg: nil, regions: out + "/\(png.lastPathComponent).regions.json",
                                         maxBytes: maxBytes)
            requests.append(Framing.frame(PictureRenderFrame.payload(r, view: viewBytes)))
        }
        try FileIO.writeAtomically(requests, to: dir.path + "/requests")
        return run("/bin/sh", ["-c", "exec \"$0\" --serve --out \"$1\" --memory-mb 256 < \"$2\"",
                               TestPaths.products + "/widgethost-render", out, dir.path + "/requests"])
    }

    /// An out folder reached through a link to an absolute path (`/home -> /data/home`) is the
    /// same folder inside the render's filesystem: the link is followed inside the host's root,
    /// not the sandbox's, and the picture lands at the path the daemon reads.
    @Test func theSandboxedRenderProcessWritesThroughAnOutPathWithALinkedFolder() throws {
        let dir = TempDir(); defer { dir.remove() }
        mkdir(dir.path + "/real", 0o755); mkdir(dir.path + "/real/out", 0o755)
        symlink(dir.path + "/real", dir.path + "/linked")
        let out = dir.path + "/linked/out"
        let r = try serve(out: out, [(out + "/w.png", 1 << 20)], in: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(FileManagerFree.exists(dir.path + "/real/out/w.png"), "\(r.stdout)\n\(r.stderr)")
    }

    @Test func aRemovedWidgetTakesItsPictureAway() throws {
        let d = try habitDaemon(config())
        #expect(eventually { bytes(d, habit + ".png") != nil && regions(d, habit) != nil }, "stderr:\n\(d.stderr)")
        FileManagerFree.write(d.dir.path + "/config.json", config(outputs: #"["files"]"#))
        d.signal(SIGHUP)
        #expect(eventually { bytes(d, habit + ".png") == nil && regions(d, habit) == nil }, "stderr:\n\(d.stderr)")
        #expect(d.text(habit)?.contains("Habit 0/8") == true)
    }
}
