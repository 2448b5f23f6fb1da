import CLibUV
import FoundationEssentials
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The wall-clock timer of DESIGN §5: a `CLOCK_REALTIME` timerfd armed with
/// `TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET` under a `uv_poll`.
///
/// An absolute realtime deadline keeps counting through suspend, so it fires right after resume
/// when its date has passed; when the clock is set while armed, the read fails with ECANCELED and
/// `clockChanged` runs (the owner re-evaluates and re-arms). Disarmed, it causes no wake-up at
/// all. Loop thread only.
public final class TimerFDWallClockTimer: WallClockTimer {
    private let fd: Int32
    private var poll: UVPoll?
    private let fire: () -> Void
    private let clockChanged: () -> Void
    public private(set) var armedDate: Date?

    public init(loop: UVLoop, fire: @escaping () -> Void, clockChanged: @escaping () -> Void) {
        self.fire = fire
        self.clockChanged = clockChanged
        fd = timerfd_create(CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        precondition(fd >= 0, "timerfd_create: \(String(cString: strerror(errno)))")
        poll = UVPoll(loop: loop, fd: fd) { [weak self] _ in self?.readable() }
    }

    /// Re-arming at the date already armed is free (no syscall): the scheduler re-evaluates after
    /// every answer, and most answers leave the next due date where it was.
    public func arm(at date: Date) {
        if armedDate == date { return }
        let t = max(date.timeIntervalSince1970, 0.000_001)
        var spec = itimerspec()
        spec.it_value.tv_sec = Int(t.rounded(.down))
        spec.it_value.tv_nsec = max(1, Int((t - t.rounded(.down)) * 1e9))
        if timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME) | Int32(TFD_TIMER_CANCEL_ON_SET), &spec, nil) == 0 {
            armedDate = date
        }
    }

    public func disarm() {
        guard armedDate != nil else { return }
        var spec = itimerspec()
        _ = timerfd_settime(fd, 0, &spec, nil)
        armedDate = nil
    }

    private func readable() {
        var expirations: UInt64 = 0
        let n = read(fd, &expirations, 8)
        if n < 0 && errno == ECANCELED {
            armedDate = nil
            clockChanged()
        } else if n == 8 {
            armedDate = nil
            fire()
        }
    }

    public func close() {
        guard let p = poll else { return }
        poll = nil
        disarm()
        let fd = self.fd
        p.close { Glibc.close(fd) }
    }
}
