import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Tells a bar that a picture changed, as `pkill -RTMIN+N waybar` would: `SIGRTMIN+N` to every
/// process of this user whose name (`/proc/<pid>/comm`, 15 bytes) is the configured one
/// (`picture.signal`, `picture.signalProcess`; waybar's `image` module with `"signal": N` then
/// reloads its file). Requests in one loop iteration are coalesced: one signal per (N, name),
/// sent from a zero-delay timer, never for every widget of a burst. The processes found are
/// remembered for `rescanSeconds` (a picture ticking every second does not walk `/proc` every
/// second); each one's name is read again right before it is signalled, so a pid reused by
/// another program is never sent a real-time signal (whose default action ends a process).
///
/// Threading: loop thread only.
public final class BarRefreshSignal {
    private struct Target: Hashable { var signal: Int; var process: String }
    private let loop: any HostLoop
    private var pending: Set<Target> = []
    private var timer: (any HostTimer)?
    private let procRoot: String
    private var found: [String: [pid_t]] = [:]
    private var scannedAt: Double?
    /// How long a walk of `/proc` is trusted.
    public static let rescanSeconds = 2.0
    /// Signals sent (one per process reached), for tests.
    public private(set) var sentCount = 0

    public init(loop: any HostLoop, procRoot: String = "/proc") {
        self.loop = loop
        self.procRoot = procRoot
    }

    /// The picture of a widget with `settings` changed.
    public func pictureChanged(_ settings: PictureSettings) {
        guard let n = settings.signal else { return }
        pending.insert(Target(signal: n, process: settings.signalProcess))
        if timer == nil { timer = loop.makeTimer { [weak self] in self?.flush() } }
        if timer?.isScheduled != true { timer?.schedule(after: 0) }
    }

    public func close() { timer?.close(); timer = nil; pending = [] }

    private func flush() {
        let targets = pending
        pending = []
        guard !targets.isEmpty else { return }
        let names = Set(targets.map { Self.commName($0.process) })
        let now = Self.monotonicSeconds()
        if scannedAt.map({ now - $0 >= Self.rescanSeconds }) ?? true || !names.isSubset(of: Set(found.keys)) {
            found = processes(named: names)
            for n in names where found[n] == nil { found[n] = [] }
            scannedAt = now
        }
        for t in targets {
            let name = Self.commName(t.process)
            for pid in found[name] ?? [] where comm(of: pid) == name && kill(pid, __libc_current_sigrtmin() + Int32(t.signal)) == 0 {
                sentCount += 1
            }
        }
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// `/proc/<pid>/comm` without its newline; nil when the process is gone.
    func comm(of pid: pid_t) -> String? {
        guard let data = FileIO.read(procRoot + "/\(pid)/comm", limit: 64) else { return nil }
        var comm = String(decoding: data, as: UTF8.self)
        if comm.hasSuffix("\n") { comm.removeLast() }
        return comm
    }

    /// What `comm` holds for a program called `name`: its first 15 bytes.
    static func commName(_ name: String) -> String { String(decoding: Array(name.utf8.prefix(15)), as: UTF8.self) }

    /// Pids of this user's processes (not this one) whose `comm` is one of `names`.
    func processes(named names: Set<String>) -> [String: [pid_t]] {
        var out: [String: [pid_t]] = [:]
        let me = getpid(), uid = getuid()
        for entry in FileIO.list(procRoot) ?? [] {
            guard let pid = pid_t(entry), pid != me else { continue }
            var st = stat()
            guard stat(procRoot + "/" + entry, &st) == 0, st.st_uid == uid, let comm = comm(of: pid) else { continue }
            if names.contains(comm) { out[comm, default: []].append(pid) }
        }
        return out
    }
}
