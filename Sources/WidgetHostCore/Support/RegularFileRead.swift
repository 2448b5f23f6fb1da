#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

extension FileIO {
    /// Reads the regular file at `path` (at most `limit` bytes) without ever waiting on what is
    /// there: the open is non-blocking (a FIFO with no writer, a device, would otherwise hang the
    /// caller — a FIFO as `config.json` froze the daemon's loop, issue 23) and anything but a
    /// regular file is refused. The error says what is at `path` (`is a FIFO, not a regular file`)
    /// or why it cannot be read. Safe from any thread.
    public static func readRegularFile(_ path: String, limit: Int = 64 << 20) throws(Failure) -> Data {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw Failure(description: "cannot read the file: \(errnoText())") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Failure(description: "cannot read the file: \(errnoText())") }
        let kind = st.st_mode & S_IFMT
        guard kind == S_IFREG else { throw Failure(description: "is \(kindName(kind)), not a regular file") }
        return read(fd: fd, limit: limit)
    }

    /// "a folder", "a FIFO"… for a file type of `st_mode & S_IFMT`.
    public static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFLNK: return "a symbolic link"
        default: return "a regular file"
        }
    }
}
