import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Issue 23, item 5: faults and hazards met by the real `widgethost run` — a FIFO as
/// `config.json`, `paths.socket` naming a regular file, `state`/`out` on a shared 1777 folder,
/// a plugin's `widgetURL` of `--help`, the widget limit, a picture whose write failed.
@Suite(.serialized) struct HazardTests {
    let id = "probe-systemSmall"

    func config(paths: String = #""plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "state/control.sock""#,
                widgets: String = #"[{"kind": "probe", "family": "systemSmall"}]"#, defaults: String = "{}") -> String {
        #"{"paths": {\#(paths)}, "widgets": \#(widgets), "defaults": \#(defaults)}"#
    }

    func cli(_ d: RunningDaemon, _ args: [String]) -> ProcessResult {
        run(TestPaths.widgethost, args + ["--config", d.dir.path + "/config.json"])
    }

    func mode(_ path: String) -> mode_t { var st = stat(); stat(path, &st); return st.st_mode & 0o7777 }

    /// A FIFO put in place of `config.json` while the host runs: the reload refuses it without
    /// waiting for a writer (the old config stays), and the live timer keeps ticking. `validate`
    /// and `run` given the FIFO refuse it at once too.
    @Test func aFIFOAsConfigIsRefusedAndTheClockKeepsTicking() throws {
        let d = try RunningDaemon(config: config())
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_TIMER", "PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id)?.hasPrefix("v1 none") == true }, "stderr:\n\(d.stderr)")
        let fifo = d.dir.path + "/fifo.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        let copy = d.dir.path + "/.config.fifo"
        #expect(mkfifo(copy, 0o600) == 0)
        #expect(rename(copy, d.dir.path + "/config.json") == 0)
        #expect(eventually { d.stderr.contains("the previous one stays in force") && d.stderr.contains("is a FIFO, not a regular file") },
                "stderr:\n\(d.stderr)")
        var seen: Set<String> = []
        #expect(eventually { if let t = d.text(id) { seen.insert(t) }; return seen.count >= 3 }, "the timer ticks on: \(seen)\n\(d.stderr)")
        let validate = run("/usr/bin/timeout", ["-s", "KILL", "20", TestPaths.widgethost, "validate", "--config", fifo])
        #expect(validate.status == 1 && validate.stdout.contains("is a FIFO, not a regular file"), "\(validate)")
        let second = run("/usr/bin/timeout", ["-s", "KILL", "20", TestPaths.widgethost, "run", "--config", fifo])
        #expect(second.status == 2 && second.stderr.contains("is a FIFO, not a regular file"), "\(second)")
    }

    /// `paths.socket` naming the user's regular file: the host runs without a control socket,
    /// says why, and the file survives the start and the stop.
    @Test func aRegularFileAtTheSocketPathIsLeftAlone() throws {
        let d = try RunningDaemon(config: config(paths: #""plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "notes.txt""#)) { dir in
            FileManagerFree.write(dir + "/notes.txt", "precious")
        }
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        #expect(d.stderr.contains("no control socket: \(d.dir.path)/notes.txt is a regular file, not a socket"), "stderr:\n\(d.stderr)")
        #expect(FileManagerFree.read(d.dir.path + "/notes.txt") == "precious")
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0)
        #expect(FileManagerFree.read(d.dir.path + "/notes.txt") == "precious")
    }

    /// `state` or `out` on a shared folder (mode 1777, as /tmp): refused at start, and at a live
    /// reload (the old config stays); the folder keeps its mode and sticky bit.
    @Test func aSharedFolderAsStateOrOutIsRefusedNeverChmodded() throws {
        let shared = TempDir(); defer { shared.remove() }
        chmod(shared.path, 0o1777)
        for key in ["state", "out"] {
            let paths = #""plugins": "Plugins", "containers": "containers", "socket": "run/control.sock", "#
                + (key == "state" ? #""out": "out", "state": "\#(shared.path)""# : #""out": "\#(shared.path)", "state": "state""#)
            let d = try RunningDaemon(config: config(paths: paths))
            #expect(d.waitForExit(timeout: 30) == 2, "stderr:\n\(d.stderr)")
            #expect(d.stderr.contains("paths.\(key): \(shared.path) is a shared folder (mode 1777): refused"), "stderr:\n\(d.stderr)")
            #expect(mode(shared.path) == 0o1777)
        }
        let d = try RunningDaemon(config: config())
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        FileManagerFree.write(d.dir.path + "/config.json", config(paths: #""plugins": "Plugins", "out": "\#(shared.path)", "containers": "containers", "state": "state", "socket": "state/control.sock""#))
        d.signal(SIGHUP)
        #expect(eventually { d.stderr.contains("the previous one stays in force") && d.stderr.contains("is a shared folder (mode 1777)") }, "stderr:\n\(d.stderr)")
        #expect(mode(shared.path) == 0o1777)
        #expect(FileIO.list(shared.path) == [], "nothing written to the shared folder")
    }

    /// A daemon whose `config.json` names files in its own folder: `@DIR@` in `config` becomes
    /// the folder (written again after the harness wrote it).
    func daemon(_ config: String, prepare: @escaping (String) throws -> Void = { _ in }) throws -> RunningDaemon {
        try RunningDaemon(config: config) { dir in
            try prepare(dir)
            if let c = FileManagerFree.read(dir + "/config.json") { FileManagerFree.write(dir + "/config.json", c.replacing("@DIR@", with: dir)) }
        }
    }

    /// A plugin's `widgetURL` of `--help` never reaches the opener (it would be read as an
    /// option), nor a scheme the config does not allow; an allowed URL reaches it as its one
    /// argument. The fake opener records its argv.
    @Test func aWidgetURLOfDashDashHelpNeverReachesTheOpener() throws {
        let d = try daemon(config(defaults: #"{"opener": "@DIR@/opener.sh", "openSchemes": ["https", "myapp"]}"#)) { dir in
            FileManagerFree.write(dir + "/opener.sh", "#!/bin/sh\nfor a in \"$@\"; do printf '[%s]' \"$a\"; done >> '\(dir)/argv'\necho >> '\(dir)/argv'\n")
            chmod(dir + "/opener.sh", 0o755)
        }
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_URL", "PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        for (url, why) in [("--help", "\"--help\" does not begin with a URL scheme"), ("-x:y", "\"-x:y\" does not begin with a URL scheme"),
                           ("file:///etc/passwd", "the scheme \"file\" is not in defaults.openSchemes (https, myapp)")] {
            d.writeContainer("group.probe", "value.txt", url)
            #expect(eventually { d.text(id) == "v1 \(url) #0" }, "stderr:\n\(d.stderr)")
            let c = cli(d, ["click", id])
            #expect(c.status == 1 && c.stderr.contains("its URL was not opened: \(why)"), "\(c)")
        }
        d.writeContainer("group.probe", "value.txt", "myapp://habit/x")
        #expect(eventually { d.text(id) == "v1 myapp://habit/x #0" }, "stderr:\n\(d.stderr)")
        #expect(cli(d, ["click", id]).status == 0)
        #expect(eventually { FileManagerFree.read(d.dir.path + "/argv") == "[myapp://habit/x]\n" }, "stderr:\n\(d.stderr)")
        #expect(FileManagerFree.read(d.dir.path + "/argv") == "[myapp://habit/x]\n", "only the allowed URL reached the opener")
    }

    /// The widget limit: a config listing more widgets is refused naming the limit; a host at
    /// the limit answers `status` with every widget.
    @Test func moreWidgetsThanTheLimitAreRefusedAndStatusWorksAtTheLimit() throws {
        func widgets(_ n: Int) -> String {
            "[" + (0..<n).map { #"{"kind": "probe", "family": "accessoryInline", "id": "p\#($0)", "outputs": ["json"]}"# }.joined(separator: ",") + "]"
        }
        let over = try RunningDaemon(config: config(widgets: widgets(HostConfig.widgetLimit + 1)))
        #expect(over.waitForExit(timeout: 30) == 2, "stderr:\n\(over.stderr)")
        #expect(over.stderr.contains("widgets: \(HostConfig.widgetLimit + 1) widgets: at most \(HostConfig.widgetLimit) per config"), "stderr:\n\(over.stderr)")
        let d = try RunningDaemon(config: config(widgets: widgets(HostConfig.widgetLimit)))
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually(timeout: 120) { d.text("p\(HostConfig.widgetLimit - 1)") == "v1 none #0" }, "stderr:\n\(d.stderr)")
        let r = cli(d, ["status", "--json"])
        let status = try ControlCodec.decode(HostStatus.self, line: Array(r.stdout.utf8))
        #expect(status.widgets.count == HostConfig.widgetLimit)
    }

    /// A picture whose write failed (its file name taken by a folder: what ENOSPC or an
    /// unwritable `out/` does to the render process, as root too) is drawn again once the write
    /// can land, with no new entry; the text beside it was written all along.
    @Test func aPictureWhoseWriteFailedIsWrittenOnceItCanBe() throws {
        let d = try RunningDaemon(config: config(widgets: #"[{"kind": "probe", "family": "systemSmall", "outputs": ["files", "png"]}]"#)) { dir in
            mkdir(dir + "/out", 0o755)
            mkdir(dir + "/out/\(id).png", 0o755)
            FileManagerFree.write(dir + "/out/\(id).png/blocker", "x")
        }
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        #expect(eventually { d.stderr.contains("picture of \(id) could not be drawn") }, "stderr:\n\(d.stderr)")
        _ = run("/bin/rm", ["-rf", d.dir.path + "/out/\(id).png"])
        let png: [UInt8] = [0x89, 0x50, 0x4e, 0x47]
        #expect(eventually(timeout: 30) { FileManagerFree.bytes(d.dir.path + "/out/\(id).png")?.prefix(4).elementsEqual(png) == true },
                "stderr:\n\(d.stderr)")
        #expect(d.stderr.contains("picture of \(id) drawn again"))
    }
}
