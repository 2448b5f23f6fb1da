import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Small synchronous file helpers (no FileManager, no Foundation): the host writes a few small
/// files per update, so blocking I/O on the loop thread costs microseconds.
/// Safe from any thread; each call is independent.
public enum FileIO {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// This process's id, for temp names (glibc no longer caches `getpid()`: one syscall per write).
    private static let processID = getpid()

    static func errnoText() -> String { String(cString: strerror(errno)) }

    /// Reads a whole file (at most `limit` bytes), nil when it cannot be opened. Reads straight
    /// into the result in chunks from 4 KiB, doubling: a 64 KiB buffer zeroed and copied on every
    /// call was a visible part of the daemon's start (issue 16).
    public static func read(_ path: String, limit: Int = 64 << 20) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return read(fd: fd, limit: limit)
    }

    /// Reads `fd` from its offset to its end (at most `limit` bytes); the caller closes it.
    static func read(fd: Int32, limit: Int) -> Data {
        var out = Data()
        var chunk = 4096
        while out.count < limit {
            let start = out.count, want = min(chunk, limit - start)
            out.count = start + want
            var n = 0
            repeat { n = out.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + start, want) } } while n < 0 && errno == EINTR
            out.count = start + max(n, 0)
            if n <= 0 { break }
            chunk = min(chunk * 2, 1 << 20)
        }
        return out
    }

    /// Writes all of `data` to `fd`, retrying short writes and EINTR; false on any other error
    /// (errno says which).
    public static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { raw -> Bool in
            var off = 0
            while off < raw.count {
                let n = write(fd, raw.baseAddress! + off, raw.count - off)
                if n < 0 { if errno == EINTR { continue }; return false }
                off += n
            }
            return true
        }
    }

    /// Writes `data` to a temporary name in the same directory, then renames it over `path`:
    /// a reader sees the old file or the new one, never a torn one.
    public static func writeAtomically(_ data: Data, to path: String, mode: mode_t = 0o644) throws {
        try writeAtomically(to: path, mode: mode) { fd, tmp in
            writeAll(fd, data) ? nil : "cannot write \(tmp): \(errnoText())"
        }
    }

    /// Creates a temporary file beside `path`, lets `fill` write it (it returns nil, or the
    /// error's description) and renames it over `path`.
    private static func writeAtomically(to path: String, mode: mode_t, fill: (_ fd: Int32, _ tmp: String) -> String?) throws {
        let tmp = path.dropLastPathComponentPrefix() + ".\(path.lastPathComponent).\(processID).tmp"
        // O_EXCL | O_NOFOLLOW: a symlink planted at the temp name is never followed (it is
        // removed and the file created afresh); the rename then replaces any symlink at `path`
        // itself rather than writing through it.
        var fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        if fd < 0 && errno == EEXIST {
            unlink(tmp)
            fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        }
        guard fd >= 0 else { throw Failure(description: "cannot write \(tmp): \(errnoText())") }
        let problem = fill(fd, tmp)
        close(fd)
        if let problem { unlink(tmp); throw Failure(description: problem) }
        guard rename(tmp, path) == 0 else {
            let e = errnoText(); unlink(tmp)
            throw Failure(description: "cannot rename \(tmp) to \(path): \(e)")
        }
    }

    /// Copies a file (to a temporary name, then renamed). The bytes go from file to file in
    /// the kernel (`sendfile`): the registry copies every bundle at every start, a Swift
    /// bundle is 5–10 MB, and reading it into a growing `Data` and writing it out took 2–3
    /// times the CPU (issue 16). Where `sendfile` cannot copy (a file system or file kind it
    /// does not support), the bytes are read and written.
    public static func copy(_ from: String, to: String) throws {
        let src = open(from, O_RDONLY | O_CLOEXEC)
        guard src >= 0 else { throw Failure(description: "cannot read \(from): \(errnoText())") }
        defer { close(src) }
        try writeAtomically(to: to, mode: 0o600) { fd, tmp in
            var copied = 0
            while true {
                let n = sendfile(fd, src, nil, 1 << 30)
                if n > 0 { copied += n; continue }
                if n == 0 { return nil }
                if errno == EINTR { continue }
                guard copied == 0, errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP else {
                    return "cannot copy \(from) to \(tmp): \(errnoText())"
                }
                return copyByReading(src, from: from, to: fd, tmp: tmp)
            }
        }
    }

    /// The read-and-write copy of `copy(_:to:)`: nil, or the error's description.
    static func copyByReading(_ src: Int32, from: String, to fd: Int32, tmp: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(src, $0.baseAddress, $0.count) }
            if n == 0 { return nil }
            if n < 0 {
                if errno == EINTR { continue }
                return "cannot read \(from): \(errnoText())"
            }
            let ok = buffer.withUnsafeBytes { raw -> Bool in
                var off = 0
                while off < n {
                    let w = write(fd, raw.baseAddress! + off, n - off)
                    if w < 0 { if errno == EINTR { continue }; return false }
                    off += w
                }
                return true
            }
            if !ok { return "cannot write \(tmp): \(errnoText())" }
        }
    }

    /// `mkdir -p` with `mode` for the directories it creates.
    public static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws {
        // The usual case at every start: it exists (one system call, not one per component).
        if mkdir(path, mode) == 0 || (errno == EEXIST && isDirectory(path)) { return }
        var current = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            if mkdir(current, mode) != 0 && errno != EEXIST {
                throw Failure(description: "cannot create \(current): \(errnoText())")
            }
        }
    }

    /// The names in a directory (without `.` and `..`), nil when it cannot be read.
    public static func list(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let ent = readdir(dir) {
            let name = withUnsafeBytes(of: ent.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    public static func isDirectory(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The size of a regular file, nil when there is none at `path`.
    public static func size(_ path: String) -> Int? {
        var st = stat()
        guard stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(st.st_size)
    }

    public static func remove(_ path: String) { unlink(path) }
}

extension String {
    // The path helpers search the UTF-8 bytes for "/": `lastIndex(of: Character)` walked
    // grapheme clusters backwards, and every container event and output write paid for it
    // (callgrind, issue 16). They split where the kernel does, at the "/" byte, also when a
    // combining mark follows it (a Character search did not see that "/" at all).

    /// The part after the last `/`.
    public var lastPathComponent: String {
        guard let i = utf8.lastIndex(of: UInt8(ascii: "/")) else { return self }
        return String(self[utf8.index(after: i)...])
    }

    /// Everything up to and including the last `/` ("" when there is none).
    func dropLastPathComponentPrefix() -> String {
        guard let i = utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return String(self[..<utf8.index(after: i)])
    }

    /// The directory part ("." when there is none).
    public var deletingLastPathComponent: String {
        guard let i = utf8.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        return i == startIndex ? "/" : String(self[..<i])
    }
}
