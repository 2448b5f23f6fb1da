import FoundationEssentials
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost-desktop`'s Wayland side: the protocol code in Sources/CWayland is what
/// scripts/generate-wayland-protocols.sh makes of the XML, byte for byte.
@Suite(.serialized) struct WaylandDesktopTests {
    /// Every file the script writes is committed as written, and every committed generated file
    /// is one it writes (a protocol dropped from the script leaves no stale code behind).
    @Test func committedProtocolCodeIsWhatTheScriptGenerates() throws {
        guard requireProgram("wayland-scanner", package: "libwayland-bin") != nil else { return }
        let dir = TempDir(); defer { dir.remove() }
        let r = run("/bin/bash", [TestPaths.repoRoot + "/scripts/generate-wayland-protocols.sh", dir.path])
        try #require(r.status == 0, "the script failed: \(r.stderr)")
        let committed = TestPaths.repoRoot + "/Sources/CWayland"
        let generated = FileManagerFree.names(in: dir.path).filter { $0.hasSuffix("-protocol.c") }.sorted()
            + FileManagerFree.names(in: dir.path + "/include").map { "include/" + $0 }.sorted()
        #expect(generated.count == 12, "\(generated)")
        let version = run("/usr/bin/wayland-scanner", ["--version"])
        let scanner = (version.stdout + version.stderr).trimmingCharacters(in: .whitespacesAndNewlines)
        for name in generated {
            let same = readBytes(committed + "/" + name) == readBytes(dir.path + "/" + name)
            #expect(same,
                    "Sources/CWayland/\(name) is not what scripts/generate-wayland-protocols.sh writes with \(scanner)")
        }
        let stale = FileManagerFree.names(in: committed).filter { $0.hasSuffix("-protocol.c") && !generated.contains($0) }
            + FileManagerFree.names(in: committed + "/include").filter { $0.hasSuffix("-client-protocol.h") && !generated.contains("include/" + $0) }
        #expect(stale.isEmpty, "generated code the script no longer writes: \(stale)")
    }
}
