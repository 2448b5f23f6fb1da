import FoundationEssentials
import Testing
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// A file the host rewrites often (a clock) is swapped between two inodes instead of a new one
/// per write (issue 16), without ever changing a file a reader holds open.
@Suite struct OutputDirectoryTests {
    func text(_ path: String) -> String? { FileIO.read(path).map { String(decoding: $0, as: UTF8.self) } }

    func inode(_ path: String) -> UInt64 {
        var st = stat()
        return stat(path, &st) == 0 ? UInt64(st.st_ino) : 0
    }

    var spare: String { ".c.txt.\(getpid()).spare" }

    /// Both file systems a host writes to: tmpfs (`$XDG_RUNTIME_DIR`, the recommended place)
    /// and ext4 (`~/.local/state`).
    static let roots = ["/dev/shm", "/tmp"]

    func directory(in root: String) -> String {
        var template = Array("\(root)/widgethost-outdir-test-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    @Test(arguments: roots) func aFileRewrittenOftenIsSwappedBetweenTwoInodes(root: String) throws {
        let path = directory(in: root); defer { _ = system("rm -rf '\(path)'") }
        let out = try OutputDirectory(path: path)
        var inodes: [UInt64] = []
        for i in 0..<6 {
            try out.replace("c.txt", with: i == 3 ? "a much longer line \(i)" : "v\(i)", newline: true)
            #expect(text(path + "/c.txt") == (i == 3 ? "a much longer line 3\n" : "v\(i)\n"))
            inodes.append(inode(path + "/c.txt"))
        }
        // The first two by rename (the second finds the file written within 10 s), then exchanges.
        #expect(out.exchangeCount == 4)
        #expect(Set(inodes.suffix(4)).count == 2, "\(inodes)")
        #expect(inodes[2] == inodes[4] && inodes[3] == inodes[5] && inodes[2] != inodes[3])
        #expect(FileIO.list(path)?.sorted() == [spare, "c.txt"])
    }

    @Test func aReaderHoldingTheOldFileNeverSeesItChange() throws {
        let path = directory(in: "/dev/shm"); defer { _ = system("rm -rf '\(path)'") }
        let out = try OutputDirectory(path: path)
        for i in 0..<3 { try out.replace("c.txt", with: "v\(i)", newline: true) }
        #expect(out.exchangeCount == 1)
        // A reader opens the file now shown (v2) and keeps it open over two more writes: the
        // first makes its inode the hidden one, the second would rewrite it without the lease.
        let reader = open(path + "/c.txt", O_RDONLY)
        #expect(reader >= 0)
        defer { close(reader) }
        try out.replace("c.txt", with: "v3", newline: true)
        try out.replace("c.txt", with: "v4", newline: true)
        var buf = [UInt8](repeating: 0, count: 16)
        let n = pread(reader, &buf, buf.count, 0)
        #expect(String(decoding: buf.prefix(max(n, 0)), as: UTF8.self) == "v2\n")
        #expect(text(path + "/c.txt") == "v4\n")
        #expect(out.exchangeCount == 2, "the write with the held inode went by rename")
        #expect(out.exchangeAvailable, "a reader is no reason to stop exchanging")
        // That write made a new pair (with a new spare): exchanges go on.
        try out.replace("c.txt", with: "v5", newline: true)
        try out.replace("c.txt", with: "v6", newline: true)
        #expect(out.exchangeCount == 4)
        #expect(text(path + "/c.txt") == "v6\n")
    }

    @Test func removingTheFileOrClosingTheDirectoryTakesTheSpareAway() throws {
        let path = directory(in: "/dev/shm"); defer { _ = system("rm -rf '\(path)'") }
        var out: OutputDirectory? = try OutputDirectory(path: path)
        for i in 0..<3 { try out?.replace("c.txt", with: "v\(i)", newline: true) }
        #expect(FileIO.list(path)?.sorted() == [spare, "c.txt"])
        out?.remove("c.txt")
        #expect(FileIO.list(path) == [])
        for i in 0..<3 { try out?.replace("c.txt", with: "w\(i)", newline: true) }
        #expect(out?.exchangeCount == 2)
        out = nil
        #expect(FileIO.list(path) == ["c.txt"])
        #expect(text(path + "/c.txt") == "w2\n")
    }

    @Test func aFileRemovedByHandIsWrittenAgain() throws {
        let path = directory(in: "/dev/shm"); defer { _ = system("rm -rf '\(path)'") }
        let out = try OutputDirectory(path: path)
        for i in 0..<3 { try out.replace("c.txt", with: "v\(i)", newline: true) }
        unlink(path + "/c.txt")
        try out.replace("c.txt", with: "v3", newline: true)
        #expect(text(path + "/c.txt") == "v3\n")
        unlink(path + "/" + spare)
        try out.replace("c.txt", with: "v4", newline: true)
        try out.replace("c.txt", with: "v5", newline: true)
        #expect(text(path + "/c.txt") == "v5\n")
    }

    @Test func aKilledHostsSparesAreRemovedWhenTheDirectoryIsOpenedAgain() throws {
        let path = directory(in: "/dev/shm"); defer { _ = system("rm -rf '\(path)'") }
        // A pid above any pid_max belongs to no process; pid 1 always runs.
        let dead = ".c.txt.4194999.spare", alive = ".d.txt.1.spare"
        for name in [dead, alive, "x.spare", "c.txt"] { try FileIO.writeAtomically(Data("old\n".utf8), to: path + "/" + name) }
        _ = try OutputDirectory(path: path)
        #expect(FileIO.list(path)?.sorted() == [alive, "c.txt", "x.spare"])
    }
}
