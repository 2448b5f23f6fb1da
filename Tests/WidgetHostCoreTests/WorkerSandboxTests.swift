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
