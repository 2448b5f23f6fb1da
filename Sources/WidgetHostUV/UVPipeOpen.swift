import CLibUV
#if canImport(Glibc)
import Glibc
#endif

extension UVPipe {
    /// Why a descriptor cannot be read as a stream, or nil when it can (a pipe or a socket).
    /// libuv polls a pipe with epoll, which refuses character devices (`/dev/null`, a tty) and
    /// regular files: `uv_pipe_open` accepts them and the loop then aborts on the first poll.
    public static func unusableReason(fd: Int32) -> String? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return "closed" }
        switch st.st_mode & S_IFMT {
        case S_IFIFO, S_IFSOCK: return nil
        case S_IFCHR: return isatty(fd) == 1 ? "a terminal" : "a character device such as /dev/null"
        case S_IFREG: return "a regular file"
        default: return "not a pipe"
        }
    }

    /// A pipe over an existing file descriptor (e.g. stdin, for i3bar's click events); nil when
    /// it is not a pipe or socket (`unusableReason`) or libuv refuses it.
    public static func open(loop: UVLoop, fd: Int32) -> UVPipe? {
        guard unusableReason(fd: fd) == nil else { return nil }
        let p = UVPipe(loop: loop)
        guard uv_pipe_open(p.memory.assumingMemoryBound(to: uv_pipe_t.self), fd) == 0 else { p.close(); return nil }
        return p
    }
}
