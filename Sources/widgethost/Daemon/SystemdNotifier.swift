import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The sd_notify protocol spoken directly (no libsystemd): newline-separated `KEY=VALUE`
/// assignments in one datagram to the `AF_UNIX` socket named by `$NOTIFY_SOCKET` — a path, or an
/// abstract address written with a leading `@`. Without `$NOTIFY_SOCKET` (not started by systemd
/// as `Type=notify`) every call does nothing.
///
/// `init` reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` and removes them from the
/// environment, so workers and the URL opener the daemon spawns never talk to systemd in its name.
///
/// Threading: one thread (the loop's); sends are non-blocking datagrams and a failure is ignored
/// (systemd gone is not the daemon's problem).
final class SystemdNotifier {
    /// The socket address, nil when not under a notify-type service.
    let address: String?
    /// How often systemd expects `WATCHDOG=1`, in microseconds; nil when no watchdog is set for
    /// this process.
    let watchdogMicroseconds: UInt64?
    private var fd: Int32 = -1

    init(environment: [String: String]) {
        let socket = environment["NOTIFY_SOCKET"].flatMap { $0.hasPrefix("/") || ($0.hasPrefix("@") && $0.count > 1) ? $0 : nil }
        address = socket
        let forUs = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
        watchdogMicroseconds = socket == nil || !forUs ? nil : environment["WATCHDOG_USEC"].flatMap { UInt64($0) }.flatMap { $0 > 0 ? $0 : nil }
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"] { unsetenv(key) }
    }

    deinit { if fd >= 0 { close(fd) } }

    var isActive: Bool { address != nil }

    /// Sends `assignments` (`"READY=1"`, `"STATUS=…"`) as one message.
    func send(_ assignments: [String]) {
        guard let address, !assignments.isEmpty else { return }
        if fd < 0 { fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        guard fd >= 0 else { return }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        var path = Array(address.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }  // abstract namespace
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard path.count < capacity else { return }
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in path.enumerated() { buf[i] = b } }
        // A path address counts its terminating NUL; an abstract one is exactly its bytes.
        let length = MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1)
        let message = Array(assignments.joined(separator: "\n").utf8)
        _ = message.withUnsafeBytes { bytes in
            withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), $0, socklen_t(length))
                }
            }
        }
    }

    /// `MONOTONIC_USEC=` for `RELOADING=1` (CLOCK_MONOTONIC, as systemd requires).
    static func monotonicMicroseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
    }
}
