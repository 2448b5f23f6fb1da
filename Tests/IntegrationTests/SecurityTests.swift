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

    /// A plugin plants links in its own container for the user's unsandboxed `widgethost
    /// defaults` (issue 23): `defaults.json` linked to a secret, the next writer's temporary
    /// file linked to a file in `$HOME`. `read` refuses and says why; `write` follows neither —
    /// the file in `$HOME` is unchanged, the secret is not copied into the container.
    @Test func defaultsFollowNoLinkAPluginPlantedInItsContainer() throws {
        let dir = TempDir(); defer { dir.remove() }
        let home = dir.path + "/home", group = dir.path + "/containers/group.x"
        mkdir(home, 0o700); mkdir(dir.path + "/containers", 0o700); mkdir(group, 0o700)
        FileManagerFree.write(home + "/secret.json", #"{"token":"hunter2"}"#)
        FileManagerFree.write(home + "/.bashrc", "precious")
        #expect(symlink(home + "/secret.json", group + "/defaults.json") == 0)
        let location = ["--containers", dir.path + "/containers", "group.x"]
        let read = run(TestPaths.widgethost, ["defaults", "read"] + location + ["token"])
        #expect(read.status != 0 && !read.stdout.contains("hunter2"), "\(read.stdout)")
        #expect(read.stderr.contains("defaults.json is a symbolic link (refused)"), "\(read.stderr)")
        // The next writer is this test's child: plant its temporary name for a range of pids.
        for pid in getpid()..<(getpid() + 400) { _ = symlink(home + "/.bashrc", group + "/.defaults.\(pid).tmp") }
        let write = run(TestPaths.widgethost, ["defaults", "write"] + location + ["k", "6"])
        #expect(write.status == 0, "\(write.stderr)")
        #expect(FileManagerFree.read(home + "/.bashrc") == "precious")
        #expect(FileManagerFree.read(home + "/secret.json") == #"{"token":"hunter2"}"#)
        let stored = FileManagerFree.read(group + "/defaults.json") ?? ""
        #expect(stored.contains("\"k\"") && !stored.contains("hunter2"), "\(stored)")
    }
}

