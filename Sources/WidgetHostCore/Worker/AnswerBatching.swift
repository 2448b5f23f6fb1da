import FoundationEssentials

/// Which of the worker's answers may wait for the next ones, so that a reload round (every
/// widget of a bundle asked in one write) is answered in one write too: one wake-up of the host
/// instead of one per widget (issue 16: the host woke up eleven times per round of W1r).
///
/// An answer waits only while the requests after it are known to be quick: each distinct
/// request's last call time is remembered, and before a request that took `quickNanoseconds` or
/// more (or was never seen) the answers gathered so far are written first. A provider that
/// fetches from the network therefore never holds back the clock answered before it. A request
/// that was quick and then hangs or crashes the worker takes the answers gathered before it
/// (same bundle, same read) down with it: those requests fail with the worker, as the ones
/// queued behind it always did, and are retried like them.
///
/// Value type; owned by the worker's request thread.
public struct AnswerBatching {
    public static let quickNanoseconds: UInt64 = 1_000_000
    public let capacity: Int
    private var lastCall: [Data: UInt64] = [:]

    public init(capacity: Int = 1024) { self.capacity = capacity }

    /// Whether the answers gathered before `request` may wait for its answer.
    public func mayWait(for request: Data) -> Bool {
        guard let ns = lastCall[request] else { return false }
        return ns < Self.quickNanoseconds
    }

    /// Records how long `request` took.
    public mutating func record(_ request: Data, nanoseconds: UInt64) {
        if lastCall.count >= capacity && lastCall[request] == nil { lastCall = [:] }
        lastCall[request] = nanoseconds
    }
}
