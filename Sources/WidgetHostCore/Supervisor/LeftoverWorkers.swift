import FoundationEssentials
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Processes a previous run's workers left behind. A worker dies with its host (`PDEATHSIG`),
/// and its process group with it whenever the host sees it end; but after `kill -9` of the host
/// a child a plugin forked is not the worker, has no death signal, and lives on. Its command
/// line is still the worker's (`… worker --plugin <state>/bundles/…`), so at start the host ends
/// every such process: none can belong to a running host, since one state folder serves one
/// host. Called on the loop thread at start.
public enum LeftoverWorkers {
    /// Pids whose command line runs a worker on a bundle under `bundles` (not this process).
    ///
    /// Every process's `cmdline` is read into one reused buffer and searched for the bundle
    /// prefix first; only a hit is split into arguments. Splitting every command line (and a
    /// zeroed 64 KiB buffer per read) was half of a daemon's start-up instructions on a machine
    /// with a few hundred processes (callgrind, issue 16).
    public static func find(bundles: String) -> [pid_t] {
        let prefix = Array((bundles.hasSuffix("/") ? bundles : bundles + "/").utf8)
        let me = getpid()
        var out: [pid_t] = []
        guard let dir = opendir("/proc") else { return [] }
        defer { closedir(dir) }
        let capacity = 64 << 10
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        while let ent = readdir(dir) {
            let pid: pid_t? = withUnsafeBytes(of: ent.pointee.d_name) { raw in
                var v: pid_t = 0, any = false
                for b in raw { if b == 0 { break }; guard b >= 0x30 && b <= 0x39, v < 100_000_000 else { return nil }; v = v * 10 + pid_t(b - 0x30); any = true }
                return any ? v : nil
            }
            guard let pid, pid != me else { continue }
            let n = { () -> Int in
                let fd = open("/proc/\(pid)/cmdline", O_RDONLY | O_CLOEXEC)
                guard fd >= 0 else { return 0 }
                defer { close(fd) }
                var total = 0
                while total < capacity {
                    let r = read(fd, buffer.baseAddress! + total, capacity - total)
                    if r < 0 && errno == EINTR { continue }
                    if r <= 0 { break }
                    total += r
                }
                return total
            }()
            let cmd = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            guard n > prefix.count, contains(cmd, prefix) else { continue }
            let args = cmd.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
            guard let i = args.firstIndex(of: Array("--plugin".utf8)), i + 1 < args.count, args.contains(Array("worker".utf8)),
                  args[i + 1].starts(with: prefix) else { continue }
            out.append(pid)
        }
        return out.sorted()
    }

    /// Whether `needle` occurs in `haystack` (`memchr` for its first byte, then `memcmp`).
    private static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, let base = haystack.baseAddress, haystack.count >= needle.count else { return false }
        return needle.withUnsafeBytes { n in
            let last = haystack.count - needle.count
            var i = 0
            while i <= last {
                guard let p = memchr(base + i, Int32(first), last - i + 1) else { return false }
                let j = UnsafeRawPointer(p) - base
                if memcmp(base + j, n.baseAddress!, needle.count) == 0 { return true }
                i = j + 1
            }
            return false
        }
    }

    /// Kills them (SIGKILL) and logs how many there were.
    public static func kill(bundles: String, logger: Logger) {
        let pids = find(bundles: bundles)
        guard !pids.isEmpty else { return }
        for pid in pids { _ = Glibc.kill(pid, SIGKILL) }
        logger.warning("ended \(pids.count) process(es) left running by a previous run's workers: \(pids.map(String.init).joined(separator: ", "))")
    }
}
