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
    /// Charges by instance id, ascending epoch seconds.
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
                charges = decoded
            } else {
                logger.error("\(path): unreadable reload ledger, starting a new one")
            }
        }
    }

    /// Charges left for `id` at `now` with `budget` per 24 h.
    public func remaining(_ id: String, budget: Int, now: Date) -> Int {
        max(0, budget - recent(id, now: now).count)
    }

    /// Charges one reload to `id` when the budget allows and returns nil; otherwise returns the
    /// date the budget next allows one (when the oldest charge in the window expires).
    public func charge(_ id: String, budget: Int, now: Date) -> Date? {
        let list = recent(id, now: now)
        if list.count >= budget {
            let oldest = list[list.count - budget]
            return Date(timeIntervalSince1970: oldest + Self.window)
        }
        charges[id] = list + [now.timeIntervalSince1970]
        // Drop charges older than the window everywhere (instances that went away included).
        let cutoff = now.timeIntervalSince1970 - Self.window
        for (k, v) in charges where k != id {
            let kept = v.filter { $0 > cutoff }
            charges[k] = kept.isEmpty ? nil : kept
        }
        save()
        return nil
    }

    private func recent(_ id: String, now: Date) -> [Double] {
        let cutoff = now.timeIntervalSince1970 - Self.window
        return (charges[id] ?? []).filter { $0 > cutoff }
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
