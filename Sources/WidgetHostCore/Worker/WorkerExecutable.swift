import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where workers come from: `widgethost-worker` next to the running executable (or
/// `WIDGETHOST_WORKER_EXECUTABLE`). A separate executable because `widgethost` links the Swift
/// runtime statically (its start-up costs a third less) while a worker must share the dynamic
/// runtime with the Swift plugins it loads (docs/performance.md, DESIGN §3).
///
/// A daemon pins the file it found at start (`pinned`): it keeps it open and starts workers from
/// `/proc/self/fd/N`, so a `widgethost-worker` replaced by an upgrade under a running daemon
/// cannot start with another version's protocol — the guarantee `/proc/self/exe` gave when the
/// worker was the same binary. Pure functions, any thread.
public enum WorkerExecutable {
    /// The name of the worker executable.
    public static let name = "widgethost-worker"

    /// `WIDGETHOST_WORKER_EXECUTABLE`, else `widgethost-worker` in the directory of this process's
    /// executable (symlinks resolved).
    public static func path() -> String {
        if let e = getenv("WIDGETHOST_WORKER_EXECUTABLE") { return String(cString: e) }
        return SiblingExecutable.path(name)
    }

    /// The worker executable held open for the life of this process: `/proc/self/fd/N` (valid
    /// in a child until it execs: the descriptor is close-on-exec, and the kernel opens the path
    /// before it closes such descriptors), or the reason it cannot be used.
    public static func pinned() -> Result<String, WorkerFailure> {
        let p = path()
        let fd = open(p, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return .failure(WorkerFailure("cannot open the worker executable \(p): \(String(cString: strerror(errno))) "
                                          + "(it is installed beside widgethost; WIDGETHOST_WORKER_EXECUTABLE names another)"))
        }
        guard access(p, X_OK) == 0 else {
            close(fd)
            return .failure(WorkerFailure("the worker executable \(p) is not executable"))
        }
        return .success("/proc/self/fd/\(fd)")
    }
}
