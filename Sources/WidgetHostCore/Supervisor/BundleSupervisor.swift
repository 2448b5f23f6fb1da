import FoundationEssentials
import Logging
import OpenWidgetKit

/// Crash recovery per bundle (DESIGN §6): counts failed calls in a row (a crash, a missed
/// deadline, a malformed answer — not an `ok:false` answer from a healthy worker); past the bundle's `quarantineAfterFailures` the
/// bundle is quarantined — no worker is started for it and every call fails at once with the
/// reason — until its `.so` changes (a new file is a new `LoadedBundle`, with a fresh count).
/// Exponential backoff between retries stays the scheduler's. Loop thread only.
public final class BundleSupervisor {
    struct State {
        var fingerprint: String
        var failuresInARow = 0
        var quarantine: String?
    }
    private var states: [String: State] = [:]
    private let logger: Logger
    public var threshold: (LoadedBundle) -> Int = { _ in 5 }

    public init(logger: Logger) { self.logger = logger }

    private func state(_ b: LoadedBundle) -> State {
        if let s = states[b.name], s.fingerprint == b.file.fingerprint { return s }
        return State(fingerprint: b.file.fingerprint)
    }

    /// Why `bundle` is quarantined, or nil.
    public func quarantineReason(_ bundle: LoadedBundle) -> String? { state(bundle).quarantine }

    /// Calls through `registry` unless the bundle is quarantined; records the outcome.
    public func call(_ registry: PluginRegistry, _ bundle: LoadedBundle, _ request: WireRequest,
                     reply: @escaping (Result<WireResponse, WorkerFailure>) -> Void) {
        if let q = quarantineReason(bundle) { reply(.failure(WorkerFailure(q))); return }
        registry.call(bundle, request) { [weak self, weak registry, weak bundle] result in
            if let self, let bundle {
                switch result {
                // An `ok:false` answer is the provider's own error (say, no network): the worker
                // is healthy, so it neither counts nor resets the run of failures.
                case .success(let r) where r.ok: self.succeeded(bundle)
                case .success: break
                case .failure(let f): self.failed(bundle, f.description, registry)
                }
            }
            reply(result)
        }
    }

    func succeeded(_ b: LoadedBundle) {
        var s = state(b)
        s.failuresInARow = 0
        states[b.name] = s
    }

    func failed(_ b: LoadedBundle, _ reason: String, _ registry: PluginRegistry?) {
        var s = state(b)
        s.failuresInARow += 1
        let n = threshold(b)
        if s.quarantine == nil && s.failuresInARow >= n {
            s.quarantine = "\(b.name) quarantined after \(s.failuresInARow) failures in a row (last: \(reason)); replace the .so to try again"
            logger.error("\(s.quarantine!)")
            registry?.stopWorker(of: b)
        }
        states[b.name] = s
    }

    /// Forgets bundles no longer loaded.
    public func retain(_ names: Set<String>) {
        for k in states.keys where !names.contains(k) { states[k] = nil }
    }
}
