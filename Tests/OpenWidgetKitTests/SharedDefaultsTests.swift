import Dispatch
import FoundationEssentials
import Testing
@testable import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// Output of a shell command (test helper).
func run(_ command: String) -> String {
    guard let p = popen(command, "r") else { return "" }
    defer { pclose(p) }
    var out = [UInt8]()
    var buf = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buf, 1, buf.count, p)
        if n <= 0 { break }
        out += buf[0..<n]
    }
    return String(decoding: out, as: UTF8.self)
}

@Suite(.serialized) struct SharedDefaultsTests {
    /// Points the containers root at a fresh directory for the duration of `body`.
    func withContainers(_ body: (String) throws -> Void) rethrows {
        var template = Array("/tmp/owk-containers-XXXXXX".utf8CString)
        let root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        setenv("WIDGETHOST_CONTAINERS", root, 1)
        defer { unsetenv("WIDGETHOST_CONTAINERS"); _ = system("rm -rf '\(root)'") }
        try body(root)
    }

    @Test func readsWhatItWritesWithUserDefaultsConversions() throws {
        try withContainers { root in
            let d = try #require(SharedDefaults(suiteName: "group.test"))
            d.set("Drink Water", forKey: "habitName")
            d.set(6, forKey: "completedCount")
            d.set(true, forKey: "done")
            d.set("7", forKey: "asString")
            #expect(d.string(forKey: "habitName") == "Drink Water")
            #expect(d.integer(forKey: "completedCount") == 6)
            #expect(d.integer(forKey: "asString") == 7)
            #expect(d.integer(forKey: "missing") == 0)
            #expect(d.bool(forKey: "done"))
            #expect(d.object(forKey: "missing") == nil)
            d.removeObject(forKey: "done")
            #expect(!d.bool(forKey: "done"))
            // Another instance (another process, in real life) sees the same values.
            #expect(SharedDefaults(suiteName: "group.test")?.integer(forKey: "completedCount") == 6)
            var st = stat()
            #expect(stat(root + "/group.test", &st) == 0)
            #expect(st.st_mode & 0o777 == 0o700)
        }
    }

    @Test func invalidGroupIDsCannotEscapeTheRoot() {
        withContainers { _ in
            for bad in ["", ".", "..", "../etc", "a/b", "group with space", String(repeating: "x", count: 200)] {
                #expect(SharedDefaults(suiteName: bad) == nil, "accepted \(bad.debugDescription)")
            }
        }
    }

    @Test func concurrentWritersLoseNothing() throws {
        try withContainers { _ in
            let writers = 8, increments = 25
            DispatchQueue.concurrentPerform(iterations: writers) { w in
                let d = SharedDefaults(suiteName: "group.race")!
                for i in 0..<increments {
                    d.update { $0["count"] = .number(Double(($0["count"]?.intValue ?? 0) + 1)) }
                    d.set(i, forKey: "writer\(w)")
                }
            }
            let d = try #require(SharedDefaults(suiteName: "group.race"))
            #expect(d.integer(forKey: "count") == writers * increments)
            for w in 0..<writers { #expect(d.integer(forKey: "writer\(w)") == increments - 1) }
        }
    }

    @Test func garbageFileReadsAsEmptyAndIsKeptAsideOnWrite() throws {
        try withContainers { root in
            let d = try #require(SharedDefaults(suiteName: "group.g"))
            let fd = open(root + "/group.g/defaults.json", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            _ = "\u{1}{{not json".withCString { write(fd, $0, strlen($0)) }
            close(fd)
            #expect(d.dictionaryRepresentation().isEmpty)
            d.set(1, forKey: "k")
            #expect(d.integer(forKey: "k") == 1)
            let kept = run("ls '\(root)/group.g'")
            #expect(kept.contains("defaults.json.corrupt-"))
        }
    }
}
