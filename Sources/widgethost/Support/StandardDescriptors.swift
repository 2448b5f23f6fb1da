#if canImport(Glibc)
import Glibc
#endif

/// The process's standard descriptors, made safe for a daemon.
enum StandardDescriptors {
    /// Opens /dev/null on each of fd 0, 1 and 2 that is closed (a launcher that closes them, a
    /// shell's `<&-`). Otherwise the next file the process opens (the control socket, an output
    /// file) would become stdin or stdout, and click parsing or the i3bar stream would use it.
    /// Call first, before anything opens a file. Main thread, once.
    static func reopenClosedOnDevNull() {
        for fd in Int32(0)...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            let opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if opened >= 0 && opened != fd { dup2(opened, fd); close(opened) }
        }
    }
}
