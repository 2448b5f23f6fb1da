import Logging

/// The control socket's `{"op":"entities"}`: the entity options of the placed bundles asked
/// again of their serving workers, so the gallery, `configure` and the Edit Widget form offer
/// what is there now (a music player started later, a calendar added later), not what was
/// there when the worker first served.
///
/// Contract: only a bundle `PluginRegistry.mayAskEntityOptions` admits is asked (it has an
/// entity parameter and declared access, a kind of it is placed, its worker serves); a worker
/// resting between calls (`WorkerRest`) is started for the question — the person is looking
/// at the list — and rests again after it; an unplaced bundle still starts none. A bundle is
/// asked at most once per `cooldownSeconds` (counted from the question and again from its
/// answer): within that a request waits for the answer in flight or, when it is in, is
/// answered at once from the cache. The answer comes when every
/// bundle asked has answered and its options are cached (`askEntityOptions`), or after
/// `waitSeconds` with the options cached until then (a late answer is still cached).
/// Threading: loop thread only.
final class EntityOptionsOnDemand {
    /// The shortest time between two questions to one bundle's worker (a `describe` under its
    /// sandbox: milliseconds of CPU, a query that may list a folder or call the bus).
    static let cooldownSeconds: Double = 3
    /// The longest wait for the workers' answers.
    static let waitSeconds: Double = 5

    private let loop: any HostLoop
    private let registry: PluginRegistry
    private let logger: Logger
    /// Per bundle file name: running while that bundle may not be asked again.
    private var cooldowns: [String: any HostTimer] = [:]
    /// Per bundle file name: requests waiting for the answer in flight.
    private var waiting: [String: [() -> Void]] = [:]
    private var closed = false

    init(loop: any HostLoop, registry: PluginRegistry, logger: Logger) {
        self.loop = loop; self.registry = registry; self.logger = logger
    }

    /// Asks the admitted bundles matching `bundle` (file name or bundle id; nil: all) and
    /// replies once they answered or the wait ended. An unknown `bundle` is an error.
    func refresh(bundle filter: String?, reply: @escaping (ControlResponse) -> Void) {
        let loaded = registry.bundles.values.sorted { $0.name < $1.name }
        for name in cooldowns.keys where registry.bundles[name] == nil { cooldowns.removeValue(forKey: name)?.close() }
        let matching = loaded.filter { filter == nil || $0.name == filter || $0.bundleId == filter }
        if let filter, matching.isEmpty {
            reply(.failure("no bundle \"\(filter.prefix(200))\" is loaded")); return
        }
        let admitted = matching.filter { registry.mayAskEntityOptions($0) }
        var asked: [String] = [], recent: [String] = [], inFlight: [String] = []
        let round = Round(reply: reply)
        for b in admitted {
            if waiting[b.name] != nil {
                inFlight.append(b.name)
                round.wait(for: b.name); waiting[b.name]!.append { [weak round] in round?.answered(b.name) }
            } else if cooldowns[b.name]?.isScheduled == true {
                recent.append(b.name)
            } else {
                asked.append(b.name)
                round.wait(for: b.name)
                waiting[b.name] = [{ [weak round] in round?.answered(b.name) }]
                cooling(b.name)
                logger.info("control: entities of \(b.name) asked again of its worker\(b.isAsleep ? " (started from its rest)" : "")")
                registry.askEntityOptions(b) { [weak self] changed in
                    guard let self, !self.closed else { return }
                    if changed { self.logger.info("\(b.name): its entity options changed") }
                    self.cooling(b.name)  // from the answer: a slow one does not shorten the bound
                    for w in self.waiting.removeValue(forKey: b.name) ?? [] { w() }
                }
            }
        }
        var parts: [String] = []
        parts.append(asked.isEmpty ? "no bundle asked" : "asked \(asked.joined(separator: ", "))")
        if !inFlight.isEmpty { parts.append("awaited the answer already asked of \(inFlight.joined(separator: ", "))") }
        if !recent.isEmpty { parts.append("\(recent.joined(separator: ", ")) asked less than \(Int(Self.cooldownSeconds)) s ago (its cached options)") }
        let skipped = matching.filter { b in !admitted.contains { $0 === b } }.map(\.name)
        if !skipped.isEmpty { parts.append("not asked (no entity parameter with declared access, not placed, or no serving worker): \(skipped.joined(separator: ", "))") }
        round.start(message: parts.joined(separator: "; "), asked: asked, loop: loop, waitSeconds: Self.waitSeconds)
    }

    private func cooling(_ name: String) {
        let timer = cooldowns[name] ?? loop.makeTimer {}
        cooldowns[name] = timer
        timer.schedule(after: Self.cooldownSeconds)
    }

    /// At shutdown: no timer is made or kept after it.
    func close() {
        closed = true
        for t in cooldowns.values { t.close() }
        cooldowns = [:]
        waiting = [:]
    }

    /// One request: the bundles it waits for, its deadline, its single reply.
    private final class Round {
        private var reply: ((ControlResponse) -> Void)?
        private var pending: Set<String> = []
        private var started = false
        private var message = ""
        private var asked: [String] = []
        private var deadline: (any HostTimer)?

        init(reply: @escaping (ControlResponse) -> Void) { self.reply = reply }

        func wait(for name: String) { pending.insert(name) }

        func answered(_ name: String) {
            pending.remove(name)
            if started && pending.isEmpty { finish() }
        }

        func start(message: String, asked: [String], loop: any HostLoop, waitSeconds: Double) {
            self.message = message; self.asked = asked; started = true
            guard !pending.isEmpty else { finish(); return }
            // The timer holds the round until it fires or is closed.
            let timer = loop.makeTimer { [self] in finish() }
            deadline = timer
            timer.schedule(after: waitSeconds)
        }

        private func finish() {
            guard let reply else { return }
            self.reply = nil
            deadline?.close(); deadline = nil
            let late = pending.sorted()
            reply(ControlResponse(ok: true, message: message + (late.isEmpty ? "" : "; no answer yet from \(late.joined(separator: ", ")) (its cached options)"),
                                  asked: asked))
        }
    }
}
