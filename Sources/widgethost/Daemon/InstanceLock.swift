import FoundationEssentials
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// One daemon per configuration: an exclusive `flock` on `<state>/daemon.lock`, taken when `run`
/// starts and held (by the open descriptor) until the process exits. The file holds the owner's
/// pid so a refused second `run` can name it. Two configs with different state directories run
/// side by side; two `run`s on one config (or on two configs sharing a state directory, which
/// would write the same `out/` and ledger) cannot.
///
/// The descriptor is `O_CLOEXEC`: workers spawned by the daemon never inherit the lock, so a
/// worker outliving a killed daemon cannot keep the next one from starting. The kernel drops the
/// lock when the process dies, however it dies (no stale-lock cleanup needed).
///
/// Threading: used once, on the main thread, before the loop starts.
final class InstanceLock {
    /// Why the lock was not taken.
    enum Failure: Error, CustomStringConvertible {
        /// Another daemon holds it; its pid when the file names one.
        case held(path: String, pid: Int32?)
        /// The state directory or the lock file cannot be created or locked.
        case unavailable(path: String, reason: String)

        var description: String {
            switch self {
            case .held(let path, let pid):
                let who = pid.map { "pid \($0)" } ?? "another process"
                return "another widgethost is already running on this configuration (\(who), lock \(path)); "
                    + "stop it first, or give this one a different paths.state"
            case .unavailable(let path, let reason):
                return "cannot take the instance lock \(path): \(reason)"
            }
        }
    }

    let path: String
    private let fd: Int32

    private init(path: String, fd: Int32) { self.path = path; self.fd = fd }

    deinit { close(fd) }

    /// The lock file of a state directory.
    static func path(stateDirectory: String) -> String { stateDirectory + "/daemon.lock" }

    /// Takes the lock of `stateDirectory` without waiting (creating the directory if needed) and
    /// writes this process's pid into it.
    static func acquire(stateDirectory: String) -> Result<InstanceLock, Failure> {
        let path = path(stateDirectory: stateDirectory)
        do { try FileIO.makeDirectories(stateDirectory, mode: 0o700) } catch {
            return .failure(.unavailable(path: path, reason: "\(error)"))
        }
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .failure(.unavailable(path: path, reason: String(cString: strerror(errno)))) }
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let err = errno
            defer { close(fd) }
            if err == EWOULDBLOCK { return .failure(.held(path: path, pid: readPid(fd))) }
            return .failure(.unavailable(path: path, reason: String(cString: strerror(err))))
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        return .success(InstanceLock(path: path, fd: fd))
    }

    private static func readPid(_ fd: Int32) -> Int32? {
        var buf = [UInt8](repeating: 0, count: 32)
        let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return nil }
        return Int32(String(decoding: buf[0..<n].prefix { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self))
    }
}
