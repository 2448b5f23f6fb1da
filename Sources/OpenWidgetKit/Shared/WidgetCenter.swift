import FoundationEssentials
import Synchronization

/// Asks the host to reload timelines, as `WidgetCenter.shared` does in WidgetKit.
///
/// Inside a plugin (an intent's `perform()`, a provider) the requests are collected and returned
/// to the host with the response; the host coalesces and budgets them. Thread-safe.
public final class WidgetCenter: Sendable {
    public static let shared = WidgetCenter()

    private let pending = Mutex<[String]>([])

    public func reloadAllTimelines() { pending.withLock { $0.append("*") } }
    public func reloadTimelines(ofKind kind: String) { pending.withLock { $0.append(kind) } }

    /// Runs `body` and returns the reload requests made during it (deduplicated, in order).
    static func collectingReloads(_ body: () throws -> Void) rethrows -> [String]? {
        shared.pending.withLock { $0.removeAll() }
        try body()
        let requests = shared.pending.withLock { p -> [String] in defer { p.removeAll() }; return p }
        var seen = Set<String>()
        let unique = requests.filter { seen.insert($0).inserted }
        return unique.isEmpty ? nil : unique
    }
}
