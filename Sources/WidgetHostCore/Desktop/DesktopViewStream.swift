import FoundationEssentials
import Logging
import OpenWidgetKit
#if canImport(Glibc)
import Glibc
#endif

/// The connection a view-stream subscriber is served on (the platform's control-socket client).
/// Loop thread only.
public protocol DesktopViewTransport: AnyObject {
    /// Bytes written but not yet taken by the kernel (libuv's write queue).
    var unwrittenBytes: Int { get }
    /// Queues one encoded line; the platform calls `DesktopViewStream.drained(_:)` when a write
    /// completes.
    func write(_ line: [UInt8])
    /// Ends the connection (the stream dropped the subscriber); `reason` is for the log.
    func close(reason: String)
}

/// The host's side of the desktop view stream (`{"op":"watch"}`, `DesktopViewMessage`): the
/// desktop's current state — the resolved layout and each desktop widget's current entry, stale
/// and running state — and its subscribers, each told a snapshot when it comes, then every
/// change, and a new snapshot when the layout or configuration changes. Nothing is written
/// while nothing changes.
///
/// A subscriber never blocks the host or grows its memory: each has a `DesktopViewBacklog`
/// (coalesced to the latest state per widget while its connection is full, dropped after
/// `stallSeconds` without reading). At most `maxSubscribers` are served; more are refused.
///
/// Threading: loop thread only.
public final class DesktopViewStream {
    public static let defaultMaxSubscribers = 8

    public let maxSubscribers: Int
    private let stallSeconds: Double
    private let loop: any HostLoop
    private let logger: Logger
    /// The layout last published (a subscriber's snapshot).
    public private(set) var layout = DesktopViewMessage.Layout(widgets: [], anchor: "top-right", margin: 32, gap: 22,
                                                               columns: 2, scale: 1, dark: nil)
    /// The desktop widgets' current state by id.
    public private(set) var widgets: [String: DesktopViewMessage.Widget] = [:]
    private var subscribers: [Int: (transport: any DesktopViewTransport, backlog: DesktopViewBacklog)] = [:]
    /// Wakes the stream when the first held-back subscriber's time is up, at `stallDeadline`.
    private var stallTimer: (any HostTimer)?
    private var stallDeadline: Double?
    /// The message last encoded, and its line.
    private var lastEncoded: (message: DesktopViewMessage, line: [UInt8])?
    /// Monotonic seconds for the backlogs (`HostLoop.now` is the wall clock, which may be set).
    private let monotonic: () -> Double

    public init(loop: any HostLoop, maxSubscribers: Int = DesktopViewStream.defaultMaxSubscribers, stallSeconds: Double = 30,
                monotonic: @escaping () -> Double = DesktopViewStream.monotonicSeconds, logger: Logger) {
        self.loop = loop; self.maxSubscribers = maxSubscribers; self.stallSeconds = stallSeconds
        self.monotonic = monotonic; self.logger = logger
    }

    public var subscriberCount: Int { subscribers.count }

    /// Serves `transport` as subscriber `id`: it is sent the snapshot now. Returns why it is
    /// refused instead (the caller tells it and closes it).
    public func subscribe(id: Int, _ transport: any DesktopViewTransport) -> String? {
        guard subscribers.count < maxSubscribers else {
            return "refused: \(maxSubscribers) view stream subscribers are connected, the most this host serves"
        }
        var backlog = DesktopViewBacklog(stallSeconds: stallSeconds)
        backlog.add(snapshot())
        subscribers[id] = (transport, backlog)
        logger.info("view stream: subscriber \(id) connected (\(subscribers.count) of \(maxSubscribers))")
        pump(id)
        return nil
    }

    /// Subscriber `id` is gone (closed by its peer, or dropped).
    public func unsubscribe(_ id: Int) {
        guard subscribers.removeValue(forKey: id) != nil else { return }
        logger.info("view stream: subscriber \(id) disconnected")
    }

    /// A write to subscriber `id` completed: what waited for it may go.
    public func drained(_ id: Int) { pump(id) }

    /// Publishes the desktop as it is now: a snapshot when `snapshot` is asked for or the layout
    /// changed, else the widgets that differ from the last published state and the ids no longer
    /// there (nothing when nothing differs).
    public func publish(layout new: DesktopViewMessage.Layout, widgets list: [DesktopViewMessage.Widget], snapshot forced: Bool) {
        let incoming = Dictionary(list.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        if forced || new != layout {
            layout = new
            widgets = incoming
            broadcast(snapshot())
            return
        }
        let changed = list.filter { widgets[$0.id] != $0 }
        let removed = widgets.keys.filter { incoming[$0] == nil }.sorted()
        guard !changed.isEmpty || !removed.isEmpty else { return }
        widgets = incoming
        broadcast(DesktopViewMessage(snapshot: false, layout: nil, widgets: changed, removed: removed))
    }

    /// One widget's new state; ignored unless the id is on the desktop, and unless it differs.
    public func update(_ widget: DesktopViewMessage.Widget) {
        guard widgets[widget.id] != nil || layout.widgets.contains(widget.id), widgets[widget.id] != widget else { return }
        widgets[widget.id] = widget
        broadcast(DesktopViewMessage(snapshot: false, layout: nil, widgets: [widget], removed: []))
    }

    /// Closes every subscriber (shutdown).
    public func close() {
        stallTimer?.close(); stallTimer = nil
        let all = subscribers
        subscribers = [:]
        for (_, s) in all { s.transport.close(reason: "the host is stopping") }
    }

    private func snapshot() -> DesktopViewMessage {
        let ordered = layout.widgets.compactMap { widgets[$0] } + widgets.values.filter { !layout.widgets.contains($0.id) }.sorted { $0.id < $1.id }
        return DesktopViewMessage(snapshot: true, layout: layout, widgets: ordered, removed: [])
    }

    private func broadcast(_ message: DesktopViewMessage) {
        for id in subscribers.keys.sorted() {
            subscribers[id]?.backlog.add(message)
            pump(id)
        }
    }

    /// Sends what subscriber `id` is owed if its connection is empty; drops it when held too long.
    private func pump(_ id: Int) {
        guard var s = subscribers[id] else { return }
        let wasHeld = s.backlog.heldSince != nil
        let step = s.backlog.next(unwrittenBytes: s.transport.unwrittenBytes, now: monotonic())
        subscribers[id] = s
        switch step {
        case .idle: break
        case .send(let message):
            // Subscribers that keep up are sent the same message: encoded once for them all.
            let line: [UInt8]?
            if let last = lastEncoded, last.message == message { line = last.line } else {
                line = Self.encode(message)
                lastEncoded = line.map { (message, $0) }
            }
            guard let line else {
                logger.error("view stream: a message could not be encoded; subscriber \(id) is dropped")
                drop(id, reason: "a message could not be encoded")
                return
            }
            s.transport.write(line)
        case .hold(let deadline):
            if !wasHeld { logger.debug("view stream: subscriber \(id) is not reading: its changes are coalesced until it does") }
            armStallTimer(at: deadline)
        case .drop(let reason):
            logger.warning("view stream: subscriber \(id) dropped: \(reason)")
            drop(id, reason: reason)
        }
    }

    private func drop(_ id: Int, reason: String) {
        guard let s = subscribers.removeValue(forKey: id) else { return }
        s.transport.close(reason: reason)
    }

    private func armStallTimer(at deadline: Double) {
        if let armed = stallDeadline, armed <= deadline, stallTimer?.isScheduled == true { return }
        if stallTimer == nil {
            stallTimer = loop.makeTimer { [weak self] in
                guard let self else { return }
                self.stallDeadline = nil
                for id in self.subscribers.keys.sorted() { self.pump(id) }
            }
        }
        stallDeadline = deadline
        stallTimer?.schedule(after: max(0, deadline - monotonic()))
    }

    /// `CLOCK_MONOTONIC` in seconds.
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// One line of the stream: `WireCodec` JSON and `\n`, written directly (`DesktopViewMessageJSON`).
    static func encode(_ message: DesktopViewMessage) -> [UInt8]? { DesktopViewMessageJSON.line(message) }
}
