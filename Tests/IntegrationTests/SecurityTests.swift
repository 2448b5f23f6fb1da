import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Loose permissions and planted symlinks (issue 4, security).
@Suite(.serialized) struct SecurityTests {
    let id = "probe-systemSmall"

    func mode(_ path: String) -> mode_t { var st = stat(); stat(path, &st); return st.st_mode & 0o777 }

    @Test func aWorldWritablePluginIsRefusedAndStateIsPrivate() throws {
        let d = try RunningDaemon()
        let so = try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"])
        chmod(so, 0o666)
        _ = run("/bin/cp", ["-p", so, d.dir.path + "/Plugins/loose.so"])
        chmod(d.dir.path + "/Plugins/loose.so", 0o666)
        #expect(eventually { d.stderr.contains("loose.so is writable by other users (mode 666): refused") }, "stderr:\n\(d.stderr)")
        #expect(d.output(id) == nil)
        chmod(d.dir.path + "/Plugins/loose.so", 0o644)
        d.signal(SIGHUP)
        #expect(eventually { d.text(id) == "v1 none #0" }, "once fixed it loads:\n\(d.stderr)")
        #expect(mode(d.dir.path + "/state") == 0o700)
        #expect(mode(d.dir.path + "/out/\(id).json") & 0o022 == 0)
    }

    @Test func aSymlinkPlantedInOutIsReplacedNotFollowed() throws {
        let d = try RunningDaemon()
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=600"]), as: "probe.so")
        #expect(eventually { d.text(id) == "v1 none #0" }, "stderr:\n\(d.stderr)")
        let victim = d.dir.path + "/victim.txt"
        FileManagerFree.write(victim, "precious")
        let out = d.dir.path + "/out/\(id).json"
        unlink(out)
        symlink(victim, out)
        d.writeContainer("group.probe", "value.txt", "next")
        #expect(eventually { d.text(id) == "v1 next #0" }, "stderr:\n\(d.stderr)")
        #expect(FileManagerFree.read(victim) == "precious", "the write did not go through the symlink")
        var st = stat()
        lstat(out, &st)
        #expect(st.st_mode & S_IFMT == S_IFREG)
    }
}
