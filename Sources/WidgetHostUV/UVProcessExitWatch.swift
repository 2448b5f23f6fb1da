import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// Tells when another process (not a child) ends: a pidfd under a `uv_poll`, so there is no
/// polling and a `kill -9` is seen as soon as a clean exit. Loop thread only.
public final class UVProcessExitWatch {
    private let fd: Int32
    private var poll: UVPoll?
    private var ended: () -> Void

    /// nil when the process does not exist (or the kernel has no pidfd). `ended` runs once; the
    /// watch closes itself first (a pidfd stays readable, and the poll is level-triggered).
    public init?(loop: UVLoop, pid: Int32, ended: @escaping () -> Void) {
        fd = widgethost_pidfd_open(pid)
        guard fd >= 0 else { return nil }
        self.ended = ended
        poll = UVPoll(loop: loop, fd: fd) { [weak self] _ in self?.fire() }
        if poll == nil { Glibc.close(fd); return nil }
    }

    private func fire() {
        let callback = ended
        close()
        callback()
    }

    /// Stops watching (no callback after this) and closes the descriptor once libuv has let go.
    public func close() {
        ended = {}
        guard let p = poll else { return }
        poll = nil
        let fd = self.fd
        p.close { Glibc.close(fd) }
    }
}
