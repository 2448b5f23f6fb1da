import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A line per frame the lean surface put on screen, for the benchmark's latency from a widget's
/// change to its new pixels (docs/performance.md, "The desktop path"): enabled by
/// `WIDGETHOST_DESKTOP_FRAME_LOG=FILE`, off (nil, nothing done per frame) otherwise.
///
/// Each line is `<CLOCK_MONOTONIC ns> <what changed since the last frame>\n`: the ids of the
/// widgets the view stream changed, `snapshot` for a snapshot, `tick` for a live-date tick,
/// space-separated; written with one `write(2)` to a file opened `O_APPEND` after the frame's
/// requests reached the display server. A write that fails is dropped (a benchmark aid, never a
/// reason to stop drawing).
///
/// Threading: the surface's one thread. Not `Sendable`.
public final class FrameTimingLog {
    private let fd: Int32
    private var changed: [String] = []

    /// The log `environment` asks for, nil when it asks for none or the file cannot be opened
    /// (`warn` says why).
    public static func fromEnvironment(_ environment: [String: String], warn: (String) -> Void) -> FrameTimingLog? {
        guard let path = environment["WIDGETHOST_DESKTOP_FRAME_LOG"], !path.isEmpty else { return nil }
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            warn("WIDGETHOST_DESKTOP_FRAME_LOG: cannot open \(path): \(String(cString: strerror(errno))); no frame log")
            return nil
        }
        return FrameTimingLog(fd: fd)
    }

    init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// What the next frame shows new (widget ids, `snapshot`, `tick`); kept once each.
    public func note(_ what: String) {
        if !changed.contains(what) { changed.append(what) }
    }

    /// A frame is on its way to the screen: writes its line and starts the next.
    public func framePresented() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let line = Self.line(nanoseconds: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec), changed: changed)
        changed.removeAll(keepingCapacity: true)
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// One line of the log.
    static func line(nanoseconds: Int64, changed: [String]) -> String {
        "\(nanoseconds)" + (changed.isEmpty ? "" : " " + changed.joined(separator: " ")) + "\n"
    }
}
