import CLinuxFiles
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A directory held open by a descriptor, into which small files are replaced atomically: a
/// reader sees the old file or the new one, never a torn one.
///
/// **By rename** (every file at first): `openat` of a temporary name (`O_CREAT | O_EXCL |
/// O_NOFOLLOW`), one `writev` of the body and an optional trailing newline, `close`, `renameat`
/// over the final name. Resolving the directory's path once, not on every write, is what the
/// descriptor saves (and the per-write `mkdir -p` before it).
///
/// **By exchange** (a file replaced again within 10 s: a ticking clock): the file keeps a second,
/// hidden inode under `.<name>.<pid>.spare`, and both stay open. A write takes a write lease on
/// the hidden inode — granted only while no other process has it open, i.e. no reader that opened
/// it while it was visible still holds it, and it makes anyone opening it meanwhile wait — writes
/// the body there (`pwritev`, `ftruncate`), releases the lease and swaps the two names at once
/// (`renameat2(RENAME_EXCHANGE)`). No inode is created or freed: on tmpfs, creating and evicting
/// one per write was most of a tick's system time (issue 16: 0.12 against 0.07 ms of CPU per
/// second for the same 1-s clock). When the lease is refused (a reader holds the inode), the
/// file system grants no leases or cannot exchange, or a name went missing, the write falls back
/// to rename for that write (the pair is dropped; a lease refused for any reason but a holder
/// turns exchange off for the directory). At most `maxPairs` files are kept this way (two
/// descriptors each). Taking a lease sets the process as the file's owner for SIGIO, which a
/// lease break sends: the first lease sets SIGIO to ignored, process-wide.
///
/// The descriptor follows the directory it was opened on: if that directory is removed, a write
/// fails (`ENOENT`) and the owner opens it again (`FileOutputSink` does). If `path` comes to name
/// another directory (`out` moved away and made again, a symlink pointed elsewhere), a write
/// fails once `path` is checked again, at most once a second (one `stat`), and the owner reopens
/// it. Spares are removed by `remove`, when this object goes away, and (a killed process's) when
/// a later one opens the directory. Threading: one thread at a time (the loop's).
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
    private static let spareSuffix = ".\(OutputDirectory.processID).spare"
    /// Files written by exchange: the descriptors of the inode shown under the name and of the
    /// one under its spare name.
    private var pairs: [String: (visible: Int32, hidden: Int32)] = [:]
    /// The coarse monotonic second each file was last replaced by rename.
    private var lastRenamed: [String: Int] = [:]
    /// False once the file system refused a lease or an exchange for a reason other than a reader.
    public private(set) var exchangeAvailable = true
    /// Files kept as pairs at most (two descriptors each).
    public static let maxPairs = 64
    /// Writes done by exchange (for tests and benchmarks).
    public private(set) var exchangeCount = 0

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
        removeStaleSpares()
    }

    /// Removes `.<name>.<pid>.spare` files whose process is gone (a host that was killed).
    private func removeStaleSpares() {
        for name in FileIO.list(path) ?? [] where name.hasPrefix(".") && name.hasSuffix(".spare") {
            guard let pidText = name.dropLast(6).split(separator: ".").last, let pid = Int32(pidText),
                  pid != Self.processID, kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlinkat(fd, name, 0)
        }
    }

    /// Throws when `path` no longer names the directory held open (checked at most once per
    /// second of the coarse monotonic clock, which costs no system call).
    /// Returns the coarse monotonic second.
    @discardableResult
    private func checkPath() throws -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        guard now.tv_sec != checkedSecond else { return now.tv_sec }
        var st = stat()
        guard stat(path, &st) == 0, UInt64(st.st_dev) == device, UInt64(st.st_ino) == inode else {
            throw FileIO.Failure(description: "\(path) is no longer the directory written to")
        }
        checkedSecond = now.tv_sec
        return now.tv_sec
    }

    deinit {
        for name in Array(pairs.keys) { dropPair(name) }
        close(fd)
    }

    /// Replaces `name` in the directory with `body` (plus a newline when `newline`): a reader
    /// sees the old file or the new one, never a torn one (see the type's comment for how). The
    /// temporary name is `.<name>.<pid>.tmp`; a symlink planted there is removed, never followed,
    /// and the rename replaces a symlink at `name` rather than writing through it.
    public func replace(_ name: String, with body: UnsafeRawBufferPointer, newline: Bool, mode: mode_t = 0o644) throws {
        let second = try checkPath()
        if let pair = pairs[name] {
            if exchange(name, pair, body, newline: newline) {
                pairs[name] = (visible: pair.hidden, hidden: pair.visible)
                exchangeCount += 1
                return
            }
            dropPair(name)
        }
        let written = try rename(name, body, newline: newline, mode: mode)
        let often = lastRenamed[name].map { second - $0 < 10 } ?? false
        lastRenamed[name] = second
        if often && exchangeAvailable && pairs.count < Self.maxPairs, let spare = makeSpare(name, mode: mode) {
            pairs[name] = (visible: written, hidden: spare)
        } else {
            close(written)
        }
    }

    /// The write by rename; returns the descriptor of the file now under `name`.
    private func rename(_ name: String, _ body: UnsafeRawBufferPointer, newline: Bool, mode: mode_t) throws -> Int32 {
        let tmp = "." + name + tempSuffix
        let fd = createAfresh(tmp, mode: mode)
        guard fd >= 0 else { throw FileIO.Failure(description: "cannot write \(path)/\(tmp): \(FileIO.errnoText())") }
        guard Self.writeAll(fd, body, newline: newline) else {
            let e = FileIO.errnoText()
            close(fd); unlinkat(self.fd, tmp, 0)
            throw FileIO.Failure(description: "cannot write \(path)/\(tmp): \(e)")
        }
        guard renameat(self.fd, tmp, self.fd, name) == 0 else {
            let e = FileIO.errnoText()
            close(fd); unlinkat(self.fd, tmp, 0)
            throw FileIO.Failure(description: "cannot rename \(path)/\(tmp) to \(name): \(e)")
        }
        return fd
    }

    /// Creates the spare of `name` (empty, hidden) and returns its descriptor; nil when it cannot.
    private func makeSpare(_ name: String, mode: mode_t) -> Int32? {
        let fd = createAfresh("." + name + Self.spareSuffix, mode: mode)
        return fd >= 0 ? fd : nil
    }

    /// Opens a new empty file `name` for writing (`O_CREAT | O_EXCL | O_NOFOLLOW`): whatever is
    /// there (a leftover, a planted symlink) is removed first, never followed. -1 with errno set.
    private func createAfresh(_ name: String, mode: mode_t) -> Int32 {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let fd = openat(self.fd, name, flags, mode)
        guard fd < 0 && errno == EEXIST else { return fd }
        unlinkat(self.fd, name, 0)
        return openat(self.fd, name, flags, mode)
    }

    /// SIGIO ignored, once: a lease break signals the lease holder with it, and its default
    /// action ends the process.
    private static let leaseBreakSignalIgnored: Void = { _ = signal(SIGIO, SIG_IGN) }()

    /// The write by exchange: false when it could not be done (nothing visible has changed then).
    private func exchange(_ name: String, _ pair: (visible: Int32, hidden: Int32), _ body: UnsafeRawBufferPointer,
                          newline: Bool) -> Bool {
        _ = Self.leaseBreakSignalIgnored
        guard widgethost_write_lease(pair.hidden, 1) == 0 else {
            if errno != EAGAIN && errno != EBUSY { exchangeAvailable = false }
            return false
        }
        let total = body.count + (newline ? 1 : 0)
        let written = Self.writeAll(pair.hidden, body, newline: newline, at: 0) && ftruncate(pair.hidden, off_t(total)) == 0
        _ = widgethost_write_lease(pair.hidden, 0)
        guard written else { return false }
        guard widgethost_exchange_names(fd, "." + name + Self.spareSuffix, name) == 0 else {
            if errno == EINVAL || errno == ENOSYS || errno == EPERM { exchangeAvailable = false }
            return false
        }
        return true
    }

    /// Closes `name`'s pair and removes its spare name (a reader holding that inode keeps it).
    private func dropPair(_ name: String) {
        guard let pair = pairs.removeValue(forKey: name) else { return }
        close(pair.visible); close(pair.hidden)
        unlinkat(fd, "." + name + Self.spareSuffix, 0)
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

    /// Removes `name` (and its spare) from the directory (nothing when absent).
    public func remove(_ name: String) {
        dropPair(name)
        lastRenamed[name] = nil
        unlinkat(fd, name, 0)
    }

    /// One `writev` of body + newline (`pwritev` at `offset` when given), continued after a
    /// short write or EINTR; false on any other error (errno says which). Allocates nothing.
    private static func writeAll(_ fd: Int32, _ body: UnsafeRawBufferPointer, newline: Bool, at offset: Int? = nil) -> Bool {
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
                    let n = offset.map { pwritev(fd, iov.baseAddress, Int32(count), off_t($0 + done)) } ?? writev(fd, iov.baseAddress, Int32(count))
                    if n < 0 { if errno == EINTR { continue }; return false }
                    done += n
                }
                return true
            }
        }
    }
}
