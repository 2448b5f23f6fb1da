import FoundationEssentials
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Whether this kernel isolates workers (namespaces, seccomp), or CI, where it must.
let isolationTestsRun: Bool = {
    WorkerSandbox.isolationAvailable || getenv("CI").map { String(cString: $0) == "true" } == true
}()

/// The `network-counters` and `mount-sizes` declarations (docs/limits.md "Sandbox"), through the
/// real host and a sandboxed worker: a probe plugin (`Fixtures/netdisk_probe.c`) says what it
/// sees, and the Network and Disk bundle shows the host's default interface and root volume.
@Suite(.serialized) struct NetworkDiskSandboxTests {
    /// The interfaces of this (the host's) network namespace as the probe writes them: how many,
    /// then the first that is not `lo`.
    var hostInterfaces: String {
        let names = (FileManagerFree.read("/proc/net/dev") ?? "").split(separator: "\n").compactMap { line in
            line.firstIndex(of: ":").map { line[..<$0].split(separator: " ").last.map(String.init) ?? "" }
        }
        return "\(names.count)" + (names.first { $0 != "lo" }.map { ":" + $0 } ?? "")
    }

    func totalBytes(_ path: String) -> UInt64 {
        var st = statvfs()
        guard statvfs(path, &st) == 0 else { return 0 }
        return UInt64(st.f_blocks) * UInt64(st.f_frsize > 0 ? st.f_frsize : st.f_bsize)
    }

    func mebibytes(_ path: String) -> UInt64 { totalBytes(path) >> 20 }

    func probe(_ defines: [String], wrapper: [String] = []) throws -> String {
        let d = try RunningDaemon(wrapper: wrapper)
        d.install(try compileCPlugin("Tests/IntegrationTests/Fixtures/netdisk_probe.c", in: d.dir.path, name: "probe", defines: defines),
                  as: "probe.so")
        #expect(eventually { d.text("probe-systemSmall")?.hasPrefix("n=") == true }, "\(d.stderr.suffix(2000))")
        return d.text("probe-systemSmall") ?? ""
    }

    @Test(.enabled(if: isolationTestsRun, "this kernel cannot isolate workers"))
    func undeclaredTheWorkerSeesOnlyItsOwnLoopbackAndNoVolume() throws {
        let text = try probe([])
        #expect(text == "n=1 u=no i=no r=ENOENT v= rd=none ls=none", "\(text)")
    }

    /// Declared: the host's interfaces and root volume, and still no socket of any kind.
    @Test(.enabled(if: isolationTestsRun, "this kernel cannot isolate workers"))
    func declaredTheCountersAreTheHostsAndASocketIsStillRefused() throws {
        let text = try probe(["COUNTERS", "SIZES"])
        #expect(text == "n=\(hostInterfaces) u=no i=no r=\(mebibytes("/")) v= rd=none ls=none", "\(text)")
        #expect(hostInterfaces.contains(":"), "the host has more than lo: \(hostInterfaces)")
    }

    /// A volume reached at its own mount point (here a bind of a folder of the build's disk onto
    /// itself, made in a mount namespace of the daemon's own): its size is there, a file in it
    /// cannot be read and its folder cannot be listed.
    @Test(.enabled(if: isolationTestsRun, "this kernel cannot isolate workers"))
    func aVolumeGivesItsSizeNotItsContents() throws {
        var template = Array((TestPaths.repoRoot + "/.build/netdisk-volume-XXXXXX").utf8CString)
        let volume = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { _ = run("/bin/rm", ["-rf", volume]) }
        FileManagerFree.write(volume + "/secret.txt", "secret")
        // The daemon in a user and mount namespace where `volume` is a mount of its own.
        let wrapper = ["/usr/bin/unshare", "--user", "--map-root-user", "--mount", "--", "/bin/sh", "-c",
                       "mount --bind \"$VOLUME\" \"$VOLUME\" && exec \"$0\" \"$@\""]
        setenv("VOLUME", volume, 1)
        defer { unsetenv("VOLUME") }
        let text = try probe(["SIZES", "VOLUME=\"\(volume)\""], wrapper: wrapper)
        #expect(text == "n=1 u=no i=no r=\(mebibytes("/")) v=\(mebibytes(volume)) rd=no ls=no", "\(text)")
    }

    /// The bundle itself, sandboxed: the disk widget shows the root's size as `statvfs` gives
    /// it, the network widget the interface of the host's default route.
    @Test(.enabled(if: isolationTestsRun, "this kernel cannot isolate workers"))
    func theBundleShowsTheHostsRootVolumeAndDefaultInterface() throws {
        let config = #"""
            {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}, "widgets": [
              {"kind": "disk", "family": "systemMedium"}, {"kind": "network", "family": "accessoryRectangular"},
              {"id": "lo", "kind": "network", "family": "accessoryRectangular", "parameters": {"interface": "lo"}},
              {"id": "none", "kind": "disk", "family": "accessoryInline", "parameters": {"mounts": "/nowhere"}}]}
            """#
        // No system bus: a NetworkManager of this machine would name its Wi-Fi network instead.
        let d = try RunningDaemon(config: config, environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/widgethost-test-bus"])
        d.install(TestPaths.plugin("NetworkDiskWidgets"), as: "netdisk.so")
        #expect(eventually { d.text("disk-systemMedium")?.contains("free of") == true }, "\(d.stderr.suffix(2000))")
        let total = Double(totalBytes("/"))
        let disk = d.text("disk-systemMedium") ?? ""
        // "… free of 500 GB": the total, rounded to three significant figures, is statvfs's.
        // The root is listed first.
        let shown = disk.firstRange(of: "free of ").flatMap { Self.bytes(disk[$0.upperBound...]) }
        #expect(shown.map { abs($0 - total) <= total * 0.005 } == true, "\(disk) against \(total)")
        let expected = try #require(Self.defaultInterface(), "this machine has no default route")
        // "⇅ eth0 ↓ 0 B/s ↑ 0 B/s": the name after the kind's symbol.
        #expect(eventually { d.text("network-accessoryRectangular")?.split(separator: " ").dropFirst().first.map(String.init) == expected },
                "\(d.text("network-accessoryRectangular") ?? "")")
        // The parameters (Edit Widget's form writes them): an interface picked, a mount that is not there.
        #expect(eventually { d.text("lo")?.hasPrefix("↻ lo ↓ ") == true }, "\(d.text("lo") ?? "")")
        #expect(eventually { d.text("none")?.contains("No volume") == true }, "\(d.text("none") ?? "")")
    }

    /// The interface of this machine's default route (`/proc/net/route`).
    static func defaultInterface() -> String? {
        let lines = (FileManagerFree.read("/proc/net/route") ?? "").split(separator: "\n").dropFirst()
        for line in lines {
            let f: [Substring] = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            if f.count > 7 && f[1] == "00000000" && f[7] == "00000000" { return String(f[0]) }
        }
        return nil
    }

    /// The bytes a text such as "1.46 TB" or "500 GB" stands for (decimal units).
    static func bytes(_ text: Substring) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count >= 2, let value = Double(parts[0]),
              let power = ["bytes", "KB", "MB", "GB", "TB", "PB"].firstIndex(of: String(parts[1])) else { return nil }
        return value * (0..<power).reduce(1.0) { r, _ in r * 1000 }
    }
}
