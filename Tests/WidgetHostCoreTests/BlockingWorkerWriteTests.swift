import FoundationEssentials
import Testing
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// A request written to a worker that already died killed the caller with SIGPIPE (it took the
/// whole test run down once): the write now fails with an error instead.
@Suite struct BlockingWorkerWriteTests {
    @Test func writingToADeadWorkerIsAnErrorNotSIGPIPE() {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        close(fds[0])  // the reader is gone
        defer { close(fds[1]) }
        #expect(!BlockingWorkerClient.writeWithoutSIGPIPE(fds[1], Data(repeating: 1, count: 100)))
        #expect(errno == EPIPE)
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGPIPE) == 0, "no SIGPIPE left pending")
    }
}
