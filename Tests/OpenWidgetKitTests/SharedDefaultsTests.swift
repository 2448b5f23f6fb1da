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

/// Writes `text` to `path` (test helper).
private func writeText(_ path: String, _ text: String) {
    guard let f = fopen(path, "w") else { return }
    fputs(text, f)
    fclose(f)
}

/// The text of `path`, nil when it cannot be read (test helper).
private func readText(_ path: String) -> String? {
    guard access(path, R_OK) == 0 else { return nil }
    return run("cat '\(path)'")
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

    /// A sandboxed plugin writes its container; the user's unsandboxed writer must not follow
    /// what it planted there (issue 23): `defaults.json` linked to a file of the user's is moved
    /// aside, not written through, and not read (a secret would be copied into the container).
    @Test func aLinkPlantedAsTheDefaultsFileIsNeitherReadNorWrittenThrough() throws {
        try withContainers { root in
            let d = try #require(SharedDefaults(suiteName: "group.l"))
            let secret = root + "/secret.json"
            writeText(secret, #"{"token":"hunter2"}"#)
            #expect(symlink(secret, root + "/group.l/defaults.json") == 0)
            #expect(d.string(forKey: "token") == nil, "read through the link")
            #expect(d.stored() == .unusable(root + "/group.l/defaults.json is a symbolic link (refused)"))
            try d.commit { $0["k"] = .number(1) }
            #expect(readText(secret) == #"{"token":"hunter2"}"#, "written through the link")
            let stored = readText(root + "/group.l/defaults.json") ?? ""
            #expect(stored.contains("\"k\"") && !stored.contains("hunter2"), "\(stored)")
            #expect(run("ls -a '\(root)/group.l'").contains("defaults.json.corrupt-"), "the link is kept aside")
        }
    }

    /// The next writer's temporary file and the lock, planted as links to a file of the user's:
    /// neither is followed (the file stays as it was), and the write lands.
    @Test func linksPlantedAsTheTemporaryAndLockFilesAreNotFollowed() throws {
        try withContainers { root in
            let d = try #require(SharedDefaults(suiteName: "group.t"))
            let victim = root + "/victim.txt"
            writeText(victim, "precious")
            #expect(symlink(victim, root + "/group.t/.defaults.\(getpid()).tmp") == 0)
            #expect(symlink(victim, root + "/group.t/.defaults.lock") == 0)
            try d.commit { $0["k"] = .number(2) }
            #expect(readText(victim) == "precious")
            #expect(d.integer(forKey: "k") == 2)
            var st = stat()
            #expect(lstat(root + "/group.t/.defaults.lock", &st) == 0 && st.st_mode & S_IFMT == S_IFREG)
        }
    }

    /// A hard link to another file and a FIFO (which would block the reader for good) are
    /// refused as the defaults file too.
    @Test func aHardLinkOrAFIFOAsTheDefaultsFileIsRefused() throws {
        try withContainers { root in
            let d = try #require(SharedDefaults(suiteName: "group.h"))
            let secret = root + "/secret.json"
            writeText(secret, #"{"token":"hunter2"}"#)
            #expect(link(secret, root + "/group.h/defaults.json") == 0)
            #expect(d.string(forKey: "token") == nil, "read through the hard link")
            d.set(3, forKey: "k")
            #expect(readText(secret) == #"{"token":"hunter2"}"#)
            #expect(d.integer(forKey: "k") == 3)
            let f = try #require(SharedDefaults(suiteName: "group.f"))
            #expect(mkfifo(root + "/group.f/defaults.json", 0o600) == 0)
            #expect(f.dictionaryRepresentation().isEmpty)
            f.set(4, forKey: "k")
            #expect(f.integer(forKey: "k") == 4)
        }
    }
}
