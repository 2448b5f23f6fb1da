import FoundationEssentials
import Testing
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Helpers every daemon start goes through, rewritten on bytes for issue 16 (start-up):
/// the same results as before.
@Suite struct StartupHelpersTests {
    @Test func theEnvironmentIsSplitAtTheFirstEqualsSign() {
        let name = "WIDGETHOST_TEST_ENV_\(getpid())"
        setenv(name, "a=b==c é 👍", 1)
        defer { unsetenv(name) }
        let env = ProcessEnvironment.current()
        #expect(env[name] == "a=b==c é 👍")
        for (key, value) in env {
            #expect(getenv(key).map { String(cString: $0) } == value, "\(key)")
        }
    }

    @Test func theStartTimeIsField22AfterACommandNameWithParenthesesAndSpaces() {
        let fields = (3...30).map { "\($0 == 22 ? 987654321 : $0)" }.joined(separator: " ")
        #expect(HostPresence.startTime(stat: Data("4242 (a) b (c) d) \(fields)\n".utf8)) == 987654321)
        #expect(HostPresence.startTime(stat: Data("4242 (plain) \(fields)".utf8)) == 987654321)
        #expect(HostPresence.startTime(stat: Data("4242 (short) S 1 2".utf8)) == nil)
        #expect(HostPresence.startTime(stat: Data("no parenthesis".utf8)) == nil)
        #expect(HostPresence.current()?.pid == getpid())
        #expect(HostPresence.current()?.startTime ?? 0 > 0)
    }

    @Test func makeDirectoriesCreatesEveryMissingLevelAndAcceptsWhatExists() throws {
        let dir = TestDirectory()
        defer { dir.remove() }
        let root = dir.path
        try FileIO.makeDirectories(root + "/a/b/c", mode: 0o700)
        #expect(FileIO.isDirectory(root + "/a/b/c"))
        var st = stat()
        #expect(stat(root + "/a/b", &st) == 0 && st.st_mode & 0o777 == 0o700)
        try FileIO.makeDirectories(root + "/a/b/c", mode: 0o700)  // exists: nothing to do
        try FileIO.makeDirectories(root + "/a/b/d")               // a sibling under an existing parent
        #expect(FileIO.isDirectory(root + "/a/b/d"))
        let fd = open(root + "/f", O_WRONLY | O_CREAT, 0o600)
        #expect(fd >= 0)
        close(fd)
        #expect(throws: FileIO.Failure.self) { try FileIO.makeDirectories(root + "/f/g") }
    }

    /// The registry's bundle copy (`sendfile`, read-and-write where that cannot copy).
    @Test func copyGivesTheSameBytesPrivatelyAndAtomically() throws {
        let dir = TestDirectory()
        defer { dir.remove() }
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<(3 << 20) + 17).map { _ in UInt8.random(in: 0...255, using: &rng) }
        try FileIO.writeAtomically(Data(bytes), to: dir.path + "/big.so")
        try FileIO.copy(dir.path + "/big.so", to: dir.path + "/copy.so")
        #expect(FileIO.read(dir.path + "/copy.so", limit: Int.max) == Data(bytes))
        var st = stat()
        #expect(stat(dir.path + "/copy.so", &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(FileIO.list(dir.path) == ["big.so", "copy.so"], "no temporary file left")

        try FileIO.writeAtomically(Data(), to: dir.path + "/empty")
        try FileIO.copy(dir.path + "/empty", to: dir.path + "/empty.copy")
        #expect(FileIO.read(dir.path + "/empty.copy") == Data())

        // A file whose size the kernel does not know in advance.
        try FileIO.copy("/proc/self/status", to: dir.path + "/status")
        #expect(String(decoding: FileIO.read(dir.path + "/status") ?? Data(), as: UTF8.self).hasPrefix("Name:"))

        #expect(throws: FileIO.Failure.self) { try FileIO.copy(dir.path + "/missing.so", to: dir.path + "/x.so") }
        #expect(throws: FileIO.Failure.self) { try FileIO.copy(dir.path + "/big.so", to: dir.path + "/no/such/dir/x.so") }
        #expect(FileIO.list(dir.path)?.contains("x.so") == false)
    }

    /// The copy's fallback, for what `sendfile` refuses: the same bytes, read errors named.
    @Test func copyByReadingGivesTheSameBytes() throws {
        let dir = TestDirectory()
        defer { dir.remove() }
        let bytes = Data((0..<200_001).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try FileIO.writeAtomically(bytes, to: dir.path + "/src")
        let src = open(dir.path + "/src", O_RDONLY), dst = open(dir.path + "/dst", O_WRONLY | O_CREAT, 0o600)
        #expect(FileIO.copyByReading(src, from: "src", to: dst, tmp: "dst") == nil)
        close(src); close(dst)
        #expect(FileIO.read(dir.path + "/dst", limit: Int.max) == bytes)
        let folder = open(dir.path, O_RDONLY | O_DIRECTORY), out = open(dir.path + "/out", O_WRONLY | O_CREAT, 0o600)
        #expect(FileIO.copyByReading(folder, from: "the folder", to: out, tmp: "out")?.hasPrefix("cannot read the folder") == true)
        close(folder); close(out)
    }
}
