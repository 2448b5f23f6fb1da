import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A directory held open by a descriptor, into which small files are replaced atomically with
/// four system calls each: `openat` of a temporary name (`O_CREAT | O_EXCL | O_NOFOLLOW`), one
/// `writev` of the body and an optional trailing newline, `close`, `renameat` over the final
/// name. Resolving the directory's path once, not on every write, is what the descriptor saves
/// (and the per-write `mkdir -p` before it).
///
/// The descriptor follows the directory it was opened on: if that directory is removed, a write
/// fails (`ENOENT`) and the owner opens it again (`FileOutputSink` does). If `path` comes to name
/// another directory (`out` moved away and made again, a symlink pointed elsewhere), a write
/// fails once `path` is checked again, at most once a second (one `stat`), and the owner reopens
/// it. Threading: one thread at a time (the loop's).
public final class OutputDirectory {
    public let path: String
    private let fd: Int32
    /// Device and inode of the directory opened, to tell whether `path` still names it.
    private let device: UInt64, inode: UInt64
    /// The coarse monotonic second `path` was last checked in.
    private var checkedSecond = Int.min
    /// This process's id, for temp names (glibc no longer caches `getpid()`: one syscall per write).
    private static let processID = getpid()
    private let tempSuffix = ".\(OutputDirectory.processID).tmp"

    /// Creates the directory (and its parents) as needed and opens it.
    public init(path: String, mode: mode_t = 0o755) throws {
        try FileIO.makeDirectories(path, mode: mode)
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileIO.Failure(description: "cannot open \(path): \(FileIO.errnoText())") }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let e = FileIO.errnoText(); close(fd)
            throw FileIO.Failure(description: "cannot stat \(path): \(e)")
        }
        self.path = path
        self.fd = fd
        self.device = UInt64(st.st_dev); self.inode = UInt64(st.st_ino)
    }

    /// Throws when `path` no longer names the directory held open (checked at most once per
    /// second of the coarse monotonic clock, which costs no system call).
    private func checkPath() throws {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        guard now.tv_sec != checkedSecond else { return }
        var st = stat()
        guard stat(path, &st) == 0, UInt64(st.st_dev) == device, UInt64(st.st_ino) == inode else {
            throw FileIO.Failure(description: "\(path) is no longer the directory written to")
        }
        checkedSecond = now.tv_sec
    }

    deinit { close(fd) }

    /// Replaces `name` in the directory with `body` (plus a newline when `newline`): a reader
    /// sees the old file or the new one, never a torn one. The temporary name is
    /// `.<name>.<pid>.tmp`; a symlink planted there is removed, never followed, and the rename
    /// replaces a symlink at `name` rather than writing through it.
    public func replace(_ name: String, with body: UnsafeRawBufferPointer, newline: Bool, mode: mode_t = 0o644) throws {
        try checkPath()
        let tmp = "." + name + tempSuffix
        var fd = openat(self.fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        if fd < 0 && errno == EEXIST {
            unlinkat(self.fd, tmp, 0)
            fd = openat(self.fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        }
        guard fd >= 0 else { throw FileIO.Failure(description: "cannot write \(path)/\(tmp): \(FileIO.errnoText())") }
        let ok = Self.writeAll(fd, body, newline: newline)
        let writeErrno = errno
        close(fd)
        guard ok else {
            unlinkat(self.fd, tmp, 0)
            throw FileIO.Failure(description: "cannot write \(path)/\(tmp): \(String(cString: strerror(writeErrno)))")
        }
        guard renameat(self.fd, tmp, self.fd, name) == 0 else {
            let e = FileIO.errnoText(); unlinkat(self.fd, tmp, 0)
            throw FileIO.Failure(description: "cannot rename \(path)/\(tmp) to \(name): \(e)")
        }
    }

    /// `replace` with the bytes of `data`.
    public func replace(_ name: String, with data: Data, newline: Bool, mode: mode_t = 0o644) throws {
        try data.withUnsafeBytes { try replace(name, with: $0, newline: newline, mode: mode) }
    }

    /// `replace` with the UTF-8 of `text`.
    public func replace(_ name: String, with text: String, newline: Bool, mode: mode_t = 0o644) throws {
        var text = text
        try text.withUTF8 { try replace(name, with: UnsafeRawBufferPointer($0), newline: newline, mode: mode) }
    }

    /// Removes `name` from the directory (nothing when it is absent).
    public func remove(_ name: String) { unlinkat(fd, name, 0) }

    /// One `writev` of body + newline, continued after a short write or EINTR; false on any
    /// other error (errno says which). Allocates nothing.
    private static func writeAll(_ fd: Int32, _ body: UnsafeRawBufferPointer, newline: Bool) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1) { nl in
            nl[0] = 0x0a
            return withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { iov -> Bool in
                let total = body.count + (newline ? 1 : 0)
                var done = 0
                while done < total {
                    var count = 0
                    if done < body.count {
                        iov[0] = iovec(iov_base: UnsafeMutableRawPointer(mutating: body.baseAddress! + done), iov_len: body.count - done)
                        count = 1
                    }
                    if newline { iov[count] = iovec(iov_base: UnsafeMutableRawPointer(nl.baseAddress!), iov_len: 1); count += 1 }
                    let n = writev(fd, iov.baseAddress, Int32(count))
                    if n < 0 { if errno == EINTR { continue }; return false }
                    done += n
                }
                return true
            }
        }
    }
}
