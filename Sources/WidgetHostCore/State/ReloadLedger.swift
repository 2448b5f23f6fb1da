import FoundationEssentials
import Logging
#if canImport(Glibc)
import Glibc
#endif

/// The reload budget's ledger (DESIGN §6, §8): for each widget instance, the dates of its
/// budgeted reloads in the last 24 h. Persisted to `state/reload-ledger.json` (temp + rename)
/// on every charge, *before* the reload is sent, so neither a restart nor `kill -9` resets a
/// budget or loses a charge. When the file cannot be written (a read-only or full state
/// folder) the charge still counts in memory, and `saveError` says so — shown by `status` and
/// logged once — so a budget that a restart would forget is never spent silently. Loop thread only.
public final class ReloadLedger {
    public static let window: Double = 86_400
    /// Charges by instance id, ascending epoch seconds; charges older than the window may linger
    /// a while (they no longer count).
    public private(set) var charges: [String: [Double]] = [:]
    public let path: String?
    private let logger: Logger
    /// Why the last save failed (nil once a save succeeds): the charges since are not durable.
    public private(set) var saveError: String?

    /// - Parameter path: the ledger file (nil: in memory only, for tests).
    public init(path: String?, logger: Logger) {
        self.path = path
        self.logger = logger
        if let path, let data = FileIO.read(path, limit: 16 << 20), !data.isEmpty {
            if let decoded = try? JSONDecoder().decode([String: [Double]].self, from: data) {
                charges = decoded.mapValues { $0.sorted() }
            } else {
                logger.error("\(path): unreadable reload ledger, starting a new one")
            }
        }
    }

    /// Charges left for `id` at `now` with `budget` per 24 h.
    public func remaining(_ id: String, budget: Int, now: Date) -> Int {
        let list = charges[id] ?? []
        return max(0, budget - (list.count - Self.firstIndex(after: now.timeIntervalSince1970 - Self.window, in: list)))
    }

    /// Charges one reload to `id` when the budget allows and returns nil; otherwise returns the
    /// date the budget next allows one (when the oldest charge in the window expires).
    ///
    /// Each list is kept ascending, so the charges in the window are counted by halves: the
    /// shipped CPU widget holds 17 280 a day, and filtering every list on every charge was half
    /// the time of a day on virtual time (issue 22). Expired charges are dropped once they are
    /// a quarter of their list (or the list is small), and every list is pruned once an hour.
    public func charge(_ id: String, budget: Int, now: Date) -> Date? {
        let t = now.timeIntervalSince1970
        let cutoff = t - Self.window
        // Read in a scope of its own: no copy of the list outlives it, so the writes below are in place.
        let (count, first, oldest): (Int, Int, Double?) = {
            guard let list = charges[id] else { return (0, 0, nil) }
            return (list.count, Self.firstIndex(after: cutoff, in: list), list.count >= budget ? list[list.count - budget] : nil)
        }()
        if count - first >= budget, let oldest { return Date(timeIntervalSince1970: oldest + Self.window) }
        if first > 0 && (first >= 64 || first * 4 >= count) { charges[id]?.removeFirst(first) }
        // In place (no copy of the list); a clock set back inserts where the date belongs.
        if let current = charges[id], let last = current.last, last > t {
            let at = Self.firstIndex(after: t, in: current)
            charges[id]?.insert(t, at: at)
        } else {
            charges[id, default: []].append(t)
        }
        // Drop charges older than the window everywhere (instances that went away included).
        if abs(t - lastPrune) >= 3600 {
            lastPrune = t
            for k in Array(charges.keys) where k != id {
                let kept = charges[k]!.drop(while: { $0 <= cutoff })
                charges[k] = kept.isEmpty ? nil : Array(kept)
            }
        }
        save()
        return nil
    }

    /// When every list but the charged one was last pruned (epoch seconds).
    private var lastPrune: Double = -.infinity

    /// The index of the first charge after `cutoff` in an ascending list (`list.count`: none).
    static func firstIndex(after cutoff: Double, in list: [Double]) -> Int {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid] <= cutoff { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    private func save() {
        guard let path else { return }
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        do {
            try FileIO.writeAtomically(try e.encode(charges), to: path, mode: 0o600)
            if saveError != nil { logger.notice("the reload ledger is saved again (\(path))") }
            saveError = nil
        } catch {
            if saveError == nil { logger.error("cannot save the reload ledger, reload charges are not recorded across a restart: \(error)") }
            saveError = "\(error)"
        }
    }
}
