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
}
