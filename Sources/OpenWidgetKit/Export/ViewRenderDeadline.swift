import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The render-time limit of one view evaluation (DESIGN §6: "a deadline per view evaluation").
///
/// The worker passes the limit in `WIDGETHOST_VIEW_DEADLINE_MS` (config
/// `limits.viewRenderMilliseconds`). Each evaluation arms a one-shot `ITIMER_REAL`; a body that
/// is still running when it fires — an endless loop, a blocking call — cannot be interrupted
/// safely, so the worker prints one line naming the limit and exits, pre-emptively. The host
/// keeps the widget's last good entry and shows that line as the error.
///
/// Threading: evaluations run one at a time on the worker's request thread, which is what a
/// process-wide timer needs.
enum ViewRenderDeadline {
    /// The limit in milliseconds; 0 = none. Read once; installs the SIGALRM handler when set.
    static let milliseconds: Int = {
        guard let raw = getenv("WIDGETHOST_VIEW_DEADLINE_MS"), let ms = Int(String(cString: raw)), ms > 0 else { return 0 }
        alarmMessage = strdup("widgethost worker: a view evaluation passed its render-time limit of \(ms) ms (limits.viewRenderMilliseconds)\n")
        signal(SIGALRM) { _ in
            if let message = alarmMessage { _ = write(2, message, strlen(message)) }
            _exit(4)
        }
        return ms
    }()

    /// The line the SIGALRM handler writes: prepared up front, as a handler may not allocate.
    nonisolated(unsafe) static var alarmMessage: UnsafeMutablePointer<CChar>?

    /// Runs one view evaluation under the limit.
    static func run<T>(_ evaluation: () -> T) -> T {
        let ms = milliseconds
        guard ms > 0 else { return evaluation() }
        var timer = itimerval(it_interval: timeval(), it_value: timeval(tv_sec: ms / 1000, tv_usec: (ms % 1000) * 1000))
        setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &timer, nil)
        defer {
            var off = itimerval()
            setitimer(__itimer_which_t(ITIMER_REAL.rawValue), &off, nil)
        }
        return evaluation()
    }
}
