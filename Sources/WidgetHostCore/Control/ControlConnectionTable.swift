import FoundationEssentials

/// Which control-socket connections the host keeps (issue 15): 20 000 idle connections once
/// exhausted the host's file descriptors, and a plugin folder that could not be listed looked
/// empty. At most `capacity` connections are open; a connection quiet for `idleSeconds` with no
/// request in progress (an idle client, or one that sent half a line) is closed; when a new
/// client comes and every slot is taken, the connection quiet longest (with no request in
/// progress) makes room, so `widgethost status` still gets through a flood. Times are monotonic
/// seconds. A value type; used on the loop thread.
public struct ControlConnectionTable: Sendable {
    struct Entry: Sendable {
        var lastActivity: Double
        var pending = 0
    }

    public let capacity: Int
    public let idleSeconds: Double
    private var entries: [Int: Entry] = [:]

    public init(capacity: Int, idleSeconds: Double = 10) {
        self.capacity = max(1, capacity)
        self.idleSeconds = idleSeconds
    }

    /// A capacity that leaves most of a process's descriptors to workers, watches and files:
    /// a quarter of the soft `RLIMIT_NOFILE`, between 4 and 64.
    public static func capacity(forFileLimit limit: Int) -> Int { min(64, max(4, limit / 4)) }

    public var count: Int { entries.count }

    /// Whether some connection has no request in progress, so could become idle: while none
    /// has (no connection, or only view-stream subscriptions, whose request lasts as long as
    /// they do), nothing needs sweeping and the host need not wake for it.
    public var hasConnectionWithoutRequest: Bool { entries.values.contains { $0.pending == 0 } }

    /// Admits connection `id`. Returns the connection to close to make room (the one quiet
    /// longest with no request in progress), `id` itself when every slot is busy with a request
    /// (the newcomer is refused), or nil when there was room.
    public mutating func admit(_ id: Int, now: Double) -> Int? {
        guard entries.count >= capacity else { entries[id] = Entry(lastActivity: now); return nil }
        guard let victim = entries.filter({ $0.value.pending == 0 }).min(by: { ($0.value.lastActivity, $0.key) < ($1.value.lastActivity, $1.key) })?.key
        else { return id }
        entries[victim] = nil
        entries[id] = Entry(lastActivity: now)
        return victim
    }

    /// Bytes arrived from `id`, or a reply went to it.
    public mutating func activity(_ id: Int, now: Double) { entries[id]?.lastActivity = now }

    public mutating func requestStarted(_ id: Int, now: Double) {
        entries[id]?.pending += 1
        entries[id]?.lastActivity = now
    }

    public mutating func requestEnded(_ id: Int, now: Double) {
        if let p = entries[id]?.pending { entries[id]?.pending = max(0, p - 1) }
        entries[id]?.lastActivity = now
    }

    public mutating func remove(_ id: Int) { entries[id] = nil }

    /// Connections quiet for `idleSeconds` with no request in progress, oldest first.
    public func idle(now: Double) -> [Int] {
        entries.filter { $0.value.pending == 0 && now - $0.value.lastActivity >= idleSeconds }
            .sorted { ($0.value.lastActivity, $0.key) < ($1.value.lastActivity, $1.key) }.map(\.key)
    }
}
