import FoundationEssentials
import Testing
@testable import WidgetHostCore

/// The library directories a sandboxed worker may read are found in `/proc/self/maps` by a
/// byte loop (it runs twice in every worker's start, issue 16).
@Suite struct WorkerSandboxTests {
    /// The rule as plainly as it can be said: the directory of every mapped file whose name ends
    /// in `.so` or contains `.so.`.
    func plainDirectories(_ maps: String) -> [String] {
        var dirs = Set<String>()
        for line in maps.split(separator: "\n") {
            guard let first = line.firstIndex(of: "/"), let last = line.lastIndex(of: "/") else { continue }
            let name = line[line.index(after: last)...]
            if name.count > 3 && (name.hasSuffix(".so") || name.contains(".so.")) { dirs.insert(String(line[first..<last])) }
        }
        return dirs.sorted()
    }

    func directories(_ maps: String) -> [String] {
        Array(maps.utf8).withUnsafeBytes { WorkerSandbox.libraryDirectories(inMaps: $0) }
    }

    @Test func librariesAreFoundAndNothingElse() {
        let maps = """
        55d0c0a00000-55d0c0a02000 r--p 00000000 08:01 1234   /opt/swift/usr/bin/widgethost-worker
        7f0000000000-7f0000001000 r--p 00000000 08:01 11     /opt/swift/usr/lib/swift/linux/libswiftCore.so
        7f0000001000-7f0000002000 r-xp 00001000 08:01 11     /opt/swift/usr/lib/swift/linux/libswiftCore.so
        7f0000003000-7f0000004000 r--p 00000000 08:01 12     /usr/lib/x86_64-linux-gnu/libc.so.6
        7f0000005000-7f0000006000 r--p 00000000 08:01 13     /usr/lib/locale/locale-archive
        7f0000007000-7f0000008000 rw-p 00000000 00:00 0
        7f0000009000-7f000000a000 r--p 00000000 08:01 14     /tmp/widgethost-x/state/bundles/bench-00ff.so (deleted)
        7f000000b000-7f000000c000 r--p 00000000 08:01 15     /home/u/my.so.d/libx.so
        7ffd00000000-7ffd00001000 r-xp 00000000 00:00 0      [vdso]
        7f000000d000-7f000000e000 r--p 00000000 08:01 16     /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
        """
        #expect(directories(maps) == ["/home/u/my.so.d", "/opt/swift/usr/lib/swift/linux", "/usr/lib/x86_64-linux-gnu"])
        #expect(directories(maps) == plainDirectories(maps))
        #expect(directories("") == [])
        #expect(directories("no newline at the end /lib/libz.so") == ["/lib"])
    }

    /// This process's own maps: the byte loop and the plain rule agree, and the Swift runtime's
    /// directory is among them.
    @Test func thisProcessesLibrariesAsThePlainRuleFindsThem() throws {
        let maps = try #require(FileIO.read("/proc/self/maps"))
        let text = String(decoding: maps, as: UTF8.self)
        let found = WorkerSandbox.mappedLibraryDirectories()
        #expect(found == plainDirectories(text))
        #expect(found.contains { text.contains($0 + "/libswiftCore.so") })
    }
}

/// The `--sandbox` argument carries the isolation, and an isolated worker's environment keeps
/// no agent's or session's socket (issue 23).
@Suite struct WorkerSandboxSpecTests {
    @Test func theArgumentRoundTripsWithAndWithoutIsolation() {
        for spec in [WorkerSandbox.Spec(readWrite: ["/c/group.a"], network: true, isolate: true),
                     WorkerSandbox.Spec(readWrite: [], network: false, isolate: true),
                     WorkerSandbox.Spec(readWrite: ["/c/g"], network: false, isolate: false)] {
            #expect(WorkerSandbox.Spec.parse(spec.argument) == spec, "\(spec.argument)")
        }
        #expect(WorkerSandbox.Spec(network: false, isolate: true).argument == "no-network isolate")
        #expect(WorkerSandbox.Spec.parse("no-network isolate extra") == nil)
        #expect(WorkerSandbox.Spec.parse("no-network\nrelative") == nil)
    }

    @Test func anIsolatedWorkerKeepsNoSessionOrAgentVariable() {
        for name in ["SSH_AUTH_SOCK", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "DISPLAY", "WAYLAND_DISPLAY", "GNUPGHOME", "XDG_RUNTIME"] {
            #expect(!WorkerSandbox.keepsVariable(name), "\(name)")
        }
        for name in ["PATH", "HOME", "LANG", "LC_TIME", "TZ", "WIDGETHOST_CONTAINERS", "SWIFT_BACKTRACE", "XDG_DATA_HOME"] {
            #expect(WorkerSandbox.keepsVariable(name), "\(name)")
        }
    }

    /// The render process gets what drawing needs: no home, path, session or agent; the XDG
    /// folders that default under `HOME` named outright, so its font folders stay the user's.
    @Test func theRenderEnvironmentKeepsTheLocaleAndFontsButNoHomeSessionOrAgent() {
        let cut = RenderEnvironment.cut(["HOME": "/home/u", "PATH": "/usr/bin", "LANG": "de_DE.UTF-8", "LC_TIME": "C", "TZ": "Europe/Berlin",
                                         "FONTCONFIG_FILE": "/f/fonts.conf", "XDG_CONFIG_HOME": "/cfg", "XDG_RUNTIME_DIR": "/run/user/1",
                                         "SSH_AUTH_SOCK": "/tmp/a", "DISPLAY": ":0", "SWIFT_BACKTRACE": "enable=no", "WIDGETHOST_SANDBOX": "landlock"])
        #expect(cut == ["LANG": "de_DE.UTF-8", "LC_TIME": "C", "TZ": "Europe/Berlin", "FONTCONFIG_FILE": "/f/fonts.conf",
                        "SWIFT_BACKTRACE": "enable=no", "WIDGETHOST_SANDBOX": "landlock", "XDG_CONFIG_HOME": "/cfg",
                        "XDG_DATA_HOME": "/home/u/.local/share", "XDG_CACHE_HOME": "/home/u/.cache"])
        #expect(WorkerSandbox.fontDirectories(environment: cut) == ["/home/u/.local/share/fonts", "/cfg/fontconfig", "/home/u/.cache/fontconfig"])
    }

    /// What an isolated worker sees: no `/proc` or `/sys` of the host's, no `$HOME` beyond its
    /// font folders, nothing of `/etc` but the named files.
    @Test func anIsolatedWorkerSeesNoHomeNoHostProcAndOnlyNamedEtcFiles() {
        let paths = WorkerSandbox.isolatedReadOnly(environment: ["HOME": "/home/u"], network: false)
        #expect(!paths.contains("/proc") && !paths.contains("/sys") && !paths.contains("/etc") && !paths.contains("/home/u"))
        #expect(paths.filter { $0.hasPrefix("/home/u") }.allSatisfy { $0.contains("font") })
        #expect(paths.contains("/etc/localtime") && !paths.contains("/etc/resolv.conf"))
        #expect(WorkerSandbox.isolatedReadOnly(environment: [:], network: true).contains("/etc/resolv.conf"))
    }
}
