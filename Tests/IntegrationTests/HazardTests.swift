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
}
