#if canImport(Glibc)
import Glibc
#endif

/// An app group's container opened as a directory descriptor, through which every file in it is
/// reached by one name with `openat`/`renameat`/`unlinkat` and never followed as a link
/// (issue 23): a sandboxed plugin writes its container, so it may plant a symbolic link
/// (`defaults.json` → `~/.bashrc`), a hard link or a FIFO there for the user's unsandboxed
/// `widgethost defaults write` to follow. The container itself is opened `O_NOFOLLOW` under its
/// root (the root is the user's, a link there is theirs to make).
///
/// Each call returns the descriptor or -1 with `errno` set (`ELOOP`: a link refused); what is
/// opened for reading must be a regular file with a single name. Owns its descriptor: `close()`
/// it. Not shared between threads (one per operation).
struct ContainerDirectory {
    let fd: Int32

    /// `O_PATH` (the same on every Linux architecture; Glibc imports it only with _GNU_SOURCE).
    static let pathOnly: Int32 = 0o10000000

    /// Opens `root/name` (`name` one path component). nil with `errno` set when it cannot.
    init?(root: String, name: String) {
        // O_PATH: a sandboxed plugin may open its container but not list the root above it.
        let rootFD = open(root, Self.pathOnly | O_DIRECTORY | O_CLOEXEC)
        guard rootFD >= 0 else { return nil }
        defer { let e = errno; _ = Glibc.close(rootFD); errno = e }
        let fd = openat(rootFD, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    func close() { _ = Glibc.close(fd) }

    /// Opens `name` for reading: only a regular file with one link (a FIFO would block, a hard
    /// link may be another file of the user's). `ELOOP` for a symbolic link, `EPERM` for the rest.
    func openForReading(_ name: String) -> Int32 {
        let fd = openat(self.fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return -1 }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG, st.st_nlink == 1 else {
            _ = Glibc.close(fd); errno = EPERM; return -1
        }
        return fd
    }

    /// Opens (creating 0600) `name` for writing — a lock file. A link or anything but a regular
    /// file at the name is removed first (it is the container's, and only a plugin plants one).
    func openOrCreate(_ name: String) -> Int32 {
        for attempt in 0..<2 {
            let fd = openat(self.fd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
            if fd >= 0 {
                var st = stat()
                if fstat(fd, &st) == 0 && st.st_mode & S_IFMT == S_IFREG && st.st_nlink == 1 { return fd }
                _ = Glibc.close(fd)
                errno = EPERM
            }
            guard attempt == 0, errno == ELOOP || errno == EPERM || errno == ENXIO, unlinkat(self.fd, name, 0) == 0 else { return -1 }
        }
        return -1
    }

    /// Creates `name` afresh (0600, truncated by construction): whatever held the name — a
    /// link planted for the next writer's pid, a stale temporary file — is removed first.
    func create(_ name: String) -> Int32 {
        for attempt in 0..<2 {
            let fd = openat(self.fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if fd >= 0 { return fd }
            guard attempt == 0, errno == EEXIST, unlinkat(self.fd, name, 0) == 0 else { return -1 }
        }
        return -1
    }

    /// Renames `from` to `to` inside the container (a link at `to` is replaced, not followed).
    func rename(_ from: String, to: String) -> Bool { renameat(fd, from, fd, to) == 0 }

    func remove(_ name: String) { _ = unlinkat(fd, name, 0) }
}
