/// Each widget's fair share of the one render process (issue 23): one widget whose pictures take
/// long, fail or never finish must not starve the pictures of the others.
///
/// - **Time budget.** Every widget has a bucket of render time (`Budget.seconds`, its
///   `picture.budgetSeconds`), full at first, refilled at `seconds / refillSeconds` per second
///   (a widget's long-run share of the render process; 20 % by default) and charged the time each
///   of its pictures took — the whole deadline when the process was killed at it. A picture is
///   sent only when the bucket holds at least `minimumTurn`, with a deadline of what the bucket
///   holds (never more than `picture.timeoutSeconds`), so no picture blocks the others longer
///   than its widget has saved up.
/// - **Backoff.** A widget whose picture failed (killed at its deadline, crashed the process,
///   over its size budget, not drawable) waits 1 s before its next one, doubling with each
///   failure in a row up to `maxBackoff`; one success starts it over.
/// - **Order.** Of the widgets with a picture waiting and ready (bucket and backoff allow),
///   those in good standing go first, in the order they asked; widgets with failures after them.
///
/// Times are seconds on a clock that moves forward (a step back counts as no time). Pure value;
/// owned by `PictureOutputs`, loop thread only.
public struct PictureFairShare: Equatable, Sendable {
    /// One widget's time budget.
    public struct Budget: Equatable, Sendable {
        /// The most render time a widget can spend at once: the bucket's size, in seconds.
        public var seconds: Double
        /// Seconds an empty bucket takes to fill again.
        public var refillSeconds: Double
        /// The least a bucket must hold for a picture to be sent (its shortest deadline).
        public var minimumTurn: Double

        public init(seconds: Double = 2, refillSeconds: Double = 10, minimumTurn: Double = 0.25) {
            self.seconds = seconds; self.refillSeconds = refillSeconds; self.minimumTurn = min(minimumTurn, seconds)
        }

        /// Render seconds earned per second.
        var rate: Double { seconds / refillSeconds }
    }

    struct Account: Equatable, Sendable {
        var balance: Double
        var at: Double
        var failures = 0
        var retryAt = -Double.infinity
    }

    /// The longest a failing widget waits between two pictures, in seconds.
    public static let maxBackoff = 60.0

    private var accounts: [String: Account] = [:]

    public init() {}

    /// The wait after `failures` failures in a row: 1 s, doubling, at most `maxBackoff`.
    public static func backoff(_ failures: Int) -> Double {
        failures <= 0 ? 0 : min(maxBackoff, Double(1 << min(failures - 1, 10)))
    }

    private func account(_ id: String, _ budget: Budget, _ now: Double) -> Account {
        guard var a = accounts[id] else { return Account(balance: budget.seconds, at: now) }
        a.balance = min(budget.seconds, a.balance + max(0, now - a.at) * budget.rate)
        a.at = max(a.at, now)
        return a
    }

    /// Render seconds `id` has saved up at `now`.
    public func balance(of id: String, budget: Budget, now: Double) -> Double { account(id, budget, now).balance }

    /// Failures in a row of `id`'s pictures.
    public func failures(of id: String) -> Int { accounts[id]?.failures ?? 0 }

    /// The earliest instant a picture of `id` may be sent.
    public func readyAt(_ id: String, budget: Budget, now: Double) -> Double {
        let a = account(id, budget, now)
        let refilled = a.balance >= budget.minimumTurn ? now : now + (budget.minimumTurn - a.balance) / budget.rate
        return max(a.retryAt, refilled)
    }

    /// The deadline of a picture of `id` sent at `now`: what its bucket holds, at most `timeout`.
    public func deadline(_ id: String, budget: Budget, timeout: Double, now: Double) -> Double {
        min(timeout, max(budget.minimumTurn, account(id, budget, now).balance))
    }

    /// The widget to draw next among `waiting` (in the order they asked), or, when none is ready,
    /// the instant the first one will be.
    public func next(_ waiting: [String], budget: (String) -> Budget, now: Double) -> (id: String?, wakeAt: Double?) {
        var failing: String?, wake: Double?
        for id in waiting {
            let at = readyAt(id, budget: budget(id), now: now)
            if at <= now {
                if failures(of: id) == 0 { return (id, nil) }
                if failing == nil { failing = id }
            } else {
                wake = min(wake ?? at, at)
            }
        }
        return failing.map { ($0, nil) } ?? (nil, wake)
    }

    /// A picture of `id` took `seconds` of the render process (ending at `now`).
    public mutating func charge(_ id: String, seconds: Double, budget: Budget, now: Double) {
        var a = account(id, budget, now)
        a.balance = max(-budget.seconds, a.balance - max(0, seconds))
        accounts[id] = a
    }

    /// A picture of `id` was drawn: its failures are forgotten.
    public mutating func succeeded(_ id: String) {
        accounts[id]?.failures = 0
        accounts[id]?.retryAt = -.infinity
    }

    /// A picture of `id` failed at `now`; returns the seconds until its next one may be sent.
    @discardableResult
    public mutating func failed(_ id: String, budget: Budget, now: Double) -> Double {
        var a = account(id, budget, now)
        a.failures += 1
        let wait = Self.backoff(a.failures)
        a.retryAt = now + wait
        accounts[id] = a
        return wait
    }

    /// `id` is gone: it starts afresh if it comes back.
    public mutating func remove(_ id: String) { accounts[id] = nil }
}
