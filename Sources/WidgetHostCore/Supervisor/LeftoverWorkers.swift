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
    public static func find(bundles: String) -> [pid_t] {
        let prefix = Array((bundles.hasSuffix("/") ? bundles : bundles + "/").utf8)
        var out: [pid_t] = []
        for name in FileIO.list("/proc") ?? [] {
            guard let pid = pid_t(name), pid != getpid(),
                  let cmd = FileIO.read("/proc/\(name)/cmdline", limit: 64 << 10) else { continue }
            let args = cmd.split(separator: 0, omittingEmptySubsequences: false).map(Array.init)
            guard let i = args.firstIndex(of: Array("--plugin".utf8)), i + 1 < args.count, args.contains(Array("worker".utf8)),
                  args[i + 1].starts(with: prefix) else { continue }
            out.append(pid)
        }
        return out.sorted()
    }

    /// Kills them (SIGKILL) and logs how many there were.
    public static func kill(bundles: String, logger: Logger) {
        let pids = find(bundles: bundles)
        guard !pids.isEmpty else { return }
        for pid in pids { _ = Glibc.kill(pid, SIGKILL) }
        logger.warning("ended \(pids.count) process(es) left running by a previous run's workers: \(pids.map(String.init).joined(separator: ", "))")
    }
}
